package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

var nemotronV3Family = newTagFamily(ThinkTag{
	Name:          "nemotron_v3",
	Open:          []string{thinkOpen},
	Close:         []string{thinkClose},
	Tools:         []string{qwenToolCall},
	Repeats:       RepeatsDropStray,
	Thinking:      Switch{Keys: []string{"enable_thinking"}, Default: true},
	TrimReasoning: true,
	Boundaries:    []string{chatMLStart, chatMLEnd},
})

// newNemotronV3 builds the "nemotron_v3" parser (vLLM's Nemotron 3 engine
// parser: the Qwen3 grammar with trailing reasoning whitespace dropped).
//
// Markers: <think> and </think>; <tool_call> ends reasoning and stays in
// content.
// Starts in: reasoning.
// Thinking switch: chat_template_kwargs["enable_thinking"], default on; off:
// everything is content, untouched, markers included (as qwen3). A null
// value counts as absent (vLLM reads null as off; spec policy 6).
// Truncation: an unclosed block is reasoning. chat_template_kwargs
// "force_nonempty_content": true (or WithNonEmptyContent) makes a response
// with no content return its reasoning as content.
// Repeats: as qwen3.
// Streaming: the trailing whitespace of reasoning is held until more
// reasoning comes and dropped when the block ends.
// End check: as vLLM's, the last marker decides, so a stray <think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: vllm/parser/nemotron_v3.py@0b19ebca (spec vllm-main §1.5) and
// spec vllm-thinktag §13. vLLM reads enable_thinking only, not "thinking"
// (N1), and with it off returns the output untouched, as the server's
// thinking-off prompt makes its stream raw (N2). vLLM streams later markers
// verbatim when only a reasoning parser is configured (spec vllm-main
// §0.1); ours drop them in both paths. vLLM builds the parser with the
// constructor's kwargs but swaps with the request's (B15), and swaps also
// when the content is whitespace only; we read one Config, and swap only an
// empty content, so that nothing the model wrote changes sides unnoticed.
// Dynamo's nemotron3/nemotron_v3 are its deepseek_r1 type; vLLM's wins
// (spec policy 1). "nano_v3" ("nano-v3"; an alias here) is SMG's
// (src/parsers/nano_v3.rs @f8daa883), TensorRT-LLM's and NVIDIA's vLLM
// plugin's (nano_v3_reasoning_parser.py, for
// nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16) name for this model: SMG's is
// not forced (the gateway arms it from its template analysis; armed, it
// splits as here); the plugin is the R1 base that swaps reasoning into
// content when enable_thinking is false and content is empty; TensorRT-LLM's
// also swaps a whitespace-only content and ends at <tool_call> only inside
// a reasoning delta. All follow this parser here.
func newNemotronV3(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return nemotronV3Family.newParser(tok, cfg)
}

func init() {
	register("nemotron_v3", newNemotronV3, nemotronV3Family.entry(), about{engine: vllm, models: []string{"nemotron-3", "nemotron3"},
		summary: "as `qwen3`, trailing reasoning whitespace dropped; `enable_thinking` (on)",
		aliases: []string{"nemotron3", "nemotron_3", "nano_v3"}})
}

var graniteThinkingFamily = newTagFamily(func() ThinkTag {
	s := renamed(nemotronV3Family, "granite_thinking_parser")
	s.Boundaries, s.TrimContent = nil, "\n"
	return s
}())

// newGraniteThinking builds the "granite_thinking_parser" parser (vLLM's
// Granite 4.2 engine parser, built on Nemotron 3's).
//
// Markers: <think> and </think>; <tool_call> ends reasoning and stays in
// content.
// Starts in: reasoning.
// Thinking switch: chat_template_kwargs["enable_thinking"], default on; off:
// everything is content, untouched. "force_nonempty_content": true (or
// WithNonEmptyContent) makes a response with no content return its
// reasoning as content.
// Truncation: an unclosed block is reasoning.
// Repeats: as qwen3.
// Streaming: the trailing whitespace of reasoning is dropped, and so are the
// newlines that begin the content.
// End check: as vLLM's, the last marker decides, so a stray <think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: spec vllm-channels-and-state §4. vLLM's streaming path copies
// the reasoning into content at the end when the swap applies, so a client
// sees it twice; a stream here holds reasoning back while the swap is asked
// for and swaps it once, as Extract does. vLLM does not swap when the content was
// only newlines (which its strip then empties); here the content is empty
// after the strip, so the swap applies. vLLM's swap reads "thinking" too;
// here only enable_thinking is a switch, and force_nonempty_content the
// request's swap.
func newGraniteThinking(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return graniteThinkingFamily.newParser(tok, cfg)
}

func init() {
	register("granite_thinking_parser", newGraniteThinking, graniteThinkingFamily.entry(), about{engine: vllm, models: []string{"granite-4.2", "granite4.2"},
		summary: "`<think>`…`</think>` as `nemotron_v3`, `<tool_call>` ends reasoning, leading content newlines dropped; `enable_thinking` (on)"})
}

var nemotronDeciFamily = newTagFamily(renamed(basicFamily, "nemotron_deci"))

// newNemotronDeci builds the "nemotron_deci" parser (Dynamo's
// ReasoningParserType::NemotronDeci, which is BasicReasoningParser with
// force_reasoning off: the same behaviour as "basic", under its own name).
//
// Markers, starts in, thinking switch, truncation, repeats, streaming: as
// "basic". Upstream: Dynamo lib/parsers/src/reasoning/mod.rs; Dynamo's
// glm45 maps to the same type, but vLLM's glm45 wins (spec policy 1).
func newNemotronDeci(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return nemotronDeciFamily.newParser(tok, cfg)
}

func init() {
	register("nemotron_deci", newNemotronDeci, nemotronDeciFamily.entry(), about{engine: dynamo, models: []string{"llama*nemotron"},
		summary: "as `basic`"})
}
