package conformance

import (
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
	if err := reasoningtest.Check(Factory(name), KitConfig(name, e)); err != nil {
		t.Fatal(err)
	}
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
