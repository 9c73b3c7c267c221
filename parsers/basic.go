package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

var basicFamily = newTagFamily(ThinkTag{
	Name:    "basic",
	Open:    []string{thinkOpen},
	Close:   []string{thinkClose},
	Start:   StartContent,
	Repeats: RepeatsReopen,
})

// newBasic builds the "basic" parser (Dynamo BasicReasoningParser with
// force_reasoning off, Dynamo's fallback for unknown names).
//
// Markers: <think> and </think>.
// Starts in: content; each <think> opens a reasoning block. WithForceReasoning
// or a prompt that ends in <think> starts the response in reasoning, where the
// block's first <think> is dropped wherever it comes and text before it is
// reasoning, as for deepseek_r1.
// Thinking switch: none.
// Truncation: an unclosed block is reasoning.
// Repeats: every <think> in content opens another block, and all blocks are
// reasoning; a <think> inside a block is text; a stray </think> in content is
// dropped.
// Streaming: holds back fewer bytes than the longer marker, only while they
// may start one; Finish returns them to the section they belong to.
// Upstream: spec peers §2.3, Dynamo lib/parsers/src/reasoning/base_parser.rs.
// Dynamo's one-shot path trims whitespace off both outputs and reads text
// before a stray </think> as reasoning ("dangling end" recovery), while its
// streaming path does neither; we follow the streaming path in both (spec
// policy 2): a streaming client cannot know that a </think> will come.
// SMG's "base" (an alias here; smg crates/reasoning_parser src/parsers/base.rs
// @f8daa883) is the same parser: not forced, <think>/</think>.
func newBasic(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return basicFamily.newParser(tok, cfg)
}

func init() {
	register("basic", newBasic, basicFamily.entry(), about{engine: dynamo,
		summary: "`<think>`…`</think>`, starts in content, every `<think>` opens a block",
		aliases: []string{"base"}})
}
