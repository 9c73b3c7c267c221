package parsers_test

// This file is not part of package parsers' tests: scripts/instr-compare.sh
// adds it to a checkout's parsers package with go test -overlay, at any
// revision since 8e14570 (it uses only what the package's tests have had
// since then), and counts the instructions of each irMeasure call with
// callgrind. It lives under testdata so that go build, go vet and
// staticcheck ignore it.

import (
	"fmt"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/parsers"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Callgrind's client requests (valgrind/callgrind.h). Callgrind instruments
// nothing until the first (--instr-atstart=no), so that what is not
// measured, such as loading vocabularies, runs at the speed of valgrind's
// core, several times that of callgrind.
const (
	cgDumpStats            = 'C'<<24 | 'T'<<16
	cgZeroStats            = 'C'<<24 | 'T'<<16 + 1
	cgStartInstrumentation = 'C'<<24 | 'T'<<16 + 4
	cgStopInstrumentation  = 'C'<<24 | 'T'<<16 + 5
)

// irMeasure runs f with callgrind's instrumentation on and writes a profile
// of f alone: each profile holds the instructions of one workload (and the
// handful of the requests' own).
func irMeasure(f func()) {
	parsers.ValgrindRequest(&[6]uint64{cgStartInstrumentation})
	parsers.ValgrindRequest(&[6]uint64{cgZeroStats})
	f()
	parsers.ValgrindRequest(&[6]uint64{cgDumpStats})
	parsers.ValgrindRequest(&[6]uint64{cgStopInstrumentation})
}

// irIDNames are the names whose ID methods are measured (BenchmarkIDs's).
var irIDNames = []string{"qwen3", "deepseek_r1", "cohere_command3", "gemma4", "kimi_k2", "plamo3", "openai_gptoss", "hunyuan_a13b", "muse_spark"}

// TestInstrCount runs, for every name matching INSTR_NAMES, BenchmarkTable's
// workloads once each (after one run to warm up, unmeasured): streaming the
// sample repeated to 64 KiB in ~4-byte deltas and in one-token deltas with
// IDs on a new parser, and Extract of the sample repeated to 1 MiB on a
// parser that has split it once; for irIDNames, BenchmarkIDs's: the end
// check once per token on a new parser, ExtractContentIDs and
// CountReasoningTokens of the whole sequence. It writes to INSTR_OUT one
// line per irMeasure call, in order: name, workload, and the units (deltas,
// bytes or tokens) to divide the call's instructions by.
func TestInstrCount(t *testing.T) {
	out := os.Getenv("INSTR_OUT")
	if out == "" {
		t.Skip("INSTR_OUT not set: run by scripts/instr-compare.sh")
	}
	// The memory profiler samples an allocation about every 512 KiB: with
	// it on, allocating the 1 MiB Extract buffer adds noise to the extract
	// column.
	runtime.MemProfileRate = 0
	only := regexp.MustCompile(os.Getenv("INSTR_NAMES"))
	var list strings.Builder
	// measure runs setup's workload once to warm up, then measures it on a
	// new setup: what setup does (a new parser) is not counted.
	measure := func(name, workload string, units int, setup func() func()) {
		setup()()
		irMeasure(setup())
		fmt.Fprintf(&list, "%s\t%s\t%d\n", name, workload, units)
	}
	newParser := func(name string, tok tokenizer.Tokenizer) reasoning.Parser {
		p, err := reasoning.New(name, tok, thinkingOn)
		if err != nil {
			t.Fatalf("New(%q): %v", name, err)
		}
		return p
	}
	for _, name := range reasoning.Names() {
		if !only.MatchString(name) {
			continue
		}
		raw, err := os.ReadFile("../testdata/samples/" + name + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		repeat := func(n int) string { return strings.Repeat(string(raw), n/len(raw)+1)[:n] }
		small, big := repeat(64<<10), repeat(1<<20)

		textTok := conformance.Tokenizer(name, nil)
		var deltas []reasoning.Delta
		for i := 0; i < len(small); i += 4 {
			deltas = append(deltas, reasoning.Delta{Text: small[i:min(len(small), i+4)]})
		}
		stream := func(tok tokenizer.Tokenizer, ds []reasoning.Delta) func() func() {
			return func() func() {
				p := newParser(name, tok)
				return func() { irStream(p, ds) }
			}
		}
		measure(name, "bytes4", len(deltas), stream(textTok, deltas))
		p := newParser(name, textTok)
		measure(name, "extract", len(big), func() func() { return func() { p.Extract(big) } })

		tok, vocab := vocabFor(t, name)
		if _, err := reasoning.New(name, tok, thinkingOn); err == nil {
			chs, err := conformance.TokenChunkings(tok, small)
			if err != nil {
				t.Fatal(err)
			}
			measure(name, "token="+vocab, len(chs[0].Deltas), stream(tok, chs[0].Deltas))
		}
		if !slices.Contains(irIDNames, name) {
			continue
		}
		ids := tok.Encode(small)
		measure(name, "end-streaming", len(ids), func() func() {
			p := newParser(name, tok)
			return func() {
				for i := 1; i <= len(ids); i++ {
					p.IsReasoningEndStreaming(ids[:i], ids[i-1:i])
				}
			}
		})
		q := newParser(name, tok)
		measure(name, "content-ids", len(ids), func() func() { return func() { q.ExtractContentIDs(ids) } })
		measure(name, "count", len(ids), func() func() { return func() { q.CountReasoningTokens(ids) } })
	}
	if err := os.WriteFile(out, []byte(list.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// irStream feeds ds to p, as BenchmarkTable's streams do.
func irStream(p reasoning.Parser, ds []reasoning.Delta) {
	for _, d := range ds {
		p.ExtractStreaming(d)
	}
}
