package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// LongCat's reasoning markers, single special tokens of its vocabulary.
const (
	longcatThinkOpen  = "<longcat_think>"
	longcatThinkClose = "</longcat_think>"
)

var longcatFamily = newTagFamily(ThinkTag{
	Name:  "longcat",
	Open:  []string{longcatThinkOpen},
	Close: []string{longcatThinkClose},
})

// newLongcat builds the "longcat" parser (vLLM pull request
// LongcatReasoningParser, the deepseek_r1 rules with LongCat's markers).
//
// Markers: <longcat_think> and </longcat_think>, single tokens of LongCat's
// vocabulary (several tokens, matched as text, elsewhere). <think> means
// nothing here. The tool-call opener <longcat_tool_call> does not end
// reasoning.
// Starts in: reasoning (the template ends a thinking prompt with
// <longcat_think>). The block's first <longcat_think> is dropped wherever it
// comes; text before it is reasoning. A prompt that already closed the block
// (WithPrompt) starts the response in content.
// Thinking switch: none.
// Truncation: an output that never closes reasoning is all reasoning.
// Repeats: after the first </longcat_think> everything is content, verbatim.
// Streaming: holds back fewer bytes than "</longcat_think>", only while they
// may start it; Finish returns them to the section they belong to. Nothing
// is trimmed.
// End check: as deepseek_r1's, the last marker decides.
// Upstream: spec field-names §4.1, vllm/reasoning/longcat_reasoning_parser.py
// @86c6857c (no upstream test; the cases follow the code). Its streaming
// override splits at the end marker's text when the end ID is in the delta;
// ours splits on the text wherever the marker lands, and keeps text before a
// leading <longcat_think> (vLLM's extract drops it, spec policy 3). An older
// version of the file, on the think-tag base, made an output without the
// markers content; the spec's commit starts in reasoning, which we follow.
func newLongcat(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return longcatFamily.newParser(tok, cfg)
}

func init() {
	register("longcat", newLongcat, longcatFamily.entry(), about{engine: vllmPR, models: []string{"longcat*thinking"},
		summary: "`<longcat_think>`…`</longcat_think>`, starts in reasoning, one block (`deepseek_r1` with LongCat's markers)"})
}
