package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

var rwkvFamily = newTagFamily(ThinkTag{
	Name:  "rwkv",
	Open:  []string{thinkOpen},
	Close: []string{thinkClose},
	Thinking: Switch{Keys: []string{"enable_thinking"}, decide: func(c reasoning.Config) bool {
		v, _ := c.Kwarg("enable_thinking")
		on, _ := v.(bool) // upstream's "is True": a string or number does not count
		return on
	}, Off: OffContent},
	rules: []rule{
		dropEarlyClose(),
	},
})

// newRWKV builds the "rwkv" parser (the vLLM pull request's
// RWKVReasoningParser).
//
// Markers: <think> and </think>, as text: RWKV's tokenizers spell each with
// several tokens.
// Starts in: reasoning only when chat_template_kwargs["enable_thinking"] is
// true; there the block's first <think> is dropped wherever it comes and
// text before it is reasoning, as for "deepseek_r1". Otherwise in content,
// where <think> opens the one block and a </think> before any block is
// dropped. A prompt that ends in <think> or </think> (WithPrompt) decides
// instead.
// Thinking switch: "enable_thinking", read strictly: only the boolean true
// thinks; absent, null, false, "true", 1 or anything else starts in content.
// Truncation: an unclosed block is reasoning.
// Repeats: one block; a later <think> inside it is reasoning text; after it
// everything is content, verbatim.
// Streaming: holds back fewer bytes than the longer marker, only while they
// may start one; Finish returns them to their section.
// Upstream: spec field-names §11.3; vllm/reasoning/rwkv_reasoning_parser.py
// and tests/reasoning/test_rwkv_reasoning_parser.py@38a442be. Upstream drops
// the text before the first <think>; here it is reasoning with thinking on,
// content with it off (spec policy 3). Without thinking and without <think>,
// upstream makes the text before a </think> reasoning; a stream has sent it
// as content by then, so here it stays content and the </think> is dropped
// (spec policy 2; case "policy:2/vllm:rwkv/answer-then-close"). The ID
// methods read the same split, so content IDs of an output with no marker
// are all its IDs (upstream: none) and the end check lets the last marker
// decide, as upstream's does.
func newRWKV(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return rwkvFamily.newParser(tok, cfg)
}

func init() {
	register("rwkv", newRWKV, rwkvFamily.entry(), about{engine: vllmPR, models: []string{"rwkv"},
		summary: "`<think>`…`</think>` as text; starts in reasoning only when `enable_thinking` is true"})
}
