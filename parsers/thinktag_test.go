package parsers_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// toy is a vocabulary in which the Qwen3 markers are single tokens and all
// other text is one token per byte.
func toy(t *testing.T) *tokenizer.Vocab {
	t.Helper()
	v, err := tokenizer.NewVocab(map[string]int{
		"<think>": 1, "</think>": 2, "<tool_call>": 3, "</tool_call>": 4, "<|im_start|>": 5, "<|im_end|>": 6,
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// bytesOf spells s one byte token at a time, so that a marker in s is typed
// as ordinary tokens rather than as its special token.
func bytesOf(v *tokenizer.Vocab, s string) []int {
	ids := make([]int, len(s))
	for i := range len(s) {
		ids[i] = v.Base() + int(s[i])
	}
	return ids
}

// TestIDsBeatText is spec policy 5 (vLLM test_reasoning_parser_text_special_token.py):
// with token IDs, a marker counts only when its special token arrived; the
// same characters typed as ordinary tokens are text.
func TestIDsBeatText(t *testing.T) {
	v := toy(t)
	for _, name := range []string{"qwen3", "deepseek_r1"} {
		t.Run(name, func(t *testing.T) {
			p, err := reasoning.New(name, v)
			if err != nil {
				t.Fatal(err)
			}
			deltas := []reasoning.Delta{
				{Text: "I write </think> as text", IDs: append(bytesOf(v, "I write </think>"), bytesOf(v, " as text")...)},
				{Text: ", then stop.", IDs: bytesOf(v, ", then stop.")},
				{Text: "</think>", IDs: []int{2}},
				{Text: "Answer.", IDs: bytesOf(v, "Answer.")},
			}
			want := reasoning.Message{Reasoning: "I write </think> as text, then stop.", Content: "Answer."}
			if diff := cmp.Diff(want, reasoning.Collect(p, deltas)); diff != "" {
				t.Errorf("Collect mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestIDBeforeText (bug:B3): a detokenizer may deliver a special token's ID one delta
// before its text (vLLM bug B3 mis-slices this case); the marker still splits
// where its text arrives.
func TestIDBeforeText(t *testing.T) {
	v := toy(t)
	p, err := reasoning.New("deepseek_r1", v)
	if err != nil {
		t.Fatal(err)
	}
	deltas := []reasoning.Delta{
		{Text: "abc", IDs: bytesOf(v, "abc")},
		{Text: "", IDs: []int{2}},
		{Text: "</think>xyz", IDs: bytesOf(v, "xyz")},
	}
	want := reasoning.Message{Reasoning: "abc", Content: "xyz"}
	if diff := cmp.Diff(want, reasoning.Collect(p, deltas)); diff != "" {
		t.Errorf("Collect mismatch (-want +got):\n%s", diff)
	}
}

// TestInvalidUTF8 checks that bytes that are not UTF-8 pass through byte-exact
// in both sections, whatever the chunking.
func TestInvalidUTF8(t *testing.T) {
	out := "\xff<think>\xe4\xb8\xadok\xc3</think>\xfe\x80 end\xe4"
	want := reasoning.Message{Reasoning: "\xff\xe4\xb8\xadok\xc3", Content: "\xfe\x80 end\xe4"}
	for _, name := range []string{"qwen3", "deepseek_r1"} {
		p, err := reasoning.New(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, p.Extract(out)); diff != "" {
			t.Errorf("%s: Extract mismatch (-want +got):\n%s", name, diff)
		}
		var deltas []reasoning.Delta
		for i := range len(out) {
			deltas = append(deltas, reasoning.Delta{Text: out[i : i+1]})
		}
		if diff := cmp.Diff(want, reasoning.Collect(p, deltas)); diff != "" {
			t.Errorf("%s: Collect mismatch (-want +got):\n%s", name, diff)
		}
	}
}

// TestPromptIDsBeatPromptText: with a tokenizer, a prompt's IDs decide where
// the response starts, so a closer typed as ordinary tokens at the end of the
// prompt text does not close reasoning.
func TestPromptIDsBeatPromptText(t *testing.T) {
	v := toy(t)
	text := "<|im_start|>assistant\n</think>\n"
	typed := append([]int{5}, bytesOf(v, "assistant\n</think>\n")...)
	special := v.Encode(text)
	for _, tt := range []struct {
		name string
		ids  []int
		want reasoning.Message
	}{
		{"typed closer", typed, reasoning.Message{Reasoning: "x"}},
		{"special closer", special, reasoning.Message{Content: "x"}},
		{"text only", nil, reasoning.Message{Content: "x"}},
	} {
		p, err := reasoning.New("qwen3", v, reasoning.WithPrompt(text, tt.ids))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, p.Extract("x")); diff != "" {
			t.Errorf("%s: Extract mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestStreamingEndCheck pins the meaning of IsReasoningEndStreaming: the
// answer of IsReasoningEnd for the whole IDs, found from the newest delta
// (a multi-token marker may begin before it) and what the parser remembers
// of the IDs before it, or, asked out of sequence, by looking back.
func TestStreamingEndCheck(t *testing.T) {
	// A vocabulary without </think>: the closer is eight byte tokens.
	v, err := tokenizer.NewVocab(map[string]int{"<think>": 1})
	if err != nil {
		t.Fatal(err)
	}
	p, err := reasoning.New("deepseek_r1", v)
	if err != nil {
		t.Fatal(err)
	}
	ids := append(append([]int{1}, v.Encode("ab</think>")...), v.Encode("c")...)
	close := 3 + len("</think>") // index just after the closer
	for _, tt := range []struct {
		name  string
		delta int // the newest delta is ids[delta:cut]
		cut   int
		want  bool
	}{
		{"closer completes in delta", close - 2, close, true},
		{"closer wholly before delta", close, close + 1, true},
		{"delta inside reasoning", 1, 2, false},
		{"closer cut short", close - 3, close - 1, false},
	} {
		if got := p.IsReasoningEndStreaming(ids[:tt.cut], ids[tt.delta:tt.cut]); got != tt.want {
			t.Errorf("%s: IsReasoningEndStreaming = %v, want %v", tt.name, got, tt.want)
		}
	}
	if !p.IsReasoningEnd(ids) {
		t.Error("IsReasoningEnd with a multi-token closer = false, want true")
	}
	if got, want := p.CountReasoningTokens(ids), 2; got != want {
		t.Errorf("CountReasoningTokens = %d, want %d", got, want)
	}
	if diff := cmp.Diff(v.Encode("c"), p.ExtractContentIDs(ids)); diff != "" {
		t.Errorf("ExtractContentIDs mismatch (-want +got):\n%s", diff)
	}
}

// TestNoTokenizerIDMethods: without a tokenizer no marker can be seen.
func TestNoTokenizerIDMethods(t *testing.T) {
	ids := []int{1, 2, 3}
	for _, tt := range []struct {
		name    string
		opts    []reasoning.Option
		ended   bool
		content []int
	}{
		{"deepseek_r1", nil, false, nil},
		{"basic", nil, true, ids},
		{"identity", nil, true, ids},
		{"qwen3", []reasoning.Option{reasoning.WithThinking(false)}, true, ids},
	} {
		p, err := reasoning.New(tt.name, nil, tt.opts...)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.IsReasoningEnd(ids); got != tt.ended {
			t.Errorf("%s: IsReasoningEnd = %v, want %v", tt.name, got, tt.ended)
		}
		if diff := cmp.Diff(tt.content, p.ExtractContentIDs(ids)); diff != "" {
			t.Errorf("%s: ExtractContentIDs mismatch (-want +got):\n%s", tt.name, diff)
		}
		if got := p.CountReasoningTokens(ids); got != 0 {
			t.Errorf("%s: CountReasoningTokens = %d, want 0", tt.name, got)
		}
	}
}

// TestTypedNilTokenizer: a nil *Vocab behaves as no tokenizer, not a panic.
func TestTypedNilTokenizer(t *testing.T) {
	var v *tokenizer.Vocab
	p, err := reasoning.New("qwen3", v)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Extract("a</think>b"); got != (reasoning.Message{Reasoning: "a", Content: "b"}) {
		t.Errorf("Extract = %+v", got)
	}
	p.IsReasoningEnd([]int{1})
}

// TestB4SingleMarkerTokenCarriesText: vLLM swallows a delta whose IDs are
// exactly the end marker's even when its text also carries text a
// detokenizer held back (bug B4); we keep that text.
func TestB4SingleMarkerTokenCarriesText(t *testing.T) {
	v := toy(t)
	for _, name := range []string{"deepseek_r1", "qwen3"} {
		p, err := reasoning.New(name, v)
		if err != nil {
			t.Fatal(err)
		}
		deltas := []reasoning.Delta{
			{Text: "thinking ", IDs: bytesOf(v, "thinking ")},
			{Text: "", IDs: []int{v.Base() + 0xe4, v.Base() + 0xb8}}, // the first bytes of 中, held back
			{Text: "中</think>", IDs: []int{v.Base() + 0xad, 2}},
			{Text: "done", IDs: bytesOf(v, "done")},
		}
		want := reasoning.Message{Reasoning: "thinking 中", Content: "done"}
		if diff := cmp.Diff(want, reasoning.Collect(p, deltas)); diff != "" {
			t.Errorf("bug:B4 %s: Collect mismatch (-want +got):\n%s", name, diff)
		}
	}
}
