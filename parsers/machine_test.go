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
// through IsReasoningEndStreaming one to three tokens at a time, as
// speculative decoding does: now and then a draft of other tokens comes
// one at a time and is rejected, and the sequence is cut back into a delta
// of several tokens and grown again one token at a time. Every answer must
// be IsReasoningEnd's for the same IDs, with every marker one token (the
// end check's memo of answers) and with none (its walk).
//
// Fixed bug: a delta of several tokens after a rejected draft left the
// draft's answers in the memo at the lengths inside the delta, and a
// delta that cut back into it read them.
func TestEndCheckRollback(t *testing.T) {
	for _, name := range []string{"apertus2509", "beam", "hunyuan_a13b", "inkling", "intern_s1", "muse_glimmer", "muse_spark", "openai_gptoss", "solar_open2"} {
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
				check := func(seq []int, n int) { // seq's last n IDs are the delta
					got := p.IsReasoningEndStreaming(seq, seq[len(seq)-n:])
					fresh, _ := reasoning.New(name, v.tok)
					if want := fresh.IsReasoningEnd(seq); got != want {
						t.Fatalf("after %d IDs, the last %d new: IsReasoningEndStreaming = %v, IsReasoningEnd = %v", len(seq), n, got, want)
					}
				}
				r := rand.New(rand.NewPCG(1, 2))
				var seq []int
				for i := 0; i < len(ids); {
					if r.IntN(2) == 0 { // a draft of other tokens, then rejected
						draft := slices.Clip(seq)
						for range 1 + r.IntN(2) {
							draft = append(draft, ids[r.IntN(len(ids))])
							check(draft, 1)
						}
					}
					n := min(1+r.IntN(3), len(ids)-i)
					seq = append(seq, ids[i:i+n]...)
					i += n
					check(seq, n)
					if n > 1 { // cut back into the delta, grown again one at a time
						for k := len(seq) - 1 - r.IntN(n-1); k <= len(seq); k++ {
							check(seq[:k], 1)
						}
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
