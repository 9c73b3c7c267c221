package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// newIdentityParser builds the "identity" parser (vLLM IdentityReasoningParser).
//
// Markers: none.
// Starts in: content, and stays there: every byte of the output is content.
// Thinking switch: none. It is also what thinking-switch families become when
// thinking is off.
// Truncation: nothing to truncate.
// Repeats: "<think>" and "</think>" are text like any other.
// Streaming: emits each delta as it arrives; holds nothing.
// Upstream: spec vllm-thinktag §4. IsReasoningEnd is always true, including
// for no IDs; ExtractContentIDs returns its input; CountReasoningTokens is 0.
// vLLM registers the class but no name for it; we register "identity".
// SMG's and Ollama's "passthrough" (an alias here; smg crates/reasoning_parser
// src/parsers/passthrough.rs @f8daa883) is this parser. SMG also falls back to
// it for a model no pattern matches; here ForModel reports ok false and the
// caller decides.
func newIdentityParser(tokenizer.Tokenizer, reasoning.Config) (reasoning.Parser, error) {
	return newIdentity(), nil
}

func init() {
	register("identity", newIdentityParser, catalog.Entry{}, about{engine: vllm, models: []string{"qwen3*instruct", "qwen3-coder", "kimi-k2-instruct"},
		summary: "no reasoning: everything is content",
		aliases: []string{"passthrough"}})
}
