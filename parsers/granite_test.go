package parsers_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/internal/testvocab"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// TestGraniteRealVocab streams every granite case one real Granite 3.2 token
// per delta, with the tokens' IDs: the phrases are several ordinary tokens
// there, cut anywhere by the deltas.
func TestGraniteRealVocab(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	conformance.RunVocab(t, casesDir+"/granite.json", "granite")
}

// TestGraniteRealIDs checks the ID-level methods, which upstream lacks, on
// real Granite 3.2 token IDs.
func TestGraniteRealIDs(t *testing.T) {
	tok := testvocab.Load(t, "granite")
	const (
		thought = " The user asks for 2+2. Adding gives 4.\n\n"
		answer  = " The answer is 4."
		out     = "Here is my thought process:" + thought + "Here is my response:" + answer
	)
	d, err := tokenizer.Resolve(tok, "Here is my response:")
	if err != nil {
		t.Fatal(err)
	}
	if d.Single() {
		t.Fatal("the response phrase is one token; the test needs several")
	}
	ids := tok.Encode(out)
	split := sectionsOf(t, tok, ids, "Here is my thought process:", thought, "Here is my response:")
	p, err := reasoning.New("granite", tok)
	if err != nil {
		t.Fatal(err)
	}
	if !p.IsReasoningEnd(ids) {
		t.Error("IsReasoningEnd = false after the response phrase")
	}
	if p.IsReasoningEnd(ids[:split.contentFrom-1]) {
		t.Error("IsReasoningEnd = true before the response phrase is complete")
	}
	if got := tok.Decode(p.ExtractContentIDs(ids)); got != answer {
		t.Errorf("ExtractContentIDs decodes to %q, want %q", got, answer)
	}
	if got := p.CountReasoningTokens(ids); got != split.reasoningTokens {
		t.Errorf("CountReasoningTokens = %d, want %d", got, split.reasoningTokens)
	}
	first := -1
	for i := 1; i <= len(ids); i++ {
		if p.IsReasoningEndStreaming(ids[:i], ids[i-1:i]) {
			first = i - 1
			break
		}
	}
	if first != split.contentFrom-1 {
		t.Errorf("IsReasoningEndStreaming first true at token %d, want %d, the last token of the response phrase", first, split.contentFrom-1)
	}
	want := reasoning.Message{Reasoning: thought, Content: answer}
	q, _ := reasoning.New("granite", tok)
	if diff := cmp.Diff(want, reasoning.Collect(q, oneTokenDeltas(tok, ids))); diff != "" {
		t.Errorf("Collect one real token per delta mismatch (-want +got):\n%s", diff)
	}

	// The thinking system prompt quotes both phrases; the end check stops at
	// the assistant turn's role markers.
	prompt := "<|start_of_role|>system<|end_of_role|>Respond in the format Here is my thought process: ... Here is my response: ...<|end_of_text|>\n" +
		"<|start_of_role|>user<|end_of_role|>2+2?<|end_of_text|>\n<|start_of_role|>assistant<|end_of_role|>"
	if p.IsReasoningEnd(tok.Encode(prompt)) {
		t.Error("IsReasoningEnd(prompt) = true: the system prompt's phrases counted")
	}
}

// sections is where a three-part output falls in its tokens.
type sections struct {
	reasoningTokens int // tokens whose text overlaps the reasoning
	contentFrom     int // the first token whose text overlaps the content
}

// sectionsOf maps the text open+reasoning+close+content onto the tokens of
// ids: the reference the ID methods are checked against.
func sectionsOf(t *testing.T, tok tokenizer.Tokenizer, ids []int, open, reasoning, close string) sections {
	t.Helper()
	rStart, rEnd := len(open), len(open)+len(reasoning)
	cStart := rEnd + len(close)
	s := sections{contentFrom: -1}
	at := 0
	for i, id := range ids {
		n := len(tok.Decode([]int{id}))
		if at < rEnd && at+n > rStart {
			s.reasoningTokens++
		}
		if s.contentFrom < 0 && at+n > cStart {
			s.contentFrom = i
		}
		at += n
	}
	if s.contentFrom < 0 {
		t.Fatal("no content token")
	}
	return s
}

// oneTokenDeltas cuts ids into one delta per token, with its text.
func oneTokenDeltas(tok tokenizer.Tokenizer, ids []int) []reasoning.Delta {
	ds := make([]reasoning.Delta, len(ids))
	for i := range ids {
		ds[i] = reasoning.Delta{Text: tok.Decode(ids[i : i+1]), IDs: ids[i : i+1]}
	}
	return ds
}

// TestGranitePhraseCutEverywhere cuts a phrase at every byte, in two and in
// three deltas, with text on both sides, so that no cut loses or leaks text.
func TestGranitePhraseCutEverywhere(t *testing.T) {
	for _, open := range []string{"Here is my thought process:", "Here's my thought process:"} {
		for _, close := range []string{"Here is my response:", "Here's my response:"} {
			out := "pre " + open + " r " + close + " c"
			want := reasoning.Message{Reasoning: " r ", Content: "pre  c"}
			for i := 0; i <= len(out); i++ {
				for j := i; j <= len(out); j += 3 {
					p, _ := reasoning.New("granite", nil)
					got := reasoning.Collect(p, []reasoning.Delta{{Text: out[:i]}, {Text: out[i:j]}, {Text: out[j:]}})
					if diff := cmp.Diff(want, got); diff != "" {
						t.Fatalf("cuts %d, %d of %q mismatch (-want +got):\n%s", i, j, out, diff)
					}
				}
			}
		}
	}
}
