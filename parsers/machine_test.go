package parsers_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// TestEndCheckRollback streams the IDs of each channel family's sample
// through IsReasoningEndStreaming one token at a time, as a Gate does,
// cutting the sequence back now and then (speculative decoding rejecting
// tokens) and growing it again with other tokens: every answer must be
// IsReasoningEnd's for the same IDs, with every marker one token (the end
// check's memo of answers) and with none (its walk).
func TestEndCheckRollback(t *testing.T) {
	for _, name := range []string{"beam", "hunyuan_a13b", "inkling", "muse_glimmer", "muse_spark", "openai_gptoss"} {
		e, _ := catalog.Lookup(name)
		markers := slices.Concat(e.Markers, e.Boundaries)
		for _, v := range []struct {
			name string
			tok  tokenizer.Tokenizer
		}{{"single", conformance.ToyVocab(markers)}, {"bytes", conformance.ToyVocab(e.Boundaries)}} {
			t.Run(name+"/"+v.name, func(t *testing.T) {
				ids := v.tok.Encode(strings.Repeat(readSample(t, name), 6))
				if len(ids) > 3000 {
					ids = ids[:3000]
				}
				p, err := reasoning.New(name, v.tok)
				if err != nil {
					t.Fatal(err)
				}
				r := rand.New(rand.NewPCG(1, 2))
				var seq []int
				for i := 0; i < len(ids); i++ {
					if r.IntN(8) == 0 && len(seq) > 0 {
						seq = seq[:len(seq)-1-r.IntN(min(len(seq), 5))] // cut back
						seq = append(seq, ids[r.IntN(len(ids))])        // and grown with another token
					} else {
						seq = append(seq, ids[i])
					}
					got := p.IsReasoningEndStreaming(seq, seq[len(seq)-1:])
					fresh, _ := reasoning.New(name, v.tok)
					if want := fresh.IsReasoningEnd(seq); got != want {
						t.Fatalf("after %d IDs: IsReasoningEndStreaming = %v, IsReasoningEnd = %v", len(seq), got, want)
					}
				}
			})
		}
	}
}

// TestDriverMarkerAfterMovingText pins a rule of the driver: a marker
// counts only if it still counts after the text just before it, even in a
// grammar whose markers change with text. In Hunyuan A13B, text right
// after </think> ends the wait for <answer> (the rest is content, spec
// vllm-main §1.4 H4), so an <answer> right after that text is text too;
// were the wait still open it would open the answer and be dropped.
func TestDriverMarkerAfterMovingText(t *testing.T) {
	const out = "<think>\nA\n</think>x<answer>B"
	want := reasoning.Message{Reasoning: "A", Content: "x<answer>B"}
	p, err := reasoning.New("hunyuan_a13b", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Extract(out); got != want {
		t.Errorf("Extract(%q) = %+v, want %+v", out, got, want)
	}
	for i := range len(out) + 1 {
		deltas := []reasoning.Delta{{Text: out[:i]}, {Text: out[i:]}}
		if got := reasoning.Collect(p, deltas); got != want {
			t.Fatalf("Collect(%q) = %+v, want %+v", []string{out[:i], out[i:]}, got, want)
		}
		p, _ = reasoning.New("hunyuan_a13b", nil)
	}
}
