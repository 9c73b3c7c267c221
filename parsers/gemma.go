package parsers

import (
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Gemma 4's markers, each one special token of its vocabulary (spec
// vllm-channels-and-state §12.1).
const (
	gemmaChannelOpen  = "<|channel>"   // opens a channel; the thought channel is reasoning
	gemmaChannelClose = "<channel|>"   // closes it
	gemmaThought      = "thought\n"    // the thought channel's name, first in its text
	gemmaToolCall     = "<|tool_call>" // a tool call: ends reasoning, kept in content
	gemmaToolCallEnd  = "<tool_call|>" // ends the tool call, kept in content
	gemmaTurnOpen     = "<|turn>"      // starts a turn: a boundary, dropped
	gemmaTurnClose    = "<turn|>"      // ends a turn: dropped
	gemmaToolResponse = "<|tool_response>"
	gemmaToolRespEnd  = "<tool_response|>"
	gemmaEOS          = "<eos>"
)

var gemma4Family = newTagFamily(ThinkTag{
	Name:          "gemma4",
	Open:          []string{gemmaChannelOpen},
	Close:         []string{gemmaChannelClose},
	Tools:         []string{gemmaToolCall},
	Start:         StartContent,
	Repeats:       RepeatsInterleave,
	TrimReasoning: true,
	Boundaries:    []string{gemmaTurnOpen, gemmaToolResponse},
	rules: []rule{
		dropped(gemmaTurnOpen, gemmaTurnClose, gemmaToolResponse, gemmaToolRespEnd, gemmaEOS),
		toolBlocks(gemmaToolCallEnd),
		labeled(gemmaThought),
		labelOpens(),
		boundaryAnswer(func(c reasoning.Config) bool { return !gemmaThinking(c) }),
		responseIn(gemmaResponse),
	},
})

// gemmaThinking is Gemma 4's thinking switch: chat_template_kwargs
// enable_thinking, off unless set true (vLLM main). It decides only the
// ID-level end check at a turn boundary.
var gemmaThinking = Switch{Keys: []string{"enable_thinking"}}.on

// gemmaResponse returns the part of a Gemma 4 prompt that belongs to the
// response: what follows the last <|turn>, which the model's own turn
// header ("model\n") begins. Replayed from content, it leaves the response
// in reasoning only when a <|channel> there is still open (the template of
// a continuation after a tool response ends in "<|channel>thought\n").
func gemmaResponse(prompt string) string {
	if i := strings.LastIndex(prompt, gemmaTurnOpen); i >= 0 {
		return prompt[i+len(gemmaTurnOpen):]
	}
	return prompt
}

// newGemma4 builds the "gemma4" parser (vLLM's Gemma4Parser engine adapter).
//
// Markers: <|channel> opens a channel and <channel|> closes it; the thought
// channel's text begins with its name, "thought\n", which is dropped.
// <|tool_call> ends reasoning and starts a tool call that stays in content,
// verbatim, up to and including <tool_call|>; no other marker counts inside
// it. <|turn>, <turn|>, <|tool_response>, <tool_response|> and <eos> are
// dropped wherever they come. With IDs, only the special tokens count.
// Starts in: content. An output whose first bytes are the bare label
// "thought\n" starts in a thought channel, the label dropped; one that is
// only "thought" gives nothing. A prompt (WithPrompt) whose current turn
// still has a <|channel> open starts the response in reasoning, as does
// WithForceReasoning(true); the label is dropped there too.
// Thinking switch: chat_template_kwargs["enable_thinking"], default off. It
// does not change the text split; it is the ID-level end check's answer
// right after a turn boundary (<|turn>, <|tool_response>): not ended while
// on, ended when off or absent.
// Truncation: an unclosed channel is reasoning; an unclosed tool call is
// content.
// Repeats: every <|channel> in content opens another thought channel, each
// with its label dropped; one inside reasoning is dropped; a stray
// <channel|> in content is dropped.
// Streaming: holds back fewer bytes than the longest marker while they may
// start one, the first bytes of a channel, and at most the first 8 bytes of
// the output, while they may be the label (released as content when the
// output does not begin with it, or a marker comes first), and
// trailing whitespace of reasoning until more reasoning comes (dropped at
// the end of the channel). Finish returns held text to its section.
// Upstream: spec vllm-channels-and-state §12; tests/reasoning/
// test_gemma4_reasoning_parser.py. vLLM's extract reads text before a lone
// <channel|> as reasoning while its stream calls it content; we call it
// content in both (spec policy 2; case "vllm:gemma4/invalid_simple"). As
// vLLM main's Gemma4Parser._preprocess_feed (@0b19ebca, spec vllm-main
// §1.8 M3), an output that starts with "thought\n", or is "thought", opens
// a thought channel; vLLM checks its first delta, we the output's first
// bytes, so a first delta "thought" followed by anything but a newline is
// content here. The ID-level end check and content IDs read the output's
// first tokens for the label too. vLLM strips the label once per
// response and drops a held label prefix when the stream ends, and content
// of the same delta with it (§12.9); we strip it per channel and lose
// nothing. vLLM main (vllm/parser/gemma4.py@0b19ebca, spec vllm-main
// §1.8 M1) defaults enable_thinking to false, and its test
// test_gemma4_new_turn_reasoning_end_matches_enable_thinking wants a new
// turn ended without kwargs; we follow it (an older test wanted not
// ended). With thinking not enabled, vLLM's server streams the whole
// output raw after the prompt's "<|turn>model\n" (M2) while its extract
// splits the channel; ours split in both (policies 2 and 7), the switch
// deciding only the end check. A bare "call:" in reasoning does not
// end it here. Dynamo's gemma4 reads text before a lone <channel|> as
// reasoning and keeps a stray one in streamed content; SGLang's
// Gemma4Detector is its base <think>-style detector with these markers; we
// follow vLLM (policy 1).
func newGemma4(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return gemma4Family.newParser(tok, cfg)
}

func init() {
	// Gemma 4's spec has no switch, but its ID-level end check at a turn
	// boundary reads enable_thinking. Its opener is named as the model
	// writes it, with the label.
	register("gemma4", newGemma4, gemma4Family.entry(), about{engine: vllm, models: []string{"gemma-4", "gemma4"},
		summary: "`<|channel>thought\\n`…`<channel|>`, label dropped, `<|tool_call>` ends reasoning, starts in content; `enable_thinking` decides only the end check at a turn boundary",
		opens:   []string{gemmaChannelOpen + gemmaThought}, keys: []string{"enable_thinking"}, aliases: []string{"gemma-4"}})
}
