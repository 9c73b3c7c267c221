package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

var nemotronFamily = newTagFamily(ThinkTag{
	Name:  "nemotron",
	Open:  []string{thinkOpen},
	Close: []string{thinkClose},
	Start: StartContent,
	rules: []rule{
		openAtStart(),
	},
})

// newNemotron builds the "nemotron" parser (the vLLM pull request's
// NemotronReasoningParser, made by its string-based parser factory).
//
// Markers: <think> and </think>, as text: in the tokenizers the parser was
// written for they are several tokens each.
// Starts in: content. A <think> counts only as the very first bytes of the
// output; anywhere else it is text, and so is everything after it. A prompt
// that ends in <think> (WithPrompt) or WithForceReasoning starts the
// response in reasoning.
// Thinking switch: none.
// Truncation: an output that opens with <think> and never closes it is all
// reasoning.
// Repeats: one block; the first </think> ends it and everything after it is
// content, verbatim. A </think> with no block before it is content.
// Streaming: holds back fewer bytes than "<think>" at the start while the
// output may still begin with it, and fewer than "</think>" in reasoning
// while they may start it; Finish returns them to their section.
// Upstream: spec field-names §11.2; vllm/reasoning/nemotron_reasoning_parser.py
// @286e5890, vllm/reasoning/string_based_reasoning_parser.py@953e08a3 and
// their tests. vLLM's extract splits at the first <think>…</think> pair
// anywhere, dropping the text before it, and makes an unclosed block
// content, while its stream makes a text that does not begin with <think>
// content and an unclosed block reasoning; a streaming client cannot take
// back what it sent, so both of ours follow the stream (spec policies 2 and
// 3; cases "policy:2/..."). The ID methods decode, as for "olmo3". Its
// models are served by "nemotron_v3" and "nemotron_deci"; ForModel gives
// none this name.
func newNemotron(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return nemotronFamily.newParser(tok, cfg)
}

func init() {
	register("nemotron", newNemotron, nemotronFamily.entry(), about{engine: vllmPR,
		summary: "`<think>` (only at the start)…`</think>`, starts in content; both tags or no reasoning"})
}
