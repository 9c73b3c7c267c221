package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

var glm45Family = newTagFamily(ThinkTag{
	Name:          "glm45",
	Open:          []string{thinkOpen},
	Close:         []string{thinkClose},
	Tools:         []string{qwenToolCall},
	Repeats:       RepeatsInterleave,
	Thinking:      Switch{Keys: []string{"thinking", "enable_thinking"}, Default: true},
	TrimReasoning: true,
})

// newGLM45 builds the "glm45" and "glm47" parsers (vLLM's GLM-4.7 engine
// parser, one class for GLM-4.5 to 5.x).
//
// Markers: <think> and </think>; <tool_call> ends reasoning and stays in
// content.
// Starts in: reasoning.
// Thinking switch: "thinking" or "enable_thinking", default on; off: no
// markers, everything is content, untouched.
// Truncation: an unclosed block is reasoning.
// Repeats: blocks interleave: a <think> in content opens another block
// ("a</think>b<think>c</think>d" gives reasoning "ac", content "bd"); a
// <think> in reasoning and a stray </think> in content are dropped.
// Streaming: the trailing whitespace of each block is held until more
// reasoning comes and dropped when the block ends.
// Upstream: spec vllm-thinktag §15.1. vLLM's extract strips only the end of
// all reasoning joined, its streaming path the end of each block; we strip
// each block's (spec policy 2). GLM-5.3 templates open <think> whatever the
// switch says, and vLLM reads that from the chat template; a Config has no
// template, so give WithForceReasoning(true) or the prompt (WithPrompt) for
// those models. Dynamo's and SGLang's glm45 start in content; vLLM's wins
// (spec policy 1).
func newGLM45(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return glm45Family.newParser(tok, cfg)
}

func init() {
	register("glm45", newGLM45, glm45Family.entry(), about{engine: vllm, models: []string{"glm-4.1v*thinking", "glm-4.5", "glm-4.6", "glm-4.7", "glm-5"},
		summary: "`<think>`…`</think>` interleaved blocks, `<tool_call>` ends reasoning; `thinking`/`enable_thinking` (on; off → identity)"})
}

// glm47Family is the "glm47" parser: the same class as glm45.
var glm47Family = newTagFamily(renamed(glm45Family, "glm47"))

func init() { registerTag(glm47Family, about{engine: vllm, summary: "as `glm45`"}) }

// ling3Family is the "ling3" parser (vLLM's Ling 3 engine parser, the GLM
// grammar).
//
// Markers, starts in, repeats, streaming: as glm45.
// Thinking switch: "thinking" or "enable_thinking", default on; off:
// everything is content, tags included.
// Truncation: an unclosed block is reasoning, in both paths.
// WithNonEmptyContent(true) (or chat_template_kwargs
// "force_nonempty_content": true) gives it as content instead, as vLLM's
// extract does, streaming included.
// Upstream: vllm/parser/ling3.py@0b19ebca (spec vllm-main §1.9) and spec
// vllm-thinktag §16; the oldest variant defaulted to off. vLLM main's
// extract relabels a reasoning-only output (no content, no <tool_call>
// anywhere) as content (test_ling3.py
// test_ling3_enable_thinking_keeps_open_reasoning_as_content) while its
// stream keeps it reasoning; we keep reasoning in both (spec policy 2: the
// swap needs the whole output). vLLM streams later markers verbatim when
// only a reasoning parser is configured (spec vllm-main §0.1); ours re-open
// at a later <think> and drop a later </think> in both paths.
var ling3Family = newTagFamily(renamed(glm45Family, "ling3"))

func init() {
	registerTag(ling3Family, about{engine: vllm, models: []string{"ling-3"}, summary: "as `glm45`"})
}
