package parsers

import (
	"slices"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
)

// The engines whose behaviour a name follows.
const (
	vllm   = "vLLM"
	sglang = "SGLang"
	dynamo = "Dynamo"
)

// The table of contents: one entry per canonical name, sorted, with its
// engine, its one-line summary (markers in backquotes, as Markdown code
// spans) and its aliases; each factory lives in the file of its family.
// This is where a name, its aliases, switch keys and markers are declared:
// reasoning.Default's Info, the docs (go generate), the doctor, the fuzz
// targets and ResolveThinking read them from here. ("gemma-4" is an alias
// of its own: it normalises to gemma_4, not gemma4. "kimi-k3" and
// "deepseek-v4" need none: '-' and '_' are equal.)
//
//go:generate go run ../internal/gendocs -root ..
func init() {
	harmonyEntry := catalog.Entry{Markers: harmonyMarkers, Headers: true}
	museEntry := catalog.Entry{Markers: museMarkers, Headers: true}
	register("basic", newBasic, basicFamily.entry(), about{engine: dynamo,
		summary: "`<think>`…`</think>`, starts in content, every `<think>` opens a block"})
	register("beam", newBeam, harmonyEntry, about{engine: dynamo,
		summary: "Harmony, as `openai_gptoss`; tool calls kept whole in content"})
	register("cohere_command3", newCohereCommand3, cohereCommand3Family.entry(), about{engine: vllm,
		summary: "`<|START_THINKING|>`…`<|END_THINKING|>`, starts in content; answer markers and citations dropped, actions kept"})
	register("cohere_command4", newCohereCommand4, cohereCommand4Family.entry(), about{engine: vllm,
		summary: "as `cohere_command3`, `<|START_TEXT|>` answers too; starts in reasoning"})
	register("deepseek_r1", newDeepSeekR1, deepseekR1Family.entry(), about{engine: vllm,
		summary: "`<think>`…`</think>`, starts in reasoning, one block",
		inert:   []string{deepseekToolCalls}, aliases: []string{"nemotron_nano", "deepseek_v3_1", "deepseek_v3_2"}})
	register("deepseek_v3", newDeepSeekV3, deepseekV3Family.entry(), about{engine: vllm,
		summary: "as `deepseek_r1` with `thinking`/`enable_thinking` on, else identity (default off)",
		inert:   []string{deepseekToolCalls}})
	register("deepseek_v4", newDeepSeekV4, deepseekV4Family.entry(), about{engine: vllm,
		summary: "`<think>`…`</think>`, `<｜DSML｜tool_calls>` ends reasoning, blocks interleave; thinking on by default; `reasoning_effort` \"none\" turns it off (content; `<think>` still opens)",
		aliases: []string{"deepseekv4"}})
	register("deepseek_v41", newDeepSeekV41, deepseekV41Family.entry(), about{engine: vllm,
		summary: "as `deepseek_v4`, with the spaced `<｜DSML｜ calls>` opener"})
	register("ernie45", newErnie45, ernie45Family.entry(), about{engine: vllm,
		summary: "`<think>`…`</think>`, starts in reasoning, `<response>` wrapper dropped, newlines after `</think>` dropped"})
	// Gemma 4's spec has no switch, but its ID-level end check at a turn
	// boundary reads enable_thinking. Its opener is named as the model
	// writes it, with the label.
	register("gemma4", newGemma4, gemma4Family.entry(), about{engine: vllm,
		summary: "`<|channel>thought\\n`…`<channel|>`, label dropped, `<|tool_call>` ends reasoning, starts in content; `enable_thinking` decides only the end check at a turn boundary",
		opens:   []string{gemmaChannelOpen + gemmaThought}, keys: []string{"enable_thinking"}, aliases: []string{"gemma-4"}})
	register("glm45", newGLM45, glm45Family.entry(), about{engine: vllm,
		summary: "`<think>`…`</think>` interleaved blocks, `<tool_call>` ends reasoning; `thinking`/`enable_thinking` (on; off → identity)"})
	register("glm47", newGLM47, glm47Family.entry(), about{engine: vllm,
		summary: "as `glm45`"})
	register("granite", newGranite, graniteFamily.entry(), about{engine: vllm,
		summary: `"Here is my thought process:" … "Here is my response:" (and "Here's"), plain text, starts in content`})
	register("granite_thinking_parser", newGraniteThinking, graniteThinkingFamily.entry(), about{engine: vllm,
		summary: "`<think>`…`</think>` as `nemotron_v3`, `<tool_call>` ends reasoning, leading content newlines dropped; `enable_thinking` (on)"})
	// Its markers are the model's (the catalog's are Gemma 4's template,
	// for the tests); its thinking switch decides the end check.
	register("hf", newResponseTemplate, templateEntry(), about{engine: vllm,
		summary:      "markers and start from the model's `response_template` metadata, read from a `tokenizer.Configured` (content when no prompt says otherwise); `enable_thinking` decides the end check",
		modelMarkers: true, keys: []string{"enable_thinking"}, aliases: []string{"response_template"}})
	register("holo2", newHolo2, holo2Family.entry(), about{engine: vllm,
		summary: "as `deepseek_v3`, thinking on by default"})
	register("hunyuan_a13b", newHunyuanA13B, hunyuanEntry, about{engine: vllm,
		summary: "`<think>\\n`…`\\n</think>\\n<answer>\\n`…`\\n</answer>`, newlines optional, wrapper dropped, starts in content; its own phase machine",
		opens:   []string{thinkOpen}, closes: []string{thinkClose}, aliases: []string{"hunyuan"}})
	register("hy_v3", newHYV3, hyV3Family.entry(), about{engine: vllm,
		summary: "`<think{suffix}>`…`</think{suffix}>`, suffix from tokenizer_config `token_suffix`; `reasoning_effort` (default \"no_think\" → identity)"})
	register("hy_v4", newHYV4, hyV4Family.entry(), about{engine: vllm,
		summary: "as `hy_v3`, suffix from the vocabulary's structural tokens; `reasoning_effort` (default \"high\"; \"no_think\" → identity)"})
	register("identity", newIdentityParser, catalog.Entry{}, about{engine: vllm,
		summary: "no reasoning: everything is content"})
	register("inkling", newInkling, catalog.Entry{Markers: inklingMarkers, Headers: true, StripsSpace: true}, about{engine: vllm,
		summary: "typed content blocks: `<|content_thinking|>` is reasoning; text, tool-text and tool-error blocks content, tool JSON kept in content"})
	register("interns1", newInternS1, internS1Family.entry(), about{engine: sglang,
		summary: "SGLang's Qwen3 detector: `<think>`…`</think>`, `<tool_call>`, starts in content, the first `<think>` opens the block; `enable_thinking` (on)"})
	// Its reasoning_effort picks the markers: Info lists every pair.
	register("k2_horizon", newK2Horizon, horizonFamilies["high"].entry(), about{engine: vllm,
		summary: "`<ifm|think…>`…`</ifm|think…>` chosen by `reasoning_effort` (\"high\", \"medium\", \"low\"; any other fails at New), `<ifm|tool_calls>` ends reasoning",
		keys:    []string{"reasoning_effort"}, also: []catalog.Entry{horizonFamilies["medium"].entry(), horizonFamilies["low"].entry()}})
	register("kimi", newKimi, kimiFamily.entry(), about{engine: dynamo,
		summary: "Dynamo's and SGLang's `◁think▷`…`◁/think▷`, starts in content, every `◁think▷` opens a block"})
	register("kimi_k2", newKimiK2, kimiK2Family.entry(), about{engine: vllm,
		summary: "`<think>`…`</think>`, `<|tool_calls_section_begin|>` ends reasoning and stays in content; `thinking`/`enable_thinking` (on)"})
	register("kimi_k25", newKimiK25, kimiK25Family.entry(), about{engine: dynamo,
		summary: "`<think>`…`</think>` forced into reasoning, `<|tool_calls_section_begin|>` ends reasoning, every `<think>` in content opens a block"})
	register("kimi_k3", newKimiK3, kimiK3Family.entry(), about{engine: vllm,
		summary: "`<|open|>think<|sep|>`…`<|close|>think<|sep|>` (several tokens), response wrappers dropped; `thinking`, else `enable_thinking` (on)"})
	register("ling3", newLing3, ling3Family.entry(), about{engine: vllm,
		summary: "as `glm45`"})
	register("mimo", newMiMo, mimoFamily.entry(), about{engine: vllm,
		summary: "as `qwen3`"})
	register("minicpmv", newMiniCPMV, minicpmvFamily.entry(), about{engine: vllm,
		summary: "as `qwen3`, reserved tokens dropped; `enable_thinking` default off (content; `<think>` still opens)"})
	register("minimax_append_think", newMiniMaxAppendThink, minimaxAppendThinkFamily.entry(), about{engine: dynamo,
		summary: "`<think>` put back in front, then as `basic`"})
	register("minimax_m2", newMiniMaxM2, minimaxM2Family.entry(), about{engine: vllm,
		summary: "`<think>`…`</think>`, `<minimax:tool_call>` ends reasoning, starts in reasoning",
		aliases: []string{"minimax"}})
	register("minimax_m2_append_think", newMiniMaxM2AppendThink, catalog.Entry{Markers: appendThinkIDs.markers, Prefix: thinkOpen}, about{engine: vllm,
		summary: "no split: content is `<think>` + the output"})
	register("minimax_m3", newMiniMaxM3, minimaxM3Family.entry(), about{engine: vllm,
		summary: "`<mm:think>`…`</mm:think>`; `thinking_mode` \"enabled\" starts in reasoning (default off: starts in content)"})
	register("mistral", newMistral, mistralFamily.entry(), about{engine: vllm,
		summary: "`[THINK]`…`[/THINK]` (v13) or `<think>`…`</think>` (v11), `[TOOL_CALLS]` ends reasoning, starts in content"})
	register("muse_glimmer", newMuseGlimmer, museEntry, about{engine: vllm,
		summary: "recipient-routed channels: `to=self` is reasoning, `to=user` content, tool calls to content",
		aliases: []string{"muse"}})
	register("muse_spark", newMuseSpark, museEntry, about{engine: dynamo,
		summary: "as `muse_glimmer`, tool calls as segments",
		aliases: []string{"muse_spark_open"}})
	register("nemotron_deci", newNemotronDeci, nemotronDeciFamily.entry(), about{engine: dynamo,
		summary: "as `basic`"})
	register("nemotron_v3", newNemotronV3, nemotronV3Family.entry(), about{engine: vllm,
		summary: "as `qwen3`, trailing reasoning whitespace dropped; `thinking`/`enable_thinking` (on)",
		aliases: []string{"nemotron3", "nemotron_3"}})
	register("olmo3", newOlmo3, olmo3Family.entry(), about{engine: vllm,
		summary: "`<think>` (only at the start)…`</think>`, starts in reasoning"})
	register("openai_gptoss", newHarmony, harmonyEntry, about{engine: vllm,
		summary: "Harmony channels: `analysis` is reasoning, `final` and plain `commentary` content, messages with a recipient segments",
		aliases: []string{"gpt_oss"}})
	register("plamo3", newPlamo3, plamo3Family.entry(), about{engine: vllm,
		summary: "`<|plamo:begin_think:plamo|>`…`<|plamo:end_think:plamo|>`, end of turn and `<|plamo:begin_tool_requests:plamo|>` end reasoning; `enable_thinking` (on)"})
	register("poolside_v1", newPoolsideV1, poolsideFamily.entry(), about{engine: vllm,
		summary: "as `deepseek_v3` (default off), its end check stops at `<assistant>`"})
	register("qwen3", newQwen3, qwen3Family.entry(), about{engine: vllm,
		summary: "`<think>`…`</think>`, `<tool_call>` ends reasoning and stays in content; `enable_thinking` (on; off → identity)"})
	register("qwen3_thinking", newQwen3Thinking, qwen3ThinkingFamily.entry(), about{engine: sglang,
		summary: "SGLang's Qwen3 detector forced into reasoning: `<think>`…`</think>`, `<tool_call>`; `enable_thinking` (on)"})
	register("seed_oss", newSeedOSS, seedOSSFamily.entry(), about{engine: vllm,
		summary: "`<seed:think>`…`</seed:think>`, `<seed:tool_call>` ends reasoning; `enable_thinking` (on)"})
	register("step3", newStep3, step3Family.entry(), about{engine: vllm,
		summary: "`</think>` only: everything before it is reasoning"})
	register("step3p5", newStep3p5, step3p5Family.entry(), about{engine: vllm,
		summary: "as `qwen3`, always thinking"})
}

// about is what a registration says of a name besides its catalog entry.
type about struct {
	engine  string   // reasoning.Info.Engine
	summary string   // reasoning.Info.Summary
	aliases []string // further names
	// opens and closes, when set, are the Info's in place of the entry's
	// (Hunyuan's phase machine has none, Gemma 4's opener has a label);
	// keys are switch keys a family reads outside its spec (Gemma 4's end
	// check).
	opens, closes, keys []string
	also                []catalog.Entry // further variants whose markers Info lists too (k2_horizon's efforts)
	inert               []string        // reasoning.Info.InertTools
	modelMarkers        bool            // the markers come from the model's files: Info lists none
}

// deepseekToolCalls opens DeepSeek R1's and V3's tool calls. No parser ends
// reasoning at it (vLLM's DeepSeek reasoning parsers do not know it): a call
// the model writes while reasoning stays in reasoning.
const deepseekToolCalls = "<｜tool▁calls▁begin｜>"

// register adds a name to reasoning.Default with its Info, and what it is
// made of to the test catalog.
func register(name string, f reasoning.Factory, e catalog.Entry, a about) {
	info := reasoning.Info{Name: name, Aliases: a.aliases, Engine: a.engine, Summary: a.summary,
		InertTools: a.inert, SwitchKeys: union(slices.Clone(e.SwitchKeys), a.keys)}
	if !a.modelMarkers {
		info.Markers, info.Opens, info.Closes, info.Tools = slices.Clone(e.Markers), either(a.opens, e.Opens), either(a.closes, e.Closes), slices.Clone(e.Tools)
	}
	for _, v := range a.also {
		info.Markers, info.Opens = union(info.Markers, v.Markers), union(info.Opens, v.Opens)
		info.Closes, info.Tools = union(info.Closes, v.Closes), union(info.Tools, v.Tools)
	}
	reasoning.RegisterInfo(info, f)
	catalog.Add(name, e)
}

// union returns a with the strings of b it lacks appended, in b's order.
func union(a, b []string) []string {
	for _, s := range b {
		if !slices.Contains(a, s) {
			a = append(a, s)
		}
	}
	return a
}

// either returns a when it is set, else b.
func either(a, b []string) []string {
	if a != nil {
		return a
	}
	return b
}
