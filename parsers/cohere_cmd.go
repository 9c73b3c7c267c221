package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

var cohereCmdFamily = newTagFamily(ThinkTag{
	Name:    "cohere_cmd",
	Open:    []string{cohereThinkOpen},
	Close:   []string{cohereThinkClose},
	Start:   StartContent,
	Repeats: RepeatsReopen,
})

// newCohereCmd builds the "cohere_cmd" parser (SMG's CohereCmdParser, its
// base parser with Cohere's markers and the start token required).
//
// Markers: <|START_THINKING|> and <|END_THINKING|> (special tokens in
// Cohere's vocabulary; their IDs beat the same characters typed as text).
// Nothing else is a marker: <|START_RESPONSE|>, <|START_TEXT|>, actions and
// citations stay in content, verbatim, for the response processor.
// Starts in: content; <|START_THINKING|> opens a reasoning block. A prompt
// that ends in <|START_THINKING|> (WithPrompt) or WithForceReasoning starts
// the response in reasoning.
// Thinking switch: none.
// Truncation: an unclosed block is reasoning.
// Repeats: as "basic" (SMG's base parser): every <|START_THINKING|> in
// content opens another block, one inside a block is text, a stray
// <|END_THINKING|> in content is dropped. No whitespace is trimmed.
// Streaming: holds back fewer bytes than the longer marker, only while they
// may start one; Finish returns them to the section they belong to.
// Upstream: spec field-names §10; smg-project/smg
// crates/reasoning_parser/src/parsers/cohere_cmd.rs@f8daa883 (inline tests).
// SMG reads text only; the ID-level end check here lets the last marker
// decide, as for "basic". Unlike "cohere_command3" and "cohere_command4"
// (vLLM's, through cohere_melody), nothing is trimmed and no answer or
// citation markup is removed.
func newCohereCmd(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return cohereCmdFamily.newParser(tok, cfg)
}

func init() {
	register("cohere_cmd", newCohereCmd, cohereCmdFamily.entry(), about{engine: smg,
		models:  []string{"command-r", "command-a", "c4ai-command", "cohere"},
		summary: "`<|START_THINKING|>`…`<|END_THINKING|>`, starts in content, no markup stripped"})
}
