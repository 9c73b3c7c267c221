package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Seed-OSS's markers.
const (
	seedThinkOpen  = "<seed:think>"
	seedThinkClose = "</seed:think>"
	seedToolCall   = "<seed:tool_call>" // ends reasoning implicitly; kept in content
	seedBOS        = "<seed:bos>"       // turn boundaries for the end check
	seedEOS        = "<seed:eos>"
)

var seedOSSFamily = newTagFamily(ThinkTag{
	Name:       "seed_oss",
	Open:       []string{seedThinkOpen},
	Close:      []string{seedThinkClose},
	Tools:      []string{seedToolCall},
	Repeats:    RepeatsDropStray,
	Thinking:   Switch{Keys: []string{"enable_thinking"}, Default: true},
	Boundaries: []string{seedBOS, seedEOS},
})

// newSeedOSS builds the "seed_oss" parser (vLLM's Seed-OSS engine parser).
//
// Markers: <seed:think> and </seed:think>; <seed:tool_call> ends reasoning
// and stays in content. The budget tags <seed:cot_budget_reflect> are text
// and stay in reasoning.
// Starts in: reasoning; text before a leading <seed:think> is reasoning.
// Thinking switch: chat_template_kwargs["enable_thinking"], default true;
// off: everything is content, untouched.
// Truncation: an unclosed block is reasoning.
// Repeats: as qwen3, with these markers.
// Streaming: holds back fewer bytes than the longest marker, only while they
// may start one; Finish returns them. The ID-level end check stops at
// <seed:bos> and <seed:eos>, so reasoning replayed in an earlier turn does
// not count (the newest engine test).
// End check: as vLLM's, the last marker decides, so a stray <seed:think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: spec vllm-thinktag §12 (engine). The legacy
// SeedOSSReasoningParser is the base class with these tags; its test expects
// tagless text to be reasoning in streaming too, as here.
func newSeedOSS(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return seedOSSFamily.newParser(tok, cfg)
}

func init() {
	register("seed_oss", newSeedOSS, seedOSSFamily.entry(), about{engine: vllm, models: []string{"seed-oss"},
		summary: "`<seed:think>`…`</seed:think>`, `<seed:tool_call>` ends reasoning; `enable_thinking` (on)"})
}
