package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// PLaMo 3's markers. The think tags are several tokens in PLaMo's
// vocabulary; the end of turn is one.
const (
	plamoThinkOpen  = "<|plamo:begin_think:plamo|>"
	plamoThinkClose = "<|plamo:end_think:plamo|>"
	plamoEndOfTurn  = "<|plamo:tag|>"
	plamoToolOpen   = "<|plamo:begin_tool_requests:plamo|>" // ends reasoning implicitly; kept in content
)

var plamo3Family = newTagFamily(ThinkTag{
	Name:       "plamo3",
	Open:       []string{plamoThinkOpen},
	Close:      []string{plamoThinkClose},
	Tools:      []string{plamoToolOpen},
	Repeats:    RepeatsAbsorbOpens,
	Thinking:   Switch{Keys: []string{"enable_thinking"}, Default: true},
	Boundaries: []string{plamoEndOfTurn},
	rules: []rule{
		endsAt(plamoEndOfTurn),
	},
})

// newPlamo3 builds the "plamo3" parser (vLLM's PLaMo 3 engine parser).
//
// Markers: <|plamo:begin_think:plamo|> and <|plamo:end_think:plamo|>; the
// end of turn <|plamo:tag|> ends reasoning and is dropped wherever it comes;
// <|plamo:begin_tool_requests:plamo|> ends reasoning and stays in content.
// Starts in: reasoning.
// Thinking switch: chat_template_kwargs["enable_thinking"], default on; off:
// everything is content, untouched (the end of turn too).
// Truncation: an unclosed block is reasoning.
// Repeats: a begin tag inside reasoning is dropped; in content both think
// tags are text.
// Streaming: holds back fewer bytes than the longest marker, only while they
// may start one. The ID-level end check stops at the end of turn: a finished
// earlier turn does not count.
// End check: as vLLM's, the last marker decides, so a stray
// <|plamo:begin_think:plamo|> in content after the end, which the split keeps
// as text, makes IsReasoningEnd false again.
// Upstream: spec vllm-thinktag §20.2 (engine). vLLM cuts a trailing piece of
// a marker ("visible<|plamo:end_") when the output stops inside it; Finish
// here returns those bytes to their section, as for every family (spec
// policy 3). With thinking off vLLM's extract keeps the end of turn that its
// legacy parser cut (B20); so do we.
func newPlamo3(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return plamo3Family.newParser(tok, cfg)
}

func init() {
	register("plamo3", newPlamo3, plamo3Family.entry(), about{engine: vllm, models: []string{"plamo-3"},
		summary: "`<|plamo:begin_think:plamo|>`…`<|plamo:end_think:plamo|>`, end of turn and `<|plamo:begin_tool_requests:plamo|>` end reasoning; `enable_thinking` (on)"})
}
