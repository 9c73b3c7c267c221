package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

var openPanguV2Family = newTagFamily(ThinkTag{
	Name:     "openpangu_v2",
	Open:     []string{thinkOpen},
	Close:    []string{thinkClose},
	Thinking: Switch{Keys: []string{"think"}, Default: true},
})

// newOpenPanguV2 builds the "openpangu_v2" parser (vLLM pull request,
// OpenPanguV2ReasoningParser): deepseek_r1 when thinking is on, identity
// when it is off.
//
// Markers: <think> and </think> (thinking on).
// Starts in: reasoning with thinking on, as deepseek_r1; content otherwise.
// A prompt that ends inside an open block (WithPrompt) starts the response
// in reasoning whatever the switch says, one that closed it in content.
// Thinking switch: chat_template_kwargs "think", on when it is missing or
// null; an explicit false turns it off: the whole output is content,
// untouched, the end check is always true and no token counts as
// reasoning.
// Truncation: thinking on, an output that never closes reasoning is all
// reasoning; off, it is content.
// Repeats: as deepseek_r1: after the first </think> everything is content,
// verbatim.
// Streaming: as deepseek_r1 with thinking on; off, each delta is content as
// it comes.
// Upstream: spec field-names §3;
// vllm/reasoning/openpangu_v2_reasoning_parser.py and its registry entry
// @25d5396f (no upstream test). vLLM reads the key as Python truth, so a
// null "think" turns thinking off there; here a null counts as absent and
// the default (on) applies (spec policy 6).
func newOpenPanguV2(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return openPanguV2Family.newParser(tok, cfg)
}

func init() {
	register("openpangu_v2", newOpenPanguV2, openPanguV2Family.entry(), about{engine: vllmPR,
		summary: "as `deepseek_r1` with `think` on, else identity (default on)"})
}
