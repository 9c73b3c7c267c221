package conformance

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/reasoningtest"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Filler returns n bytes or so of ordinary prose without any marker, for
// benchmarks and long streams.
func Filler(n int) string {
	const line = "The quick brown fox jumps over the lazy dog; 6 × 7 = 42, and 東京 is far. "
	return strings.Repeat(line, n/len(line)+1)[:n]
}

// CheckInvariants checks the guarantees of the design for one registered
// name with the conformance kit, on the corpus generated from its catalog
// entry's markers, under every default setting (reasoningtest.Check), and,
// for a family that needs tokenizer metadata, that New refuses to build it
// without.
func CheckInvariants(t *testing.T, name string) {
	t.Helper()
	e := entry(t, name)
	checkNeedsConfig(t, name, e)
	c := KitConfig(name, e)
	if !FullSweep() {
		c.Outputs, c.NoCorpus = sampleCorpus(c), true
	}
	if err := reasoningtest.Check(Factory(name), c); err != nil {
		t.Fatal(err)
	}
}

// FullSweep reports whether the exhaustive tier is running (make check
// sets REASONING_SWEEP=full). Otherwise CheckInvariants checks a seeded
// third of the generated corpus, so that make test stays within minutes
// on a busy 2-core machine. The sample is the same on every run, so a run
// cannot fail where the one before it passed.
func FullSweep() bool { return os.Getenv("REASONING_SWEEP") == "full" }

// sampleCorpus returns the kit's generated corpus for c with only every
// third output kept, starting at an offset taken from c's seed, after c's
// own Outputs.
func sampleCorpus(c reasoningtest.Config) []string {
	corpus := reasoningtest.Corpus(slices.Concat(c.Markers, c.Boundaries), c.Seed)
	out := slices.Clone(c.Outputs)
	for i := int(c.Seed % 3); i < len(corpus); i += 3 {
		out = append(out, corpus[i])
	}
	return out
}

// CheckInvariantsVocab checks, for one registered name, that a real model
// vocabulary changes nothing: on a third of the name's generated corpus,
// under every setting, Extract with tok equals Extract with text alone, and
// streaming one real token per delta (with its ID), per detokenized token
// and three tokens per delta gives the same. A name the vocabulary cannot
// serve (New fails, say because a marker is not one token of it) is
// reported by the returned error, for the caller to decide. Bytes the
// vocabulary cannot produce (invalid UTF-8 its decoder replaces) are
// replaced as it would.
func CheckInvariantsVocab(t *testing.T, name string, tok tokenizer.Tokenizer) error {
	t.Helper()
	e := entry(t, name)
	if e.Config != nil {
		tok = tokenizer.WithConfig(tok, e.Config) // the family's metadata, not the model's
	}
	if _, err := reasoning.New(name, tok); err != nil {
		return err
	}
	c := KitConfig(name, e)
	c.Tokenizer, c.OnlyTokenizer = tok, true
	if err := reasoningtest.Check(Factory(name), c); err != nil {
		t.Fatal(err)
	}
	return nil
}
