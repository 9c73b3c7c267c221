package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Intern-S1's action blocks (tool calls): <|action_start|>, optional
// whitespace, <|plugin|>, the call, optional whitespace, <|action_end|>.
const (
	internActionStart = "<|action_start|>"
	internActionEnd   = "<|action_end|>"
)

// internThinking is vLLM intern-s1's switch: off only when enable_thinking
// is false (in chat_template_kwargs, where a top-level field lands too).
func internThinking(c reasoning.Config) bool {
	on, set := c.Thinking("enable_thinking")
	return on || !set
}

var internS1VLLMSpec = hoistSpec{
	machineSpec: machineSpec{markers: []string{thinkOpen, thinkClose, internActionStart, internActionEnd}, endText: thinkClose},
	dropLone:    true,
	trimNewline: true,
	thinking:    internThinking,
}

// newInternS1VLLM builds the "intern_s1" parser (vLLM's "intern-s1",
// InternS1ReasoningParser): R1 base whose action blocks inside reasoning
// reach content where they come.
//
// Markers: <think> and </think>; <|action_start|> inside reasoning begins
// an action block (a tool call), which is content, verbatim with its
// markers, up to and including <|action_end|>; reasoning goes on after it.
// Inside the block no other marker counts. None need be a single token.
// Starts in: reasoning (R1 base); the first <think> is dropped wherever it
// comes and text before it is reasoning. A prompt (WithPrompt) whose last
// marker is </think> starts the response in content, one whose last is
// <think> in reasoning.
// Thinking switch: enable_thinking; off only when it is false: the response
// starts in content, where a <think> opens the block and a </think> before
// any block is dropped.
// Truncation: an unclosed block is reasoning; an unclosed action block
// leaves the rest in content.
// Repeats: after the first </think> everything is content, verbatim.
// Whitespace: one "\n" at the start and one at the end of the reasoning are
// dropped, as upstream trims them.
// Streaming: holds back fewer bytes than the longest marker while they may
// start one, and a trailing "\n" of reasoning until more reasoning comes.
// Upstream: spec field-names §9; vllm/reasoning/intern_s1_reasoning_parser.py
// @0b871025 (registry, name "intern-s1"); tests/reasoning/
// test_intern_s1_reasoning_parser.py @2854f617. Not SGLang's "interns1" (its
// Qwen3 detector), a name of its own; LMDeploy's "intern-s1", a deprecated
// alias of its default parser, is not followed (vLLM's wins, policy 1).
// Deliberate differences (spec policy 2): upstream's extract cuts every
// action block out of reasoning and puts the blocks, in order, between the
// text before <think> and the text after </think>, while its stream is
// plain R1 and leaves them in reasoning; here both put a block in content
// where it comes, so content holds it before the answer as upstream's
// extract does. Upstream matches a block only with <|plugin|> after its
// opener; here <|action_start|> alone begins one. With thinking off,
// upstream's extract makes the text before a </think> reasoning, and falls
// back to the reasoning when content is empty; a stream cannot take sent
// content back, so here that text is content and the closer is dropped.
// The end check and content IDs follow the split (R1 base upstream).
func newInternS1VLLM(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return newHoist(&internS1VLLMSpec, tok, cfg)
}

func init() {
	register("intern_s1", newInternS1VLLM, internS1VLLMSpec.entry([]string{"enable_thinking"}), about{engine: vllmPR,
		summary: "`<think>`…`</think>`, starts in reasoning; `<|action_start|>`…`<|action_end|>` blocks inside reasoning go to content in place; `enable_thinking` (on)"})
}
