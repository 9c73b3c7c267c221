package parsers_test

import (
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// TestInklingOrdinaryTokens streams every inkling case one real token per
// delta through Qwen3's vocabulary, which has none of Inkling's tokens: the
// markers are several ordinary tokens there and are found by their text,
// as vLLM finds them (its Inkling parser lexes text only).
func TestInklingOrdinaryTokens(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	conformance.RunVocab(t, casesDir+"/inkling.json", "qwen3")
}

// TestInklingTypedMarkerStreaming streams a text block whose prose spells
// <|content_thinking|> in ordinary tokens, with IDs: the typed marker is
// text (spec policy 5), while the same characters with text alone are a
// marker, as vLLM reads them.
func TestInklingTypedMarkerStreaming(t *testing.T) {
	tok, err := tokenizer.NewVocab(map[string]int{"<|content_text|>": 200004, "<|content_thinking|>": 200008, "<|end_message|>": 200010})
	if err != nil {
		t.Fatal(err)
	}
	var deltas, texts []reasoning.Delta
	add := func(s string, ids []int) {
		deltas = append(deltas, reasoning.Delta{Text: s, IDs: ids})
		texts = append(texts, reasoning.Delta{Text: s})
	}
	add("<|content_text|>", []int{200004})
	add("Write ", tok.Encode("Write "))
	add("<|", tok.Encode("<|"))
	add("content_thinking|>", tok.Encode("content_thinking|>"))
	add(" to think.", tok.Encode(" to think."))
	add("<|end_message|>", []int{200010})
	p, _ := reasoning.New("inkling", tok)
	if got, want := reasoning.Collect(p, deltas), (reasoning.Message{Content: "Write <|content_thinking|> to think."}); got != want {
		t.Errorf("with IDs: Collect = %+v, want %+v", got, want)
	}
	q, _ := reasoning.New("inkling", tok)
	if got, want := reasoning.Collect(q, texts), (reasoning.Message{Reasoning: " to think.", Content: "Write "}); got != want {
		t.Errorf("text alone: Collect = %+v, want %+v", got, want)
	}
}
