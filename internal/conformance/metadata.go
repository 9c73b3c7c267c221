package conformance

import (
	"errors"
	"slices"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Tokenizer returns the tokenizer the harness builds name's parsers with in
// place of tok. For most families that is tok itself, nil included (text
// only). A family whose catalog entry carries tokenizer metadata (Config:
// hf, configured from the model's response_template) cannot be built
// without it: it gets tok with that metadata attached, unless tok has
// metadata of its own, and for a nil tok the toy vocabulary of its markers
// with the metadata, so that every check still runs for it.
func Tokenizer(name string, tok tokenizer.Tokenizer) tokenizer.Tokenizer {
	e, ok := catalog.Lookup(name)
	if !ok || e.Config == nil || tokenizer.ConfigOf(tok) != nil {
		return tok
	}
	if tok == nil {
		tok = ToyVocab(slices.Concat(e.Markers, e.Boundaries))
	}
	return tokenizer.WithConfig(tok, e.Config)
}

// checkNeedsConfig checks, for a family whose catalog entry carries
// tokenizer metadata, that New refuses to build it without: with no
// tokenizer and with one that has no metadata, New must fail with an error
// wrapping tokenizer.ErrNoConfig. It does nothing for other families.
func checkNeedsConfig(t testing.TB, name string, e catalog.Entry) {
	t.Helper()
	if e.Config == nil {
		return
	}
	for _, tok := range []tokenizer.Tokenizer{nil, ToyVocab(e.Markers)} {
		if _, err := reasoning.New(name, tok); !errors.Is(err, tokenizer.ErrNoConfig) {
			t.Errorf("New(%q, %T without metadata) error = %v, want one wrapping tokenizer.ErrNoConfig", name, tok, err)
		}
	}
}
