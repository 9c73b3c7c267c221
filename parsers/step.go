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
	Name:       "step3p5",
	Open:       []string{thinkOpen},
	Close:      []string{thinkClose},
	Boundaries: []string{chatMLStart, chatMLEnd},
	rules: []rule{
		newlineEachSide(),
		dropLeadSpace(),
	},
})

// newStep3p5 builds the "step3p5" parser (vLLM Step3p5ReasoningParser), for
// Step-3.5 and Step-3.7.
//
// Markers: <think> and </think>; <tool_call> is text (it does not end
// reasoning).
// Starts in: reasoning, always, as deepseek_r1: the block's first <think> is
// dropped wherever it comes and text before it is reasoning; whitespace
// alone before it is dropped (spec vllm-main §1.1). The end check
// stops at <|im_start|> and <|im_end|>, so a </think> of an earlier turn
// does not count.
// Thinking switch: none (enable_thinking is ignored).
// Truncation: an unclosed block is reasoning, less one trailing newline.
// Repeats: as deepseek_r1: after the first </think> everything is content,
// verbatim, a later </think> or <think> included; a second <think> inside
// reasoning is reasoning text.
// Streaming: one newline that ends reasoning is held until more reasoning
// comes and dropped when the block ends; one newline right after </think>
// is dropped. No other whitespace is.
// End check: as vLLM's, the last marker decides, so a stray <think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: vllm/reasoning/step3p5_reasoning_parser.py@0b19ebca (vLLM main
// registers the legacy class; spec vllm-main §1.2). Its streaming path drops
// a <think> that arrives as its own delta inside reasoning; we keep it as
// text, as its extract does (spec policy 2). Its end check says "not
// ended" while </think> is the last token and changes state as it answers
// (B8); ours says ended there. The engine port (vllm/parser/step3p5.py, not
// on main at 0b19ebca) would drop every opener inside reasoning and every
// later </think>, drop all trailing reasoning whitespace and keep the
// newline after </think>, and end reasoning at a <tool_call>; we follow main
// until it merges. vLLM streams later markers verbatim when only a
// reasoning parser is configured (spec vllm-main §0.1); ours apply the same
// rules in both paths.
func newStep3p5(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return step3p5Family.newParser(tok, cfg)
}

func init() {
	register("step3p5", newStep3p5, step3p5Family.entry(), about{engine: vllm, models: []string{"step-3.5", "step3.5", "step3p5", "step-3.7", "step3.7", "step3p7"},
		summary: "`<think>`…`</think>`, starts in reasoning, one newline dropped on each side of `</think>`"})
}
