package parsers_test

import (
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
)

// TestGemma4OrdinaryTokens streams every gemma4 case one real token per
// delta through Gemma 3's vocabulary, which has none of Gemma 4's channel
// tokens: the markers are several ordinary tokens there, found by their
// text, while <eos> is a special token found by its ID.
func TestGemma4OrdinaryTokens(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	conformance.RunVocab(t, casesDir+"/gemma4.json", "gemma3")
}

// TestGemma4Alias checks the name Dynamo and SGLang give the family.
func TestGemma4Alias(t *testing.T) {
	for _, name := range []string{"gemma-4", "Gemma4", "GEMMA-4"} {
		if got, ok := reasoning.Default.Canonical(name); !ok || got != "gemma4" {
			t.Errorf("Canonical(%q) = %q, %v; want gemma4", name, got, ok)
		}
	}
}
