package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// ServiceNow Apriel Thinker's markers. The answer is wrapped in
// [BEGIN FINAL RESPONSE] … [END FINAL RESPONSE]; the turn ends in <|end|>
// (or the vocabulary's </s>). The model opens its reasoning with a header,
// not a marker.
const (
	aprielBegin  = "[BEGIN FINAL RESPONSE]"
	aprielEnd    = "[END FINAL RESPONSE]"
	aprielTurn   = "<|end|>"
	aprielEOS    = "</s>"
	aprielHeader = "Here are my reasoning steps:"
)

var aprielFamily = newTagFamily(ThinkTag{
	Name:          "apriel",
	Close:         []string{aprielBegin},
	TrimReasoning: true,
	TrimContent:   spaces,
	TrimOpen:      spaces,
	rules: []rule{
		labeled(aprielHeader),
		trimsStart(),
		dropped(aprielEnd, aprielTurn, aprielEOS),
		droppedInContentOnly(),
		trimsContentEnd(),
	},
})

// newApriel builds the "apriel" parser (ServiceNow's vLLM plugin
// AprielReasoningParser, for the Apriel Thinker models).
//
// Markers: [BEGIN FINAL RESPONSE] ends reasoning (one token where the
// vocabulary has it, else matched by text); there is no opener. In content
// the terminators [END FINAL RESPONSE], <|end|> and </s> are dropped; inside
// reasoning they are text, as upstream's.
// Starts in: reasoning: everything before [BEGIN FINAL RESPONSE] is
// reasoning, less a leading "Here are my reasoning steps:" header (held
// back while the output may still be it). A prompt that ends in
// [BEGIN FINAL RESPONSE] (WithPrompt) starts the response in content.
// Thinking switch: none.
// Truncation: an output without [BEGIN FINAL RESPONSE] is all reasoning.
// Repeats: after the marker everything is content: a second marker is
// text, so is text after a terminator (kept, not cut).
// Streaming: reasoning's leading and trailing whitespace and content's
// leading and trailing whitespace are dropped; trailing whitespace is held
// until more text of its section comes (the run of it, no more), the
// header while the output may be it, and fewer bytes than a marker only
// while they may start one.
// End check: ended once [BEGIN FINAL RESPONSE] is among the IDs.
// Upstream: spec field-names §7.3; aman-servicenow/vllm
// vllm/reasoning/apriel_reasoning_parser.py @381a96b7 (first @d9902fba), and
// the later BaseThinking plugin shipped with the models; no upstream tests.
// Deliberate differences: @381a96b7's extract makes an output without the
// marker content and streams the marker's own delta as reasoning; the later
// plugin's extract keeps the header in reasoning. Ours follows the stream
// and the later plugin on truncation (reasoning) and @381a96b7 on the
// header (dropped), and trims and drops the terminators in streaming too,
// where upstream's stream neither trims nor cuts (spec policy 2). Upstream
// cuts content at the first terminator, losing what follows; ours drops the
// terminators alone (policy 3). A header after leading whitespace is kept
// as reasoning.
func newApriel(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return aprielFamily.newParser(tok, cfg)
}

func init() {
	register("apriel", newApriel, aprielFamily.entry(), about{engine: vllmPlugin, models: []string{"apriel*thinker"},
		summary: "`[BEGIN FINAL RESPONSE]` only: before it reasoning (header dropped), after it content, `[END FINAL RESPONSE]`, `<|end|>` and `</s>` dropped, whitespace around both trimmed"})
}
