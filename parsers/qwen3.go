package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

var qwen3Family = newTagFamily(ThinkTag{
	Name:       "qwen3",
	Open:       []string{thinkOpen},
	Close:      []string{thinkClose},
	Tools:      []string{qwenToolCall},
	Repeats:    RepeatsDropStray,
	Thinking:   Switch{Keys: []string{"enable_thinking"}, Default: true},
	Boundaries: []string{chatMLStart, chatMLEnd},
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
// End check: as vLLM's, the last marker decides, so a stray <think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: spec vllm-thinktag §10. With thinking off, vLLM's streaming path
// drops a stray </think> from content while extract returns the text
// untouched (B9); both of ours return it untouched. Trailing whitespace of
// reasoning is kept, as vLLM's Qwen3 configuration does. The ID-level end
// check stops at <|im_start|> and <|im_end|>, and an unpaired or paired
// <tool_call> alike ends reasoning (the newest engine, where turn boundaries
// replaced the pairing guard). SGLang's qwen3 detector forces reasoning only
// for qwen3-thinking; vLLM's wins here (spec policy 1). TensorRT-LLM's
// "qwen3_5" (an alias here; tensorrt_llm/llmapi/reasoning_parser.py
// @033a9d09) starts in reasoning but keeps a literal leading <think> as
// reasoning text, and its finish drops a held buffer equal to a marker; its
// auto resolver picks it for templates that prefill a bare "<think>\n", which
// WithPrompt covers here. "berrylm", a vLLM pull request's name for BerryLM's
// adapter of this engine grammar
// (vllm/reasoning/berrylm_engine_reasoning_parser.py @2a84b9e5, spec
// field-names §6.2), is an alias too: its test observes nothing qwen3 does
// not.
// Other engines: TensorRT-LLM's qwen3 is not forced: it needs a generated
// <think> (spec field-names §16).
func newQwen3(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return qwen3Family.newParser(tok, cfg)
}

func init() {
	register("qwen3", newQwen3, qwen3Family.entry(), about{engine: vllm, models: []string{"qwen3", "berrylm"},
		summary: "`<think>`…`</think>`, `<tool_call>` ends reasoning and stays in content; `enable_thinking` (on; off → identity)",
		aliases: []string{"qwen3_5", "berrylm"}})
}

var mimoFamily = newTagFamily(renamed(qwen3Family, "mimo"))

// newMiMo builds the "mimo" parser (vLLM's MiMo engine parser, the Qwen3
// grammar).
//
// Markers, starts in, thinking switch, truncation, repeats, streaming: as
// qwen3. MiMo differs from Qwen3 only in how its tool parser trims parameter
// values.
// End check: as vLLM's, the last marker decides, so a stray <think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: spec vllm-thinktag §11. SGLang's "mimo" is its Qwen3 detector
// needing enable_thinking=True; vLLM's wins (spec policy 1).
func newMiMo(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return mimoFamily.newParser(tok, cfg)
}

func init() {
	register("mimo", newMiMo, mimoFamily.entry(), about{engine: vllm, models: []string{"mimo"},
		summary: "as `qwen3`"})
}

var qwen3ThinkingFamily = newTagFamily(ThinkTag{
	Name:     "qwen3_thinking",
	Open:     []string{thinkOpen},
	Close:    []string{thinkClose},
	Tools:    []string{qwenToolCall},
	Thinking: Switch{Keys: []string{"enable_thinking"}, Default: true},
})

// newQwen3Thinking builds the "qwen3_thinking" parser (SGLang's
// "qwen3-thinking": its Qwen3 detector with force_reasoning on, for the
// Qwen3 thinking-only models).
//
// Markers: <think> and </think>; <tool_call> ends reasoning and stays in
// content.
// Starts in: reasoning; the first <think> is dropped wherever it comes and
// text before it is reasoning.
// Thinking switch: enable_thinking, default true (SGLang reads it before
// calling the detector); off: everything is content.
// Truncation: an unclosed block is reasoning.
// Repeats: after the first </think> everything is content, verbatim.
// Streaming: holds back fewer bytes than the longest marker, only while they
// may start one, where SGLang holds only a buffer that is wholly a marker
// prefix and so misses a marker cut after other text.
// End check: as vLLM's, the last marker decides, so a stray <think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: spec peers §2.1, SGLang reasoning_parser.py (Qwen3Detector;
// <tool_call> as its tool_start_token from 0.5.18).
// SGLang's detector (reasoning_parser.py @2eec3278) holds back partial end,
// tool-start and start markers and flushes into the open section at finish,
// as ours does (spec field-names §15 #13).
func newQwen3Thinking(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return qwen3ThinkingFamily.newParser(tok, cfg)
}

func init() {
	register("qwen3_thinking", newQwen3Thinking, qwen3ThinkingFamily.entry(), about{engine: sglang, models: []string{"qwen3*thinking"},
		summary: "SGLang's Qwen3 detector forced into reasoning: `<think>`…`</think>`, `<tool_call>`; `enable_thinking` (on)"})
}

var internS1Family = newTagFamily(ThinkTag{
	Name:     "interns1",
	Open:     []string{thinkOpen},
	Close:    []string{thinkClose},
	Tools:    []string{qwenToolCall},
	Start:    StartContent,
	Thinking: Switch{Keys: []string{"enable_thinking"}, Default: true},
})

// newInternS1 builds the "interns1" parser (SGLang's "interns1": its Qwen3
// detector with force_reasoning off).
//
// Markers: <think> and </think>; <tool_call> inside reasoning ends it and
// stays in content.
// Starts in: content; the first <think> opens the one block, text before it
// is content.
// Thinking switch: enable_thinking, default true; off: everything is
// content.
// Truncation: an unclosed block is reasoning.
// Repeats: after the block everything is content, verbatim.
// Streaming: holds back fewer bytes than the longest marker, only while they
// may start one.
// End check: as vLLM's, the last marker decides, so a stray <think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: spec peers §2.1, SGLang reasoning_parser.py. SGLang's one-shot
// path makes text before a <think> that is not at the start reasoning and
// keeps the tag, while its streaming path makes that text content; we follow
// streaming (spec policy 2). SGLang's "dots" and "nanbeige" (aliases here;
// reasoning_parser.py @2eec3278) are the same Qwen3 detector with
// force_reasoning off, so they are this parser.
// SGLang's detector holds back partial markers and flushes into the open
// section at finish, as ours does (spec field-names §15 #13).
func newInternS1(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return internS1Family.newParser(tok, cfg)
}

func init() {
	register("interns1", newInternS1, internS1Family.entry(), about{engine: sglang, models: []string{"intern-s1"},
		summary: "SGLang's Qwen3 detector: `<think>`…`</think>`, `<tool_call>`, starts in content, the first `<think>` opens the block; `enable_thinking` (on)",
		aliases: []string{"dots", "nanbeige"}})
}
