package parsers

import (
	"fmt"
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// DeepSeek's markers besides <think> and </think>. The bars are U+FF5C
// FULLWIDTH VERTICAL LINE.
const (
	dsmlToolCalls    = "<｜DSML｜tool_calls>" // V4: ends reasoning implicitly; kept in content
	dsmlToolCallsV41 = "<｜DSML｜ calls>"     // V4.1's spaced form
	poolsideTurn     = "<assistant>"        // Poolside: start of the assistant turn
)

var deepseekR1Family = newTagFamily(ThinkTag{
	Name:  "deepseek_r1",
	Open:  []string{thinkOpen},
	Close: []string{thinkClose},
	rules: []rule{dropLeadSpace()},
})

// newDeepSeekR1 builds the "deepseek_r1" parser (vLLM DeepSeekR1ReasoningParser).
//
// Markers: <think> and </think>, single tokens or not.
// Starts in: reasoning (newer R1 templates put <think> in the prompt). The
// first <think> of the block is dropped wherever it comes; text before it is
// reasoning, but whitespace alone before it is dropped. A prompt that
// already closed the block (WithPrompt) starts the response in content,
// where <think> is text; WithForceReasoning(false) starts it in content
// where a <think> opens the one block.
// Thinking switch: none.
// Truncation: an output that never closes reasoning is all reasoning.
// Repeats: after the first </think> everything is content, verbatim: a later
// </think> or <think> stays as text. A second <think> inside reasoning is
// reasoning text.
// Streaming: holds back fewer bytes than "</think>", only while they may
// start it, and whitespace that starts the output until the next byte says
// whether <think> follows; Finish returns them to the section they belong
// to.
// Upstream: vllm/reasoning/deepseek_r1_reasoning_parser.py@0b19ebca (spec
// vllm-main §1.1) and spec vllm-thinktag §5 and §3. vLLM's extract drops
// everything before <think> (B2) while its streaming path sends it as
// reasoning. We split the rule: a whitespace-only prefix is dropped in both
// paths (extract's answer, the upstream case new_line), a prefix with text
// is reasoning in both (the stream has sent it; spec policies 2 and 3).
// vLLM swallows a delta made of one marker token even when it carries other
// text (B4) and slices text by a search that can miss a marker whose text
// lags its ID (B3); we split on the text and count IDs. The
// ID-level end check is vLLM's (the last marker decides), so an output that
// reopens <think> in content reads as not ended there (B5) although the text
// split keeps it in content. CountReasoningTokens counts tokens before a
// leading <think> (B18: vLLM counts 0 when the prompt opened reasoning).
// Aliases from other engines: SMG's "kimi_thinking" (factory.rs @f8daa883,
// its pattern kimi-k2-thinking) is this parser, with no Kimi tool-section
// end: Kimi-K2-Thinking is better served by kimi_k2, which ForModel picks.
// LMDeploy's deprecated "qwen-qwq" ("qwen_qwq") maps to its default parser,
// which also ends reasoning at the tool-call opener and reenters reasoning
// at a later <think>; here it is this parser, as for QwQ.
func newDeepSeekR1(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return deepseekR1Family.newParser(tok, cfg)
}

func init() {
	register("deepseek_r1", newDeepSeekR1, deepseekR1Family.entry(), about{engine: vllm, models: []string{"deepseek-r1", "qwq", "nemotron-nano*v2", "phi-4*reasoning", "phi4*reasoning"},
		summary: "`<think>`…`</think>`, starts in reasoning, one block",
		inert:   []string{deepseekToolCalls}, aliases: []string{"nemotron_nano", "deepseek_v3_1", "deepseek_v3_2", "kimi_thinking", "qwen_qwq"}})
}

var deepseekV3Family = newTagFamily(ThinkTag{
	Name:     "deepseek_v3",
	Open:     []string{thinkOpen},
	Close:    []string{thinkClose},
	Thinking: Switch{Keys: []string{"thinking", "enable_thinking"}},
	rules:    []rule{dropLeadSpace()},
})

// newDeepSeekV3 builds the "deepseek_v3" parser (vLLM
// DeepSeekV3ReasoningParser): deepseek_r1 when thinking is on, identity when
// it is off.
//
// Markers: <think> and </think> (thinking on).
// Starts in: reasoning with thinking on, as deepseek_r1; content otherwise.
// Thinking switch: chat_template_kwargs "thinking" or "enable_thinking"
// (either true turns it on), default off: the whole output is content,
// untouched, and the end check is always true.
// Truncation, repeats, streaming: as deepseek_r1 (thinking on).
// Upstream: spec vllm-thinktag §6. CountReasoningTokens follows the parser
// chosen (the newest test; [frontend] returned 0). SGLang's "deepseek-v3" is
// its Qwen3 detector needing thinking=True; vLLM's wins (spec policy 1).
// vLLM's rewrite of json_schema requests into a structural tag is request
// handling, out of a parser's reach. "deepseek_v31" (an alias here) is the
// name of a 2025 vLLM pull request's V3.1 parser
// (vllm/reasoning/deepseek_v31_reasoning_parser.py @2e4dec16), which this
// parser is; SMG's "deepseek_v31" (factory.rs @f8daa883) is its basic
// parser, not forced. V3.1 thus has three spellings with three behaviours
// here: deepseek_v3 and deepseek_v31 are this switch, deepseek_v3_1 is
// Dynamo's forced deepseek_r1.
// Other engines: LMDeploy's deepseek_v3 is keyed on enable_thinking alone,
// default off (vLLM reads thinking too); Dynamo's deepseek_v3 is its forced
// R1 (spec field-names §15 #14, §16).
func newDeepSeekV3(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return deepseekV3Family.newParser(tok, cfg)
}

func init() {
	register("deepseek_v3", newDeepSeekV3, deepseekV3Family.entry(), about{engine: vllm, models: []string{"deepseek-v3"},
		summary: "as `deepseek_r1` with `thinking`/`enable_thinking` on, else identity (default off)",
		inert:   []string{deepseekToolCalls}, aliases: []string{"deepseek_v31"}})
}

var holo2Family = newTagFamily(ThinkTag{
	Name:     "holo2",
	Open:     []string{thinkOpen},
	Close:    []string{thinkClose},
	Thinking: Switch{Keys: []string{"thinking", "enable_thinking"}, Default: true},
	rules:    []rule{dropLeadSpace()},
})

// newHolo2 builds the "holo2" parser (vLLM
// DeepSeekV3ReasoningWithThinkingParser): deepseek_v3 with thinking on by
// default.
//
// Markers, starts in, truncation, repeats, streaming: as deepseek_v3.
// Thinking switch: "thinking" or "enable_thinking", default on when neither
// is present; an explicit false of either (the other absent) turns it off:
// the whole output is content, untouched.
// End check: as vLLM's, the last marker decides, so a stray <think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: spec vllm-thinktag §7.
func newHolo2(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return holo2Family.newParser(tok, cfg)
}

func init() {
	register("holo2", newHolo2, holo2Family.entry(), about{engine: vllm, models: []string{"holo2"},
		summary: "as `deepseek_v3`, thinking on by default"})
}

var poolsideFamily = newTagFamily(ThinkTag{
	Name:       "poolside_v1",
	Open:       []string{thinkOpen},
	Close:      []string{thinkClose},
	Thinking:   Switch{Keys: []string{"thinking", "enable_thinking"}},
	Boundaries: []string{poolsideTurn},
	rules:      []rule{dropLeadSpace()},
})

// newPoolsideV1 builds the "poolside_v1" parser (vLLM
// PoolsideV1ReasoningParser): deepseek_v3 whose end check stops at the start
// of the assistant turn, so that a </think> of an earlier turn or a few-shot
// example in the prompt does not count.
//
// Markers: <think> and </think>; <assistant> scopes the end check and must
// be one token of the vocabulary (New fails otherwise, as vLLM does).
// Starts in, thinking switch, truncation, repeats, streaming: as deepseek_v3.
// End check: as vLLM's, the last marker decides, so a stray <think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: spec vllm-thinktag §8. SGLang's poolside_v1 is its Qwen3
// detector needing enable_thinking=True; vLLM's wins (spec policy 1).
// "laguna" (an alias here) is TensorRT-LLM's alias of its poolside_v1 and
// Ollama's name for the model. Both resolve the start from the end of the
// prompt (TensorRT-LLM: its last 64 characters, trailing whitespace trimmed;
// </think> there starts content, <think> reasoning). Here the prompt decides
// the same way once given, so serve Laguna with WithPrompt. Without it and
// with neither key set, the default (off) makes the output identity, where
// TensorRT-LLM still splits at a generated <think>.
func newPoolsideV1(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	if tok != nil {
		if _, ok := tok.TokenID(poolsideTurn); !ok {
			return nil, fmt.Errorf("delimiter %q: %w: poolside_v1 scopes its end check with it, so it must be one token of the vocabulary",
				poolsideTurn, tokenizer.ErrUnencodable)
		}
	}
	return poolsideFamily.newParser(tok, cfg)
}

func init() {
	register("poolside_v1", newPoolsideV1, poolsideFamily.entry(), about{engine: vllm, models: []string{"laguna"},
		summary: "as `deepseek_v3` (default off), its end check stops at `<assistant>`",
		aliases: []string{"laguna"}})
}

// deepseekV4Thinking is V4's switch: "thinking" or "enable_thinking", on
// when neither is present; reasoning_effort "none" turns it off.
func deepseekV4Thinking(c reasoning.Config) bool {
	if v, ok := c.Kwarg("reasoning_effort"); ok {
		if s, _ := v.(string); strings.EqualFold(strings.TrimSpace(s), "none") {
			return false
		}
	}
	return Switch{Keys: []string{"thinking", "enable_thinking"}, Default: true}.on(c)
}

var deepseekV4Family = newTagFamily(ThinkTag{
	Name:          "deepseek_v4",
	Open:          []string{thinkOpen},
	Close:         []string{thinkClose},
	Tools:         []string{dsmlToolCalls},
	Repeats:       RepeatsInterleave,
	Thinking:      Switch{Keys: []string{"thinking", "enable_thinking", "reasoning_effort"}, decide: deepseekV4Thinking, Off: OffContent},
	TrimReasoning: true,
})

// newDeepSeekV4 builds the "deepseek_v4" parser (vLLM's DeepSeek V4 engine
// parser).
//
// Markers: <think> and </think>; the DSML tool block opener
// <｜DSML｜tool_calls> ends reasoning and stays in content.
// Starts in: reasoning with thinking on; content with thinking off, where an
// explicit <think> still opens a block.
// Thinking switch: chat_template_kwargs "thinking" or "enable_thinking", on
// when neither is present; reasoning_effort "none" turns it off.
// Truncation: an unclosed block is reasoning.
// Repeats: every <think> in content opens another block; every <think> in
// reasoning and every stray </think> in content is dropped.
// Streaming: the trailing whitespace of a block is held until more reasoning
// comes and dropped when the block ends.
// Upstream: spec vllm-thinktag §17.1 (engine). The legacy delegator (identity
// when off) honoured the DSML end in streaming only (B12); the engine's
// default flipped between versions, we take the newest (on). Dynamo's and
// SGLang's deepseek_v4 differ (SGLang: its Qwen3 detector needing
// thinking=True); vLLM's wins (spec policy 1).
// Other engines: TensorRT-LLM's and LMDeploy's deepseek_v4 split as R1 from
// the start when thinking or enable_thinking is truthy, else are the identity
// (default off, vLLM's on); Dynamo's is not forced, with <｜DSML｜tool_calls>
// and <｜DSML｜invoke name= as implicit ends (spec field-names §15 #14, §16).
func newDeepSeekV4(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return deepseekV4Family.newParser(tok, cfg)
}

func init() {
	register("deepseek_v4", newDeepSeekV4, deepseekV4Family.entry(), about{engine: vllm, models: []string{"deepseek-v4", "deepseekv4"},
		summary: "`<think>`…`</think>`, `<｜DSML｜tool_calls>` ends reasoning, blocks interleave; thinking on by default; `reasoning_effort` \"none\" turns it off (content; `<think>` still opens)",
		aliases: []string{"deepseekv4"}})
}

var deepseekV41Family = newTagFamily(func() ThinkTag {
	s := renamed(deepseekV4Family, "deepseek_v41")
	s.Tools = []string{dsmlToolCallsV41}
	return s
}())

// newDeepSeekV41 builds the "deepseek_v41" parser (vLLM's DeepSeek V4.1
// engine parser): deepseek_v4 with the spaced DSML opener <｜DSML｜ calls>.
//
// Markers: <think>, </think>, and <｜DSML｜ calls>, which ends reasoning and
// stays in content. Starts in, thinking switch, truncation, repeats,
// streaming: as deepseek_v4.
// Upstream: spec vllm-thinktag §18.
func newDeepSeekV41(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return deepseekV41Family.newParser(tok, cfg)
}

func init() {
	register("deepseek_v41", newDeepSeekV41, deepseekV41Family.entry(), about{engine: vllm, models: []string{"deepseek-v4.1", "deepseek-v41"},
		summary: "as `deepseek_v4`, with the spaced `<｜DSML｜ calls>` opener"})
}
