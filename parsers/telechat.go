package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// telechatThinking is the TeleChat plugins' switch: enable_thinking, falling
// back to thinking when it is absent (or null), on when neither is set.
func telechatThinking(c reasoning.Config) bool {
	if on, set := c.Thinking("enable_thinking"); set {
		return on
	}
	if on, set := c.Thinking("thinking"); set {
		return on
	}
	return true
}

var telechatFamily = newTagFamily(ThinkTag{
	Name:     "telechat",
	Open:     []string{thinkOpen},
	Close:    []string{thinkClose},
	Thinking: Switch{Keys: []string{"enable_thinking", "thinking"}, Default: true, decide: telechatThinking},
})

// newTeleChat builds the "telechat" parser (the TeleChat and XingChen vLLM
// parsers: telechat, xingchen4 and xing4_0, one family).
//
// Markers: <think> and </think>, single tokens or not (upstream's
// constructors fail without both in the vocabulary; here a vocabulary that
// spells them as several tokens is matched by text).
// Starts in: reasoning (the chat template injects <think> into the prompt);
// the first <think> is dropped wherever it comes. A prompt that closed the
// block (WithPrompt) starts the response in content.
// Thinking switch: chat_template_kwargs "enable_thinking", falling back to
// "thinking" when it is absent; default on. Off: the whole output is
// content, untouched, and the end check is always true.
// Truncation: with thinking on, an unclosed block is reasoning.
// Repeats: after the first </think> everything is content, verbatim.
// Streaming: as deepseek_r1: fewer bytes than "</think>" held, only while
// they may start it.
// End check: the last marker decides, as upstream's (scanning back: <think>
// not ended, </think> ended); with no marker the answer is where the
// response starts, where upstream answers false: it agrees with the split.
// Upstream: spec field-names §7.1; vllm/reasoning/telechat_reasoning_parser.py
// @c4c64613, xingchen4_reasoning_parser.py @2d2fe098, xing4_0_reasoning_parser.py
// @6e77ddd2 (no upstream tests). Deliberate differences: upstream's telechat
// extract makes an unclosed output content while its stream makes it
// reasoning; all three names here follow the newer two and the stream
// (spec policy 2). Upstream swallows a delta that is exactly one marker token
// (bug B4 of deepseek_r1) and, with thinking off, streams text before a
// </think> as content while its extract splits there; here thinking off is
// the identity in both (policy 2). xing4_0 re-reads the switch from each
// request, the others from the request at adjust time: the same here, since
// a parser serves one request. The newer three force skip_special_tokens
// off; a serving stack must do that for any of the names.
func newTeleChat(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return telechatFamily.newParser(tok, cfg)
}

func init() {
	register("telechat", newTeleChat, telechatFamily.entry(), about{engine: vllmPR, models: []string{"telechat", "xingchen"},
		summary: "`<think>`…`</think>`, starts in reasoning, one block; `enable_thinking` then `thinking` (on; off → identity)",
		aliases: []string{"xingchen4", "xing4_0"}})
}

var telechat4Family = newTagFamily(ThinkTag{
	Name:     "telechat4",
	Open:     []string{thinkOpen},
	Close:    []string{thinkClose},
	Start:    StartContent,
	Thinking: Switch{Keys: []string{"enable_thinking"}, Default: true},
})

// newTeleChat4 builds the "telechat4" parser (SGLang's TeleChat4Detector:
// its base detector with <think> and </think>, force_reasoning off).
//
// Markers: <think> and </think>, single tokens or not.
// Starts in: content; the first <think> opens the one block, text before it
// is content. A prompt that ends inside the block (the template's <think>,
// given WithPrompt) starts the response in reasoning, as does
// WithForceReasoning(true).
// Thinking switch: enable_thinking, default on (SGLang reads it from the
// template before calling the detector); off: everything is content.
// Truncation: an unclosed block is reasoning.
// Repeats: after the block everything is content, verbatim.
// Streaming: holds back fewer bytes than the longest marker, only while they
// may start one.
// End check: the last marker decides; with none, where the response starts.
// Upstream: spec field-names §7.1; SGLang reasoning_parser.py
// (TeleChat4Detector, DetectorMap @002e9bfc). SGLang's main registration
// wins over the vLLM plugin of the same name (spec §7.1), whose behaviour is
// "telechat"'s: it starts in reasoning. SGLang's detector turns
// force_nonempty_content on by default, so an output with no content gives
// its reasoning as content there; here that takes WithNonEmptyContent (or
// the kwarg), as for every family, and SGLang's stream, which sends the
// reasoning a second time as content at the end, is not reproduced.
func newTeleChat4(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return telechat4Family.newParser(tok, cfg)
}

func init() {
	register("telechat4", newTeleChat4, telechat4Family.entry(), about{engine: sglang, models: []string{"telechat4"},
		summary: "SGLang's TeleChat4 detector: `<think>`…`</think>`, starts in content, the first `<think>` opens the block; `enable_thinking` (on)"})
}
