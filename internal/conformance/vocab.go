package conformance

import (
	"testing"

	"github.com/reasoning-go/reasoning/internal/testvocab"
	"github.com/reasoning-go/reasoning/tokenizer"
)

func loadVocab(tb testing.TB, name string) tokenizer.Tokenizer {
	tb.Helper()
	return testvocab.Load(tb, name)
}
