package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

var step3Family = newTagFamily(ThinkTag{
	Name:  "step3",
	Close: []string{thinkClose},
})

// newStep3 builds the "step3" parser (vLLM Step3ReasoningParser).
//
// Markers: </think> only; a <think> is text.
// Starts in: reasoning: everything before the first </think> is reasoning.
// A prompt that ends in </think> starts the response in content.
// Thinking switch: none.
// Truncation: an output without </think> is all reasoning.
// Repeats: after the first </think> everything is content, verbatim.
// Streaming: holds back fewer bytes than "</think>", only while they may
// start it. A </think> whose ID arrives before its text still splits where
// the text arrives (the newest upstream test demands this; stored
// implementations emit the tag as content).
// Upstream: spec vllm-thinktag §24. The end check finds </think> anywhere
// (no scoping), as upstream.
func newStep3(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return step3Family.newParser(tok, cfg)
}

func init() {
	register("step3", newStep3, step3Family.entry(), about{engine: vllm, models: []string{"step3"},
		summary: "`</think>` only: everything before it is reasoning"})
}

var step3p5Family = newTagFamily(ThinkTag{
	Name:          "step3p5",
	Open:          []string{thinkOpen},
	Close:         []string{thinkClose},
	Tools:         []string{qwenToolCall},
	Repeats:       RepeatsDropStray,
	TrimReasoning: true,
	Boundaries:    []string{chatMLStart, chatMLEnd},
})

// newStep3p5 builds the "step3p5" parser (vLLM's Step-3.5 engine parser).
//
// Markers: <think> and </think>; <tool_call> ends reasoning and stays in
// content.
// Starts in: reasoning, always; the end check stops at <|im_start|> and
// <|im_end|>, so a </think> of an earlier turn does not count.
// Thinking switch: none (enable_thinking is ignored).
// Truncation: an unclosed block is reasoning.
// Repeats: as qwen3: every <think> in reasoning and every later </think> in
// content is dropped.
// Streaming: the trailing whitespace of reasoning is held until more
// reasoning comes and dropped when the block ends; the newline after
// </think> is kept.
// End check: as vLLM's, the last marker decides, so a stray <think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: spec vllm-thinktag §14.1 (engine, registry 6e0d282). The legacy
// Step3p5ReasoningParser trims exactly one newline on each side of </think>
// and reports "not ended" while </think> is the last token, changing state
// as it answers (B8); we follow the engine.
func newStep3p5(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return step3p5Family.newParser(tok, cfg)
}

func init() {
	register("step3p5", newStep3p5, step3p5Family.entry(), about{engine: vllm, models: []string{"step-3.5", "step3.5", "step3p5"},
		summary: "as `qwen3`, always thinking"})
}
