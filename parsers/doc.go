// Package parsers holds one file per model family and registers every name
// with reasoning.Default when it is imported for its side effect:
//
//	import _ "github.com/reasoning-go/reasoning/parsers"
//
// The names, each followed by its aliases:
//
//	basic          Dynamo's <think> parser: starts in content, every <think> opens a block
//	deepseek_r1    <think>…</think>, starts in reasoning, one block (nemotron_nano, deepseek_v3_1, deepseek_v3_2)
//	identity       no reasoning: everything is content
//	qwen3          <think>…</think>, <tool_call> ends reasoning, enable_thinking switch
//
// Each factory's doc comment gives the family's markers, where a response
// starts, its thinking switch, truncation, repeated markers, streaming and
// its differences from upstream.
package parsers
