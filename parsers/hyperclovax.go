package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

var hyperclovaxFamily = newTagFamily(ThinkTag{
	Name:          "hyperclovax_seed_think",
	Open:          []string{thinkOpen},
	Close:         []string{thinkClose},
	Thinking:      Switch{Keys: []string{"thinking"}},
	TrimReasoning: true,
	TrimContent:   "\n",
	TrimOpen:      "\n",
	rules: []rule{
		trimsStart(),
	},
})

// newHyperCLOVAX builds the "hyperclovax_seed_think" parser (vLLM pull
// request and NAVER's vLLM plugin HyperCLOVAXSeedThinkReasoningParser, for
// HyperCLOVA X SEED Think 32B).
//
// Markers: <think> and </think>, single tokens or not. The template ends a
// thinking prompt "<|im_start|>assistant\n<think>\n" and a non-thinking one
// "…<think>\n\n</think>\n\n".
// Starts in: reasoning with thinking on; the block's first <think> is
// dropped wherever it comes and text before it is reasoning. A prompt that
// opened reasoning (WithPrompt) starts it there even with thinking off; one
// that closed it starts the response in content.
// Thinking switch: chat_template_kwargs "thinking", default off: the whole
// output is content, untouched, and the end check is always true.
// Truncation: an output that never closes reasoning is all reasoning, its
// trailing whitespace dropped.
// Repeats: after the first </think> everything is content, verbatim: a
// second </think> stays as text.
// Streaming: the newlines at the start of reasoning and right after
// </think> are dropped; the trailing whitespace of reasoning is held until
// more reasoning comes and dropped when the block ends. Holds back fewer
// bytes than "</think>", only while they may start it.
// End check: a </think> after the last <think> says ended, as deepseek_r1's
// (the last marker decides); thinking off says ended.
// Upstream: spec field-names §5.1,
// vllm/reasoning/hyperclovax_seed_think_reasoning_parser.py @256c7019 (also
// faefc5b1) and its test @256c7019. Upstream's extract strips the newlines
// around reasoning and its stream does not; both of ours strip them (spec
// policy 2). Ours strips every trailing whitespace character of reasoning,
// spaces and tabs too, where upstream strips newlines only (the family's
// trim is the shared one), and strips it from an unclosed block too, which
// upstream returns untrimmed. Upstream reads only </think>, so a <think>
// the model writes itself stays in its reasoning; ours drops the block's
// first one as deepseek_r1 does, and counts a <think> in the prompt (spec
// policy 4). Upstream's end check says ended at <|im_end|> and depends on
// what it streamed; ours reads </think> in the IDs alone (spec policy 7),
// so an output that stops at <|im_end|> inside reasoning has not ended it.
func newHyperCLOVAX(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return hyperclovaxFamily.newParser(tok, cfg)
}

func init() {
	register("hyperclovax_seed_think", newHyperCLOVAX, hyperclovaxFamily.entry(), about{engine: vllmPR, models: []string{"hyperclovax-seed-think-32b"},
		summary: "`<think>`…`</think>`, newlines around reasoning and after `</think>` dropped; `thinking` (off → identity)"})
}
