package parsers_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/testvocab"
	"github.com/reasoning-go/reasoning/reasoningtest"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// The regression tests of issue 16: eight places where the token IDs, the
// prompt and the text split disagreed. Qwen3's IDs: <think> 151667,
// </think> 151668.

func newParser(t *testing.T, name string, tok tokenizer.Tokenizer, opts ...reasoning.Option) reasoning.Parser {
	t.Helper()
	p, err := reasoning.New(name, tok, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A special token where its marker does not count leaves no ID pending that
// a later look-alike typed as ordinary tokens could use up.
func TestAgreeInactiveTokenLeavesNothingPending(t *testing.T) {
	tok := testvocab.Load(t, "qwen3")
	p := newParser(t, "basic", tok)
	got := reasoning.Collect(p, []reasoning.Delta{
		{Text: "<think>", IDs: []int{151667}}, {Text: "<think>", IDs: []int{151667}}, {Text: "</think>", IDs: []int{151668}},
		{Text: "<", IDs: []int{27}}, {Text: "think", IDs: []int{26865}}, {Text: ">", IDs: []int{29}},
	})
	if want := (reasoning.Message{Reasoning: "<think>", Content: "<think>"}); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// Prompt IDs and prompt text give the same start however long the prompt.
func TestAgreeLongPromptIDs(t *testing.T) {
	tok := testvocab.Load(t, "qwen3")
	prompt := "<|start|>assistant<|channel|>analysis<|message|>" + strings.Repeat("step by step, ", 110)
	const out = "more thought<|end|><|start|>assistant<|channel|>final<|message|>answer"
	want := reasoning.Message{Reasoning: "more thought", Content: "answer"}
	for _, name := range []string{"openai_gptoss", "beam"} {
		for _, ids := range [][]int{nil, tok.Encode(prompt)} {
			p := newParser(t, name, tok, reasoning.WithPrompt(prompt, ids))
			if got := p.Extract(out); got != want {
				t.Errorf("%s, prompt IDs %v: got %+v, want %+v", name, ids != nil, got, want)
			}
		}
	}
}

// The start comes from the prompt's last counting marker, wherever it is.
func TestAgreeContinuedAnswer(t *testing.T) {
	tok := testvocab.Load(t, "qwen3")
	prompt := "<|im_start|>user\nWhat is 6*7?<|im_end|>\n<|im_start|>assistant\n<think>\n6*7 is 42.\n</think>\n\nThe answer is"
	for _, ids := range [][]int{nil, tok.Encode(prompt)} {
		p := newParser(t, "qwen3", tok, reasoning.WithPrompt(prompt, ids))
		if got, want := p.Extract(" 42."), (reasoning.Message{Content: " 42."}); got != want {
			t.Errorf("prompt IDs %v: got %+v, want %+v", ids != nil, got, want)
		}
		if ids != nil && !p.IsReasoningEnd(ids) {
			t.Errorf("IsReasoningEnd(prompt) = false")
		}
	}
}

// Force overrides the prompt for the ID methods as it does for the text.
func TestAgreeForceOverridesPromptIDs(t *testing.T) {
	tok, _ := vocabFor(t, "hf")
	prompt := "<bos><|turn>user\nHi<turn|>\n<|turn>model\n"
	ids := tok.Encode(prompt)
	p := newParser(t, "hf", tok, reasoning.WithPrompt(prompt, ids), reasoning.WithForceReasoning(true))
	if got := p.Extract("plan"); got.Reasoning != "plan" {
		t.Fatalf("Extract = %+v, want reasoning", got)
	}
	if p.IsReasoningEnd(ids) {
		t.Errorf("IsReasoningEnd(prompt) = true with force on")
	}
	g := reasoning.NewGate(newParser(t, "hf", tok, reasoning.WithPrompt(prompt, ids), reasoning.WithForceReasoning(true)))
	g.Prompt(ids)
	g.Accept(tok.Encode("plan")...)
	if g.Constrain() {
		t.Errorf("Gate constrains the forced reasoning")
	}
}

// Markers inside a tool-call block do not count at the ID level either, as
// they do not in the text split. The families' markers are single tokens
// here, as in their models' vocabularies.
func TestAgreeToolBlockMarkersInert(t *testing.T) {
	for _, tt := range []struct{ name, out string }{
		{"gemma4", "<|channel>thought\nplan<channel|><|tool_call>call:f{q:<|channel>}<tool_call|>done"},
		{"cohere_command3", "<|START_THINKING|>plan<|END_THINKING|><|START_ACTION|>[{\"q\": \"<|START_THINKING|>\"}]<|END_ACTION|>done"},
		{"cohere_command4", "<|START_THINKING|>plan<|END_THINKING|><|START_ACTION|>[{\"q\": \"<|START_THINKING|>\"}]<|END_ACTION|>done"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e, ok := catalog.Lookup(tt.name)
			if !ok {
				t.Fatalf("no catalog entry for %s", tt.name)
			}
			named := map[string]int{}
			for i, mk := range e.Markers {
				named[mk] = 1000 + i
			}
			tok, err := tokenizer.NewVocab(named)
			if err != nil {
				t.Fatal(err)
			}
			p := newParser(t, tt.name, tok)
			ids := tok.Encode(tt.out)
			want := p.Extract(tt.out)
			if want.Reasoning != "plan" {
				t.Fatalf("Extract = %+v", want)
			}
			if !p.IsReasoningEnd(ids) {
				t.Errorf("IsReasoningEnd = false")
			}
			if !p.IsReasoningEndStreaming(ids, ids[len(ids)-3:]) {
				t.Errorf("IsReasoningEndStreaming = false")
			}
			if got := tok.Decode(p.ExtractContentIDs(ids)); got != want.Content {
				t.Errorf("ExtractContentIDs decodes to %q, want %q", got, want.Content)
			}
		})
	}
}

// A prompt's header prefix does not outlive a header that degrades.
func TestAgreeDegradedPromptHeader(t *testing.T) {
	const out = "oops\n<|end|><|start|>assistant<|channel|>final<|message|>The answer is 42.<|return|>"
	for _, name := range []string{"openai_gptoss", "beam"} {
		p := newParser(t, name, nil, reasoning.WithPrompt("<|start|>assistant to=functions.get_weather", nil))
		if got, want := p.Extract(out), (reasoning.Message{Content: "oops\nThe answer is 42."}); got != want {
			t.Errorf("%s: got %+v, want %+v", name, got, want)
		}
		if s, ok := p.(reasoning.Segmenter); ok {
			reasoning.Collect(p, []reasoning.Delta{{Text: out}})
			if segs := s.Segments(); len(segs) != 0 {
				t.Errorf("%s: segments %+v, want none", name, segs)
			}
		}
	}
}

// force_nonempty_content holds the reasoning back while streaming and sends
// it as content when none came, as Extract does.
func TestAgreeNonEmptyContentStreams(t *testing.T) {
	const out = "<think>plan</think>"
	for _, name := range []string{"nemotron_v3", "granite_thinking_parser", "qwen3"} {
		p := newParser(t, name, nil, reasoning.WithNonEmptyContent(true))
		want := p.Extract(out)
		var ds []reasoning.Delta
		for _, r := range out {
			ds = append(ds, reasoning.Delta{Text: string(r)})
		}
		if got := reasoning.Collect(p, ds); got != want {
			t.Errorf("%s: streamed %+v, Extract %+v", name, got, want)
		}
	}
}

// ernie45 keeps the text between its response tags verbatim.
func TestAgreeErnieResponseNewline(t *testing.T) {
	p := newParser(t, "ernie45", nil)
	got := p.Extract("plan</think>\n\n<response>\nThe answer.\n</response>")
	if want := "\nThe answer.\n"; got.Content != want {
		t.Errorf("content %q, want %q", got.Content, want)
	}
}

// ErrUnsupportedConfig's example: k2_horizon rejects a reasoning_effort it
// does not know; kimi_k3 takes any.
func TestAgreeUnsupportedConfigExample(t *testing.T) {
	kw := reasoning.WithChatTemplateKwargs(map[string]any{"reasoning_effort": "extreme"})
	if _, err := reasoning.New("k2_horizon", nil, kw); !errors.Is(err, reasoning.ErrUnsupportedConfig) {
		t.Errorf("k2_horizon with reasoning_effort extreme: error %v, want ErrUnsupportedConfig", err)
	}
	if _, err := reasoning.New("kimi_k3", nil, kw); err != nil {
		t.Errorf("kimi_k3 with reasoning_effort extreme: %v", err)
	}
}

// Content IDs decoded together give the content exactly, even where its
// first token is part of a character split across tokens (vLLM
// test_ufffd_reasoning_transition.py @37be96a9): decoding them one by one
// would show U+FFFD, as ExtractContentIDs's doc warns.
func TestContentIDsDecodeTogether(t *testing.T) {
	tok := testvocab.Load(t, "qwen3")
	const out = "plan</think>𝒳 answer"
	p := newParser(t, "qwen3", tok)
	ids := tok.Encode(out)
	content := p.ExtractContentIDs(ids)
	if got, want := tok.Decode(content), p.Extract(out).Content; got != want || want != "𝒳 answer" {
		t.Errorf("content IDs decode to %q, Extract's content %q, want %q", got, want, "𝒳 answer")
	}
	if first := tok.Decode(content[:1]); utf8.ValidString(first) {
		t.Logf("the first content token decodes alone to valid %q: this vocabulary no longer splits 𝒳", first)
	}
}

// A marker in an earlier turn of the prompt (the user's words, a history
// turn) does not say where the response starts: the prompt's last deciding
// marker counts only after the last turn marker.
func TestAgreePromptEarlierTurn(t *testing.T) {
	for _, tt := range []struct{ name, prompt string }{
		{"deepseek_r1", "<｜User｜>What does </think> mean?<｜Assistant｜>"},
		{"qwen3", "<|im_start|>assistant\n<think>\nold\n</think>\n\nA1<|im_end|>\n<|im_start|>user\nQ2<|im_end|>\n<|im_start|>assistant\n"},
		{"glm45", "<|assistant|>old</think>A1<|user|>Q2<|assistant|>"},
	} {
		p := newParser(t, tt.name, nil, reasoning.WithPrompt(tt.prompt, nil))
		if got, want := p.Extract("new thoughts</think>answer"), (reasoning.Message{Reasoning: "new thoughts", Content: "answer"}); got != want {
			t.Errorf("%s after %q: got %+v, want %+v", tt.name, tt.prompt, got, want)
		}
	}
}

// In prompt IDs, a marker's characters typed as ordinary tokens after the
// marker's own token do not count when the prompt is read (IDs beat text).
func TestAgreePromptTypedLookalike(t *testing.T) {
	tok := reasoningtest.ToyVocab([]string{"<think>", "</think>", "<|im_start|>", "<|im_end|>"})
	prompt := "<|im_start|>assistant\n<think>\nI typed </think> here"
	ids := tok.Encode("<|im_start|>assistant\n<think>")
	for _, b := range []byte("\nI typed </think> here") {
		ids = append(ids, tok.Base()+int(b))
	}
	for _, name := range []string{"qwen3", "deepseek_r1", "minimax_m2"} {
		p := newParser(t, name, tok, reasoning.WithPrompt(prompt, ids))
		if got := p.Extract("more</think>answer"); got.Reasoning != "more" {
			t.Errorf("%s: got %+v, want reasoning %q", name, got, "more")
		}
		if p.IsReasoningEnd(ids) {
			t.Errorf("%s: IsReasoningEnd(prompt IDs) = true", name)
		}
	}
}

// countingTok counts Decode calls: the work of the ID methods.
type countingTok struct {
	tokenizer.Tokenizer
	decodes int
}

func (c *countingTok) Decode(ids []int) string { c.decodes++; return c.Tokenizer.Decode(ids) }

// gemma4's end check reads a bounded prefix for its bare label: IDs that
// decode to nothing cost a bounded number of decodes per delta.
func TestAgreeLabelCheckBounded(t *testing.T) {
	tok := &countingTok{Tokenizer: reasoningtest.ToyVocab([]string{"<|channel>", "<channel|>"})}
	p := newParser(t, "gemma4", tok)
	const n = 2000
	var ids []int
	tok.decodes = 0
	for range n {
		ids = append(ids, -5)
		p.IsReasoningEndStreaming(ids, ids[len(ids)-1:])
	}
	if tok.decodes > 100*n {
		t.Errorf("%d decodes for %d one-token deltas: the check reads the sequence again", tok.decodes, n)
	}
}
