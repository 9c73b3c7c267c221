package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Granite 3.x's markers: plain-text phrases, each in two spellings (quantised
// models were seen to write the contraction).
const (
	graniteThought    = "Here is my thought process:"
	graniteThoughtAlt = "Here's my thought process:"
	graniteResponse   = "Here is my response:"
	graniteAnswerAlt  = "Here's my response:"
	graniteRoleStart  = "<|start_of_role|>" // turn markers: the ID-level end check stops at them
	graniteRoleEnd    = "<|end_of_role|>"
)

// Granite's phrases are a think-tag family: an opener and a closer, each with
// two spellings, found in text by the shared scanner wherever deltas cut
// them. What upstream does beyond that (drop text before the first phrase,
// give a truncated output to content, lose held text) is what policies 2, 3
// and 7 tell us not to do, so no state machine of its own is needed.
var graniteFamily = newTagFamily(ThinkTag{
	Name:       "granite",
	Open:       []string{graniteThought, graniteThoughtAlt},
	Close:      []string{graniteResponse, graniteAnswerAlt},
	Start:      StartContent,
	Boundaries: []string{graniteRoleStart, graniteRoleEnd},
	rules: []rule{
		endNeedsMarker(),
		closeForecloses(),
	},
})

// newGranite builds the "granite" parser (vLLM GraniteReasoningParser, for
// IBM Granite 3.x asked to think).
//
// Markers: "Here is my thought process:" or "Here's my thought process:"
// opens reasoning; "Here is my response:" or "Here's my response:" ends it.
// Plain text, case and spacing exact; in a real vocabulary each is several
// ordinary tokens.
// Starts in: content. The first thought phrase opens the one reasoning
// block wherever it comes; text before it is content. WithForceReasoning or
// a prompt that ends in a thought phrase starts the response in reasoning,
// where a leading thought phrase is dropped.
// Thinking switch: none (the template's "thinking" kwarg only changes the
// prompt).
// Truncation: an output with the thought phrase and no response phrase is
// reasoning after the phrase.
// Repeats: after the response phrase everything is content, verbatim; a
// second thought phrase inside reasoning is reasoning text; a response
// phrase in content before any thought phrase is text, and so is every
// phrase after it: the model has answered. No whitespace is
// stripped: "process: a Here is my response: b" gives " a " and " b".
// Streaming: holds back fewer bytes than the longest phrase, only while
// they may start one ("Here", "Here is my", ...), however many deltas a
// phrase is cut into; Finish returns them to the section they belong to.
// End check: as vLLM's, the last marker decides, so a stray "Here is my
// thought process:" in content after the end, which the split keeps as text,
// makes IsReasoningEnd false again.
// Upstream: vllm/reasoning/granite_reasoning_parser.py@0b19ebca (spec
// vllm-main §1.7) and spec vllm-channels-and-state §3. A response phrase
// and then a thought phrase with no response phrase after it is content in
// both of vLLM's paths, as here. vLLM's extract finds the two
// phrases anywhere and drops the text before the first, and gives an output
// without the response phrase to content, phrase included, while its
// streaming path recognises reasoning only at the very start and streams a
// truncated block as reasoning (§3.6 trap 1); ours keeps text before the
// phrase as content and a truncated block as reasoning in both (spec policy
// 2: a client cannot hold an unbounded block back); whitespace before the
// thought phrase, which vLLM's extract drops, is content here too. vLLM
// drops held "Here…" candidates at the end of the stream (trap 2) and
// mis-slices a large delta
// holding the end of reasoning, the response phrase and content (trap 3);
// see the cases "bug:granite/...". vLLM has no ID-level methods, so its
// end check never fires and its tool parser never sees a streamed response;
// ours read the tokens' decoded text: IsReasoningEnd is true once the
// response phrase is the last phrase, false after a thought phrase and, as
// upstream, with neither (a response that never thinks never ends
// reasoning) unless the prompt given with WithPrompt ends with the response
// phrase; the check stops at <|start_of_role|> and <|end_of_role|>, so the
// phrases the thinking system prompt quotes do not count.
// CountReasoningTokens counts the tokens whose text falls in reasoning.
// Dynamo's "granite" (spec peers §2.3) also opens at a thought phrase
// anywhere; its one-shot path trims whitespace, and its stream holds back
// only text that is wholly a phrase prefix.
func newGranite(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return graniteFamily.newParser(tok, cfg)
}

func init() {
	register("granite", newGranite, graniteFamily.entry(), about{engine: vllm, models: []string{"granite-3.2", "granite-3.3", "granite3.2", "granite3.3"},
		summary: `"Here is my thought process:" … "Here is my response:" (and "Here's"), plain text, starts in content`})
}
