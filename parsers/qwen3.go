package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Qwen3's markers, each named once.
const (
	thinkOpen    = "<think>"
	thinkClose   = "</think>"
	qwenToolCall = "<tool_call>" // ends reasoning implicitly; kept in content
	chatMLStart  = "<|im_start|>"
	chatMLEnd    = "<|im_end|>"
)

var qwen3Family = newTagFamily(tagSpec{
	name:        "qwen3",
	open:        thinkOpen,
	close:       thinkClose,
	tools:       []string{qwenToolCall},
	boundaries:  []string{chatMLStart, chatMLEnd},
	absorbOpens: true,
	dropCloses:  true,
	thinking:    switchOf(true, "enable_thinking"),
})

// newQwen3 builds the "qwen3" parser (vLLM's Qwen3 engine parser).
//
// Markers: <think> and </think>. <tool_call> also ends reasoning; it and
// everything after it are content, verbatim, for the tool parser. None need
// be a single token.
// Starts in: reasoning (the chat template usually puts <think> in the
// prompt). Text before a leading <think> is reasoning and the tag is dropped.
// A prompt that already closed the block (WithPrompt) starts the response
// in content, where <think> is text; WithForceReasoning(false) starts it in
// content where a <think> opens the block.
// Thinking switch: chat_template_kwargs["enable_thinking"], default true;
// "thinking" is not read. Off: the whole output is content, untouched.
// Truncation: an output that never closes reasoning is all reasoning.
// Repeats: every <think> inside reasoning is dropped; a later </think> in
// content is dropped; a <think> in content stays as text.
// Streaming: holds back fewer bytes than the longest marker, only while they
// may start one; Finish returns them to the section they belong to.
// Upstream: spec vllm-thinktag §10. With thinking off, vLLM's streaming path
// drops a stray </think> from content while extract returns the text
// untouched (B9); both of ours return it untouched. Trailing whitespace of
// reasoning is kept, as vLLM's Qwen3 configuration does. The ID-level end
// check stops at <|im_start|> and <|im_end|>, and an unpaired or paired
// <tool_call> alike ends reasoning (the newest engine, where turn boundaries
// replaced the pairing guard). SGLang's qwen3 detector forces reasoning only
// for qwen3-thinking; vLLM's wins here (spec policy 1).
func newQwen3(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return qwen3Family.newParser(tok, cfg)
}
