package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
)

// The table of contents: one line per canonical name, sorted, aliases after
// their name; each factory lives in the file of its family. ("gemma-4" is an
// alias of its own: it normalises to gemma_4, not gemma4. "kimi-k3" and
// "deepseek-v4" need none: '-' and '_' are equal.)
func init() {
	harmonyEntry := catalog.Entry{Markers: harmonyMarkers, Headers: true}
	museEntry := catalog.Entry{Markers: museMarkers, Headers: true}
	register("basic", newBasic, basicFamily.entry())
	register("beam", newBeam, harmonyEntry)
	register("cohere_command3", newCohereCommand3, cohereCommand3Family.entry())
	register("cohere_command4", newCohereCommand4, cohereCommand4Family.entry())
	register("deepseek_r1", newDeepSeekR1, deepseekR1Family.entry(), "nemotron_nano", "deepseek_v3_1", "deepseek_v3_2")
	register("deepseek_v3", newDeepSeekV3, deepseekV3Family.entry())
	register("deepseek_v4", newDeepSeekV4, deepseekV4Family.entry(), "deepseekv4")
	register("deepseek_v41", newDeepSeekV41, deepseekV41Family.entry())
	register("ernie45", newErnie45, ernie45Family.entry())
	register("gemma4", newGemma4, gemma4Family.entry(), "gemma-4")
	register("glm45", newGLM45, glm45Family.entry())
	register("glm47", newGLM47, glm47Family.entry())
	register("granite", newGranite, graniteFamily.entry())
	register("granite_thinking_parser", newGraniteThinking, graniteThinkingFamily.entry())
	register("hf", newResponseTemplate, templateEntry(), "response_template")
	register("holo2", newHolo2, holo2Family.entry())
	register("hunyuan_a13b", newHunyuanA13B, hunyuanEntry, "hunyuan")
	register("hy_v3", newHYV3, hyV3Family.entry())
	register("hy_v4", newHYV4, hyV4Family.entry())
	register("identity", newIdentityParser, catalog.Entry{})
	register("inkling", newInkling, catalog.Entry{Markers: inklingMarkers, Headers: true, StripsSpace: true})
	register("interns1", newInternS1, internS1Family.entry())
	register("k2_horizon", newK2Horizon, horizonFamilies["high"].entry())
	register("kimi", newKimi, kimiFamily.entry())
	register("kimi_k2", newKimiK2, kimiK2Family.entry())
	register("kimi_k25", newKimiK25, kimiK25Family.entry())
	register("kimi_k3", newKimiK3, kimiK3Family.entry())
	register("ling3", newLing3, ling3Family.entry())
	register("mimo", newMiMo, mimoFamily.entry())
	register("minicpmv", newMiniCPMV, minicpmvFamily.entry())
	register("minimax_append_think", newMiniMaxAppendThink, minimaxAppendThinkFamily.entry())
	register("minimax_m2", newMiniMaxM2, minimaxM2Family.entry(), "minimax")
	register("minimax_m2_append_think", newMiniMaxM2AppendThink, catalog.Entry{Markers: appendThinkIDs.markers, Prefix: thinkOpen})
	register("minimax_m3", newMiniMaxM3, minimaxM3Family.entry())
	register("mistral", newMistral, mistralFamily.entry())
	register("muse_glimmer", newMuseGlimmer, museEntry, "muse")
	register("muse_spark", newMuseSpark, museEntry, "muse_spark_open")
	register("nemotron_deci", newNemotronDeci, nemotronDeciFamily.entry())
	register("nemotron_v3", newNemotronV3, nemotronV3Family.entry(), "nemotron3", "nemotron_3")
	register("olmo3", newOlmo3, olmo3Family.entry())
	register("openai_gptoss", newHarmony, harmonyEntry, "gpt_oss")
	register("plamo3", newPlamo3, plamo3Family.entry())
	register("poolside_v1", newPoolsideV1, poolsideFamily.entry())
	register("qwen3", newQwen3, qwen3Family.entry())
	register("qwen3_thinking", newQwen3Thinking, qwen3ThinkingFamily.entry())
	register("seed_oss", newSeedOSS, seedOSSFamily.entry())
	register("step3", newStep3, step3Family.entry())
	register("step3p5", newStep3p5, step3p5Family.entry())
}

// register adds a name to reasoning.Default and what it is made of to the
// test catalog.
func register(name string, f reasoning.Factory, e catalog.Entry, aliases ...string) {
	reasoning.Register(name, f, aliases...)
	catalog.Add(name, e)
}
