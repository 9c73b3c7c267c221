package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// MiniMax M1's markers carry their newlines: "<think>\n" opens, and
// "\n</think>\n" closes. Watched together the two overlap (in an empty
// block the opener's newline is the closer's first byte), so the opener is
// watched as <think> and its newline is a label: one newline that begins the
// block is dropped.
const (
	minimaxM1Close   = "\n</think>\n"
	minimaxM1Newline = "\n" // the opener's last byte, dropped as the block's label
)

var minimaxM1Family = newTagFamily(ThinkTag{
	Name:  "minimax_m1",
	Open:  []string{thinkOpen},
	Close: []string{minimaxM1Close},
	Start: StartContent,
	rules: []rule{
		openAtStart(),
		labeled(minimaxM1Newline),
	},
})

// newMiniMaxM1 builds the "minimax_m1" parser (the vLLM pull request's
// MiniMaxM1ReasoningParser, a character machine over text markers).
//
// Markers: "<think>\n" and "\n</think>\n", newlines included, as text. A
// "</think>" without a newline on both sides is reasoning text.
// Starts in: content. <think> counts only as the very first bytes of the
// output; an output that does not begin with it is content, all of it. A
// prompt that ends in "<think>\n" (WithPrompt) or WithForceReasoning starts
// the response in reasoning.
// Thinking switch: none.
// Truncation: an unclosed block is reasoning.
// Repeats: one block; after it everything is content, verbatim.
// Streaming: holds back fewer bytes than the closer, only while they may
// start a marker, and a newline that begins the block until the next byte
// (or the block's end) shows whether it is the opener's; Finish returns
// held text to its section, so an output that ends in "\n</think>" keeps it
// as reasoning.
// Upstream: spec field-names §11.1; vllm/reasoning/minimax_m1_reasoning_parser.py
// and tests/reasoning/test_minimaxm1_reasoning_parser.py@6ffddd49. vLLM's
// extract makes an unclosed block content while its stream makes it
// reasoning; a streaming client cannot wait for a closer that may never
// come, so both of ours say reasoning (spec policy 2). In an empty block,
// "<think>\n</think>\n", vLLM's extract finds the closer overlapping the
// opener and its stream does not (all reasoning, never closed); ours is the
// extract's empty block (policy 2). vLLM's stream keeps a partial closer
// the output ends in; Finish returns it (policy 3). One difference is not
// upstream's: a <think> at the start with no newline after it opens the
// block here (vLLM: all content), since the opener's newline is a label,
// not part of the marker. vLLM's content IDs are always empty; ours are the
// content's.
func newMiniMaxM1(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return minimaxM1Family.newParser(tok, cfg)
}

func init() {
	// Info names the tags bare, <think> and </think>, as every other
	// <think> family does: tools that look for markers across families
	// (the doctor) find the tags, and the newlines are this family's rule.
	register("minimax_m1", newMiniMaxM1, minimaxM1Family.entry(), about{engine: vllmPR, models: []string{"minimax-m1"},
		summary: "`<think>\\n` (only at the start)…`\\n</think>\\n`, starts in content",
		closes:  []string{thinkClose}, also: []catalog.Entry{{Markers: []string{thinkClose}}}})
}
