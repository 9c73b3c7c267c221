package parsers

import (
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Solar Open 2's markers, special tokens of its vocabulary. The tool call's
// argument sentinels (<|tool_arg:start|>, <|tool_arg:value|>,
// <|tool_arg:end|>) are the tool parser's: text here.
const (
	solarThinkStart = "<|think:start|>"
	solarThinkEnd   = "<|think:end|>"
	solarToolStart  = "<|tool_call:start|>"
	solarToolEnd    = "<|tool_call:end|>"
)

// solarThinking is Solar Open 2's switch: reasoning_effort unset, "medium",
// "high" or "xhigh" opens the think block; any other value ("none", "low",
// "minimal", unknown) closes it.
func solarThinking(c reasoning.Config) bool {
	v, ok := c.Kwarg("reasoning_effort")
	if !ok {
		return true
	}
	s, _ := v.(string)
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "medium", "high", "xhigh":
		return true
	}
	return false
}

var solarOpen2Spec = hoistSpec{
	machineSpec: machineSpec{markers: []string{solarThinkStart, solarThinkEnd, solarToolStart, solarToolEnd}, endText: solarThinkEnd},
	reopen:      true,
	thinking:    solarThinking,
	identityOff: true,
}

// newSolarOpen2 builds the "solar_open2" parser (vLLM's
// SolarOpen2ReasoningParser).
//
// Markers: <|think:start|> and <|think:end|>; <|tool_call:start|> inside
// reasoning begins a tool call, which is content, verbatim with its
// markers, up to and including <|tool_call:end|>; reasoning goes on after
// it. Inside a call no other marker counts. None need be a single token.
// Starts in: reasoning (the template prefills <|think:start|>), whose first
// <|think:start|> is dropped; a prompt (WithPrompt) whose last marker is
// <|think:end|> starts the response in content.
// Thinking switch: chat_template_kwargs "reasoning_effort": unset, medium,
// high or xhigh open the block; anything else (none, low, minimal, unknown)
// closes it: the whole output is content, untouched.
// Truncation: an open block is reasoning; an unclosed tool call leaves the
// rest in content.
// Repeats: an <|think:start|> in content opens another block; one inside a
// block is text, as an <|think:end|> in content is.
// Streaming: holds back fewer bytes than the longest marker while they may
// start one.
// End check: from the split: not ended inside a block or a call within
// one; ended in content. Walking a multi-turn prompt's IDs, the last
// <|think:start|> decides, as upstream's check anchors on it.
// Upstream: spec field-names §7.2; vllm/reasoning/solar_open2_reasoning_parser.py
// @c6cdf911 (registry @0064cc9c); tests/reasoning/
// test_solar_open2_reasoning_parser.py @c7dcf180. Deliberate differences
// (spec policy 2): upstream's extract cuts complete calls out of reasoning
// and appends them after the content, joined with "\n", while its stream
// ends reasoning at the first <|tool_call:start|>; here a call goes to
// content where it comes and reasoning resumes after it, in both paths, so
// reasoning is upstream's extract and content holds the call before the
// answer, not after it. Upstream's precedence of the effort (top-level
// field, Responses reasoning.effort, chat_template_kwargs, server default)
// is the caller's: it passes the one that applies as reasoning_effort. A
// later <|think:start|> in content opens a block here (text in upstream's
// extract), so that the split agrees with an end check that anchors on the
// last one; upstream's content IDs are always empty, here they follow the
// split.
func newSolarOpen2(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return newHoist(&solarOpen2Spec, tok, cfg)
}

func init() {
	register("solar_open2", newSolarOpen2, solarOpen2Spec.entry([]string{"reasoning_effort"}), about{engine: vllmPR, models: []string{"solar-open-2", "solar-open2"},
		summary: "`<|think:start|>`…`<|think:end|>`, starts in reasoning; `<|tool_call:start|>`…`<|tool_call:end|>` inside reasoning goes to content in place; `reasoning_effort` (closed below medium → identity)"})
}
