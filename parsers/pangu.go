package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// openPangu's reserved tokens that stand for <think> and </think> in a
// vocabulary without those.
const (
	panguThinkOpen  = "[unused16]"
	panguThinkClose = "[unused17]"
)

var panguFamily = newTagFamily(ThinkTag{
	Name:  "pangu",
	Open:  []string{thinkOpen, panguThinkOpen},
	Close: []string{thinkClose, panguThinkClose},
})

// newPangu builds the "pangu" parser (vLLM pull request
// PanguReasoningParser, the deepseek_r1 rules with openPangu's markers).
//
// Markers: <think> and </think>, and openPangu's reserved [unused16] and
// [unused17], which stand for them in a vocabulary without <think>. Either
// opener opens and either closer closes, whatever the vocabulary.
// Starts in: reasoning. The block's first opener is dropped wherever it
// comes; text before it is reasoning. A prompt that already closed the block
// (WithPrompt) starts the response in content.
// Thinking switch: none.
// Truncation: an output that never closes reasoning is all reasoning.
// Repeats: after the first closer everything is content, verbatim; a
// second opener inside the block is reasoning text.
// Streaming: holds back fewer bytes than the longest marker, only while they
// may start one; Finish returns them to the section they belong to. A delta
// holding the opener and text streams the text as reasoning.
// End check: as deepseek_r1's, the last marker decides.
// Upstream: spec field-names §4.2, the registry @ea95e249 and
// tests/reasoning/test_pangu_reasoning_parser.py @4ade7b8d (the deepseek_r1
// table and four cases of its own). Upstream picks one pair at start-up,
// <think>/</think> when the vocabulary has them, else the reserved pair, so
// there the other pair is text; the spec asks to pick it from the vocabulary
// and accept both without a tokenizer. We accept both always: a parser's
// markers cannot depend on the vocabulary, or the same text would split
// differently with and without token IDs (the conformance kit checks that
// they agree). A model writes only its own pair, so only an output that
// types the other pair's characters splits differently. Upstream's
// is_reasoning_end also wants the end ID in the last streamed delta, a state
// the ID sequence does not carry (spec policy 7); ours is deepseek_r1's check
// on the IDs alone. vLLM's extract drops text before the opener; ours keeps
// it (spec policy 3).
func newPangu(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return panguFamily.newParser(tok, cfg)
}

func init() {
	register("pangu", newPangu, panguFamily.entry(), about{engine: vllmPR, models: []string{"openpangu", "pangu"},
		summary: "`<think>`…`</think>` or openPangu's `[unused16]`…`[unused17]`, starts in reasoning, one block"})
}
