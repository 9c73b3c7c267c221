package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

var olmo3Family = newTagFamily(ThinkTag{
	Name:       "olmo3",
	Open:       []string{thinkOpen},
	Close:      []string{thinkClose},
	Boundaries: []string{chatMLStart, chatMLEnd},
	rules: []rule{
		openAtStart(),
	},
})

// newOlmo3 builds the "olmo3" parser (vLLM Olmo3ReasoningParser).
//
// Markers: <think> and </think>, ordinary text in OLMo's vocabulary (several
// tokens each).
// Starts in: reasoning. A <think> counts only as the very first bytes of the
// output; anywhere else it is text.
// Thinking switch: none.
// Truncation: an output without </think> is all reasoning.
// Repeats: the first </think> ends reasoning; later ones stay in content.
// Streaming: holds back fewer bytes than "</think>", only while they may
// start it; Finish returns them. The ID-level end check reads only
// </think> (an opener counts only at the start of an output it cannot
// see) and stops at <|im_start|> and <|im_end|>, so a closer of an earlier
// turn in the prompt does not count.
// Upstream: vllm/reasoning/olmo3_reasoning_parser.py@0b19ebca, the legacy
// class vLLM main registers (spec vllm-main §1.6; the engine port is not
// on main), and spec vllm-thinktag §23. vLLM's extract makes an output without
// </think> content while its streaming path makes it reasoning (B6); a
// streaming client cannot wait for a </think> that may never come, so both
// of ours say reasoning (spec policy 2). vLLM's streaming splits at the last
// </think> of what it buffered, its extract at the first; we split at the
// first. vLLM's streaming path re-enters reasoning at any <think> and makes
// the text before it content; its extract, which we follow, reads <think>
// only at the start. vLLM's extract_content_ids is always empty; ours
// returns the content IDs. vLLM streams everything after the </think>
// tokens verbatim (spec vllm-main §0.1); so do ours, by this family's rules.
func newOlmo3(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return olmo3Family.newParser(tok, cfg)
}

func init() {
	register("olmo3", newOlmo3, olmo3Family.entry(), about{engine: vllm, models: []string{"olmo-3*think", "olmo3*think"},
		summary: "`<think>` (only at the start)…`</think>`, starts in reasoning"})
}
