package parsers_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/internal/testvocab"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// TestMistralRealVocab streams every mistral case one real Tekken token per
// delta (Mistral NeMo's vocabulary), with the tokens' IDs. [TOOL_CALLS],
// [INST] and [/INST] are control tokens there; [THINK] and [/THINK] are not
// (NeMo predates them), so they are several ordinary tokens, matched by
// their text as a v11 vocabulary's <think> is.
func TestMistralRealVocab(t *testing.T) {
	conformance.RunVocab(t, casesDir+"/mistral.json", "mistral-nemo")
}

// tekkenV13 is Mistral NeMo's Tekken vocabulary with two of its unused
// control slots named [THINK] and [/THINK], the way v13 vocabularies hold
// them: a stand-in for Magistral 2509's, which is not available here.
type tekkenV13 struct{ tokenizer.Tokenizer }

const (
	v13Think    = 34 // <SPECIAL_34> in NeMo
	v13ThinkEnd = 35 // <SPECIAL_35> in NeMo
)

func (t tekkenV13) TokenID(s string) (int, bool) {
	switch s {
	case "[THINK]":
		return v13Think, true
	case "[/THINK]":
		return v13ThinkEnd, true
	}
	return t.Tokenizer.TokenID(s)
}

func (t tekkenV13) Encode(text string) []int {
	var ids []int
	for text != "" {
		i, id, n := len(text), 0, 0
		if j := strings.Index(text, "[THINK]"); j >= 0 {
			i, id, n = j, v13Think, len("[THINK]")
		}
		if j := strings.Index(text, "[/THINK]"); j >= 0 && j < i {
			i, id, n = j, v13ThinkEnd, len("[/THINK]")
		}
		if i > 0 {
			ids = append(ids, t.Tokenizer.Encode(text[:i])...)
		}
		if n == 0 {
			break
		}
		ids = append(ids, id)
		text = text[i+n:]
	}
	return ids
}

func (t tekkenV13) Decode(ids []int) string {
	var b strings.Builder
	from := 0
	for i, id := range ids {
		if id != v13Think && id != v13ThinkEnd {
			continue
		}
		b.WriteString(t.Tokenizer.Decode(ids[from:i]))
		if id == v13Think {
			b.WriteString("[THINK]")
		} else {
			b.WriteString("[/THINK]")
		}
		from = i + 1
	}
	b.WriteString(t.Tokenizer.Decode(ids[from:]))
	return b.String()
}

// TestMistralV13ControlTokens streams the v13 table of
// tests/parser/mistral/test_reasoning.py one real token per delta, [THINK]
// and [/THINK] as control tokens, and checks the ID-level methods on those
// IDs (test_is_reasoning_end).
func TestMistralV13ControlTokens(t *testing.T) {
	tok := tekkenV13{testvocab.Load(t, "mistral-nemo")}
	for _, tt := range []struct {
		out  string
		want reasoning.Message
		end  bool
	}{
		{"[THINK]r[/THINK]c", reasoning.Message{Reasoning: "r", Content: "c"}, true},
		{"[THINK]r[/THINK]", reasoning.Message{Reasoning: "r"}, true},
		{"[THINK]a\nb[/THINK]c\nd", reasoning.Message{Reasoning: "a\nb", Content: "c\nd"}, true},
		{"hello world", reasoning.Message{Content: "hello world"}, false},
		{"[THINK]r", reasoning.Message{Reasoning: "r"}, false},
		{"[/THINK]This is the rest", reasoning.Message{Content: "This is the rest"}, true},
		{"Before\n[THINK]r[/THINK]\nAfter", reasoning.Message{Reasoning: "r", Content: "Before\n\nAfter"}, true},
		{"[THINK]Let me think.[/THINK][TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}", reasoning.Message{Reasoning: "Let me think.", Content: "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}"}, true},
		{"[THINK]r[TOOL_CALLS]f", reasoning.Message{Reasoning: "r", Content: "[TOOL_CALLS]f"}, true},
	} {
		ids := tok.Encode(tt.out)
		p, err := reasoning.New("mistral", tok)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, reasoning.Collect(p, oneTokenDeltas(tok, ids))); diff != "" {
			t.Errorf("%q one token per delta mismatch (-want +got):\n%s", tt.out, diff)
		}
		q, _ := reasoning.New("mistral", tok)
		if diff := cmp.Diff(tt.want, q.Extract(tt.out)); diff != "" {
			t.Errorf("%q Extract mismatch (-want +got):\n%s", tt.out, diff)
		}
		if got := q.IsReasoningEnd(ids); got != tt.end {
			t.Errorf("IsReasoningEnd(%q) = %v, want %v", tt.out, got, tt.end)
		}
		content := q.ExtractContentIDs(ids)
		if !tt.end {
			if content != nil {
				t.Errorf("ExtractContentIDs(%q) = %v, want nil", tt.out, content)
			}
			continue
		}
		if got := tok.Decode(content); !strings.HasSuffix(tt.want.Content, got) || strings.Contains(got, "THINK") {
			t.Errorf("ExtractContentIDs(%q) decodes to %q, want the content after the block", tt.out, got)
		}
	}

	// [THINK] typed as ordinary tokens is text (policy 5).
	typed := append(tok.Tokenizer.Encode("Use the [THINK] tag"), tok.Tokenizer.Encode(" like this.")...)
	p, _ := reasoning.New("mistral", tok)
	want := reasoning.Message{Content: "Use the [THINK] tag like this."}
	if diff := cmp.Diff(want, reasoning.Collect(p, oneTokenDeltas(tok, typed))); diff != "" {
		t.Errorf("typed [THINK] mismatch (-want +got):\n%s", diff)
	}
	if p.IsReasoningEnd(typed) {
		t.Error("IsReasoningEnd = true for typed markers")
	}

	// The count and the edge on real IDs.
	ids := tok.Encode("[THINK]Two plus two is four.[/THINK]The answer is 4.")
	if got, want := p.CountReasoningTokens(ids), len(tok.Encode("Two plus two is four.")); got != want {
		t.Errorf("CountReasoningTokens = %d, want %d", got, want)
	}
	first := -1
	for i := 1; i <= len(ids); i++ {
		if p.IsReasoningEndStreaming(ids[:i], ids[i-1:i]) {
			first = i - 1
			break
		}
	}
	if first < 0 || ids[first] != v13ThinkEnd {
		t.Errorf("IsReasoningEndStreaming first true at token %d, want the [/THINK] token", first)
	}

	// The two-turn loop: turn 2's prompt holds turn 1's block and tool call;
	// the end check stops at [INST]/[/INST], and the generation's block is
	// reasoning.
	prompt := "<s>[INST]What is the weather in Dallas?[/INST][THINK]I should check Dallas weather.[/THINK][TOOL_CALLS]get_weather[ARGS]{\"city\": \"Dallas\"}</s>" +
		"[TOOL_RESULTS]Dallas: 70F sunny[/TOOL_RESULTS][INST]And in Paris?[/INST]"
	q, err := reasoning.New("mistral", tok, reasoning.WithPrompt(prompt, tok.Encode(prompt)))
	if err != nil {
		t.Fatal(err)
	}
	if q.IsReasoningEnd(tok.Encode(prompt)) {
		t.Error("IsReasoningEnd(turn-2 prompt) = true: turn 1's block counted")
	}
	gen := "[THINK]I should check Paris weather.[/THINK][TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}"
	want = reasoning.Message{Reasoning: "I should check Paris weather.", Content: "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}"}
	if diff := cmp.Diff(want, reasoning.Collect(q, oneTokenDeltas(tok, tok.Encode(gen)))); diff != "" {
		t.Errorf("turn 2 mismatch (-want +got):\n%s", diff)
	}
}
