package parsers_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/internal/testvocab"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// TestCasesRealVocab streams every golden case one real token per delta,
// with the tokens' IDs, through the vocabularies of models each family
// serves: Qwen3 (<think> and </think> are single tokens), and Llama 3 and
// DeepSeek V3, where they are several ordinary tokens (R1 distills on those
// bases write them so).
func TestCasesRealVocab(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	for _, tt := range []struct{ file, vocab string }{
		{"qwen3", "qwen3"},
		{"deepseek_r1", "qwen3"},
		{"deepseek_r1", "llama3"},
		{"deepseek_r1", "deepseek-v3"},
		{"basic", "qwen3"},
		{"identity", "qwen3"},
	} {
		t.Run(tt.file+"/"+tt.vocab, func(t *testing.T) {
			conformance.RunVocab(t, "../testdata/cases/"+tt.file+".json", tt.vocab)
		})
	}
}

// TestQwen3RealIDs checks the ID-level methods on real Qwen3 token IDs.
func TestQwen3RealIDs(t *testing.T) {
	tok := testvocab.Load(t, "qwen3")
	p, err := reasoning.New("qwen3", tok)
	if err != nil {
		t.Fatal(err)
	}
	const (
		thought = "\nThe user wants the weather. I'll call the tool.\n"
		answer  = "\n\nLet me check.\n<tool_call>\n{\"name\": \"get_weather\"}\n</tool_call>"
	)
	ids := tok.Encode("<think>" + thought + "</think>" + answer)
	if ids[0] != 151667 {
		t.Fatalf("<think> encodes to %d, want 151667", ids[0])
	}
	if !p.IsReasoningEnd(ids) {
		t.Error("IsReasoningEnd = false after </think>")
	}
	if got := tok.Decode(p.ExtractContentIDs(ids)); got != answer {
		t.Errorf("ExtractContentIDs decodes to %q, want %q", got, answer)
	}
	if got, want := p.CountReasoningTokens(ids), len(tok.Encode(thought)); got != want {
		t.Errorf("CountReasoningTokens = %d, want %d", got, want)
	}

	// The tool call alone ends reasoning (implicit end), one delta at a time.
	ids = tok.Encode("<think>\nI need the tool.\n<tool_call>\n{}")
	ended := -1
	for i := 1; i <= len(ids); i++ {
		if p.IsReasoningEndStreaming(ids[:i], ids[i-1:i]) {
			ended = i - 1
			break
		}
	}
	if ended < 0 || ids[ended] != 151657 {
		t.Errorf("IsReasoningEndStreaming first true at token %d, want the <tool_call> token 151657", ended)
	}

	// The thinking-disabled prefill closes reasoning in the prompt.
	prompt := "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"
	q, err := reasoning.New("qwen3", tok, reasoning.WithThinking(true), reasoning.WithPrompt(prompt, tok.Encode(prompt)))
	if err != nil {
		t.Fatal(err)
	}
	if !q.IsReasoningEnd(tok.Encode(prompt)) {
		t.Error("IsReasoningEnd(prompt) = false for a closed prefill")
	}
	if diff := cmp.Diff(reasoning.Message{Content: "Hello!"}, q.Extract("Hello!")); diff != "" {
		t.Errorf("Extract after a closed prefill mismatch (-want +got):\n%s", diff)
	}
	// A previous turn's closed block does not count: the scan stops at <|im_start|>.
	history := "<|im_start|>assistant\n<think>\nold\n</think>\n\nold answer<|im_end|>\n<|im_start|>user\nmore<|im_end|>\n<|im_start|>assistant\n"
	if p.IsReasoningEnd(tok.Encode(history)) {
		t.Error("IsReasoningEnd = true for a prompt whose only </think> is in an earlier turn")
	}
}

// TestQwen3TypedCloserRealIDs is spec policy 5 with the real vocabulary:
// "</think>" spelled with ordinary tokens is text in a stream that carries
// IDs, and the ID methods do not see it.
func TestQwen3TypedCloserRealIDs(t *testing.T) {
	tok := testvocab.Load(t, "qwen3")
	p, err := reasoning.New("qwen3", tok)
	if err != nil {
		t.Fatal(err)
	}
	typed := append(tok.Encode("The tag </"), tok.Encode("think> closes it.")...)
	for _, id := range typed {
		if id == 151668 {
			t.Fatal("the typed closer encodes to the special token; the test needs ordinary tokens")
		}
	}
	var deltas []reasoning.Delta
	for _, id := range typed {
		deltas = append(deltas, reasoning.Delta{Text: tok.Decode([]int{id}), IDs: []int{id}})
	}
	want := reasoning.Message{Reasoning: "The tag </think> closes it."}
	if diff := cmp.Diff(want, reasoning.Collect(p, deltas)); diff != "" {
		t.Errorf("Collect mismatch (-want +got):\n%s", diff)
	}
	if p.IsReasoningEnd(typed) {
		t.Error("IsReasoningEnd = true for a typed closer")
	}
	// Text alone cannot tell the two apart (vLLM B10: the engine splits the
	// same output in extract but not in streaming): Extract, which has no
	// IDs, matches the text.
	want = reasoning.Message{Reasoning: "The tag ", Content: " closes it."}
	if diff := cmp.Diff(want, p.Extract(tok.Decode(typed))); diff != "" {
		t.Errorf("bug:B10: Extract mismatch (-want +got):\n%s", diff)
	}
}

// TestMultiTokenMarkerIDs checks the ID-level methods where <think> and
// </think> are several ordinary tokens, spelled differently with the text
// around them: the methods read the tokens' text, and a token belongs to
// every section its text falls in.
func TestMultiTokenMarkerIDs(t *testing.T) {
	const (
		thought = "\nTwo and two make four, so the answer is 4.\n"
		answer  = "\n\nThe answer is **4**."
		out     = "<think>" + thought + "</think>" + answer
	)
	for _, vocab := range []string{"llama3", "deepseek-v3"} {
		t.Run(vocab, func(t *testing.T) {
			tok := testvocab.Load(t, vocab)
			if _, ok := tok.TokenID("</think>"); ok {
				t.Fatalf("</think> is one token in %s; the test needs several", vocab)
			}
			p, err := reasoning.New("deepseek_r1", tok)
			if err != nil {
				t.Fatal(err)
			}
			ids := tok.Encode(out)
			// Reference: the sections each token's text overlaps.
			var reasoningTokens, contentFrom int
			contentFrom = -1
			rStart, rEnd := len("<think>"), len("<think>"+thought)
			cStart := len("<think>" + thought + "</think>")
			at := 0
			for i, id := range ids {
				n := len(tok.Decode([]int{id}))
				if at < rEnd && at+n > rStart {
					reasoningTokens++
				}
				if contentFrom < 0 && at+n > cStart {
					contentFrom = i
				}
				at += n
			}
			if !p.IsReasoningEnd(ids) {
				t.Error("IsReasoningEnd = false")
			}
			if p.IsReasoningEnd(ids[:contentFrom-1]) {
				t.Error("IsReasoningEnd = true before </think> is complete")
			}
			if got := p.CountReasoningTokens(ids); got != reasoningTokens {
				t.Errorf("CountReasoningTokens = %d, want %d", got, reasoningTokens)
			}
			if diff := cmp.Diff(ids[contentFrom:], p.ExtractContentIDs(ids)); diff != "" {
				t.Errorf("ExtractContentIDs mismatch (-want +got):\n%s", diff)
			}
			first := -1
			for i := 1; i <= len(ids); i++ {
				if p.IsReasoningEndStreaming(ids[:i], ids[i-1:i]) {
					first = i - 1
					break
				}
			}
			if end := len(tok.Encode("<think>" + thought + "</think>")); first < 0 || first > end {
				t.Errorf("IsReasoningEndStreaming first true at token %d, want the token that completes </think>", first)
			}
			// Streaming one real token per delta, with IDs, gives the split.
			var deltas []reasoning.Delta
			for _, id := range ids {
				deltas = append(deltas, reasoning.Delta{Text: tok.Decode([]int{id}), IDs: []int{id}})
			}
			q, _ := reasoning.New("deepseek_r1", tok)
			if diff := cmp.Diff(reasoning.Message{Reasoning: thought, Content: answer}, reasoning.Collect(q, deltas)); diff != "" {
				t.Errorf("Collect mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// vocabName returns the folder name of the real vocabulary that realVocab
// names for name.
func vocabName(name string) string {
	if v := realVocab[name]; v != "" {
		return v
	}
	return "qwen3"
}

// vocabFor returns the real vocabulary realVocab names for name, with the
// family's tokenizer metadata where it needs some (not the model's), and
// the vocabulary's folder name. A missing vocabulary skips or fails tb.
func vocabFor(tb testing.TB, name string) (tokenizer.Tokenizer, string) {
	tb.Helper()
	vocab := vocabName(name)
	tok := testvocab.Load(tb, vocab)
	if e, ok := catalog.Lookup(name); ok && e.Config != nil {
		tok = tokenizer.WithConfig(tok, e.Config)
	}
	return tok, vocab
}

// realVocab names the real vocabulary that TestInvariantsRealVocab,
// TestLongOutput and BenchmarkTable use for a name: the model's own where ../shared/vocab has
// it, else Qwen3's (a name missing here uses Qwen3's).
var realVocab = map[string]string{
	"deepseek_v3": "deepseek-v3", "deepseek_v4": "deepseek-v3", "deepseek_v41": "deepseek-v3", "deepseek_v32": "deepseek-v3",
	"openai_gptoss": "gpt-oss", "beam": "gpt-oss",
	"granite":      "granite",
	"hunyuan_a13b": "hunyuan-a13b", "hy_v3": "hunyuan-a13b", "hy_v4": "hunyuan-a13b",
	"kimi_k2": "kimi-k2", "kimi_k25": "kimi-k2", "kimi": "kimi-k2", "kimi_k3": "kimi-k2", "k2_horizon": "kimi-k2",
	"mistral": "mistral-nemo",
	"apriel":  "mistral-nemo", // Apriel Thinker is built on Pixtral 12B, Tekken's vocabulary: </s> is a control token
	"olmo3":   "olmo",
	"gemma4":  "gemma3",
}
