package reasoning_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reasoning-go/reasoning"
	_ "github.com/reasoning-go/reasoning/parsers"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// forModelCases holds a model for every entry of ForModel's table, in the
// table's order, then IDs that check the order of entries that nest.
var forModelCases = []struct{ id, want string }{
	// The issue's examples.
	{"deepseek-ai/DeepSeek-R1-0528", "deepseek_r1"},
	{"Qwen/Qwen3-8B", "qwen3"},
	{"openai/gpt-oss-20b", "openai_gptoss"},
	{"moonshotai/Kimi-K2-Thinking", "kimi_k2"},
	{"zai-org/GLM-4.7", "glm45"},
	{"ibm-granite/granite-3.2-8b-instruct", "granite"},
	{"tencent/Hunyuan-A13B-Instruct", "hunyuan_a13b"},
	{"mistralai/Magistral-Small-2509", "mistral"},

	// One per table entry.
	{"deepseek-ai/DeepSeek-R1-0528", "deepseek_r1"},
	{"deepseek-ai/DeepSeek-V4.1", "deepseek_v41"},
	{"deepseek-v41", "deepseek_v41"},
	{"deepseek-ai/DeepSeek-V4", "deepseek_v4"},
	{"deepseekv4", "deepseek_v4"},
	{"deepseek-ai/DeepSeek-V3.1-Terminus", "deepseek_v3"},
	{"Qwen/QwQ-32B", "deepseek_r1"},
	{"Qwen/Qwen3-235B-A22B-Thinking-2507", "qwen3_thinking"},
	{"Qwen/Qwen3-30B-A3B-Instruct-2507", "identity"},
	{"qwen3-coder:30b", "identity"},
	{"Qwen/Qwen3-8B", "qwen3"},
	{"moonshotai/Kimi-K3", "kimi_k3"},
	{"moonshotai/Kimi-K2-Instruct-0905", "identity"},
	{"moonshotai/Kimi-K2-Thinking", "kimi_k2"},
	{"moonshotai/Kimi-VL-A3B-Thinking-2506", "kimi"},
	{"IFM/K2-Horizon-36B", "k2_horizon"},
	{"zai-org/GLM-4.1V-9B-Thinking", "glm45"},
	{"zai-org/GLM-4.5-Air", "glm45"},
	{"zai-org/GLM-4.6", "glm45"},
	{"zai-org/GLM-4.7", "glm45"},
	{"zai-org/GLM-5", "glm45"},
	{"inclusionAI/Ling-3.0-flash", "ling3"},
	{"MiniMaxAI/MiniMax-M3", "minimax_m3"},
	{"MiniMaxAI/MiniMax-M2.5", "minimax_m2"},
	{"MiniMaxAI/MiniMax-M1-80k", "minimax_m1"},
	{"openai/gpt-oss-20b", "openai_gptoss"},
	{"google/gemma-4-26B-A4B-it", "gemma4"},
	{"gemma4:26b", "gemma4"},
	{"meta-models/Muse-Glimmer-30B", "muse_glimmer"},
	{"muse-spark", "muse_spark"},
	{"thinkingmachines/Inkling", "inkling"},
	{"ibm-granite/granite-4.2-30b", "granite_thinking_parser"},
	{"granite4.2:8b", "granite_thinking_parser"},
	{"ibm-granite/granite-3.2-8b-instruct", "granite"},
	{"ibm-granite/granite-3.3-8b-instruct", "granite"},
	{"granite3.2:8b", "granite"},
	{"granite3.3:8b", "granite"},
	{"tencent/Hunyuan-A13B-Instruct", "hunyuan_a13b"},
	{"tencent/Hy3-preview", "hy_v3"},
	{"tencent/Hy4-preview", "hy_v4"},
	{"nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", "nemotron_v3"},
	{"nemotron3:30b", "nemotron_v3"},
	{"nvidia/NVIDIA-Nemotron-Nano-9B-v2", "deepseek_r1"},
	{"nvidia/Llama-3_3-Nemotron-Super-49B-v1_5", "nemotron_deci"},
	{"mistralai/Magistral-Small-2509", "mistral"},
	{"mistralai/Ministral-3-14B-Reasoning-2512", "mistral"},
	{"CohereLabs/command-a-reasoning-08-2025", "cohere_command3"},
	{"CohereLabs/command-a-plus-05-2026-bf16", "cohere_command4"},
	{"baidu/ERNIE-4.5-21B-A3B-Thinking", "ernie45"},
	{"baidu/ERNIE-4.5-VL-28B-A3B-PT", "ernie45"},
	{"ByteDance-Seed/Seed-OSS-36B-Instruct", "seed_oss"},
	{"stepfun-ai/Step-3.5-Flash", "step3p5"},
	{"step3.5-flash", "step3p5"},
	{"step3p5", "step3p5"},
	{"stepfun-ai/Step-3.7-Flash", "step3p5"},
	{"stepfun-ai/step3", "step3"},
	{"allenai/Olmo-3-7B-Think", "olmo3"},
	{"olmo3:7b-think", "olmo3"},
	{"XiaomiMiMo/MiMo-7B-RL", "mimo"},
	{"openbmb/MiniCPM-V-4_5", "minicpmv"},
	{"internlm/Intern-S1", "interns1"},
	{"Hcompany/Holo2-4B", "holo2"},
	{"poolside/Laguna-S-2.1", "poolside_v1"},
	{"plamo-3.0-prime", "plamo3"},
	{"microsoft/Phi-4-reasoning-plus", "deepseek_r1"},
	{"CohereLabs/c4ai-command-r-plus-08-2024", "cohere_cmd"},
	{"CohereLabs/command-a-03-2025", "cohere_cmd"},
	{"BlinkDL/rwkv7-g1", "rwkv"},
	{"phi4-reasoning:14b", "deepseek_r1"},
	{"LGAI-EXAONE/EXAONE-4.0-32B", "exaone4"},
	{"ai-sage/GigaChat3.5-432B-A28B", "gigachat35"},
	{"ai-sage/GigaChat3.5-432B-A28B-Reasoning", "gigachat35_thinking"},
	{"Tele-AI/TeleChat2.5-35B", "telechat"},
	{"Tele-AI/XingChen4-8B", "telechat"},
	{"Tele-AI/TeleChat4-120B", "telechat4"},
	{"swiss-ai/Apertus-8B-Instruct-2509", "apertus"},
	{"upstage/Solar-Open-2-100B", "solar_open2"},
	{"ServiceNow-AI/Apriel-1.6-15b-Thinker", "apriel"},
	{"ServiceNow-AI/Apriel-1.5-15b-Thinker", "apriel"},
	{"ServiceNow-AI/Apriel-Nemotron-15b-Thinker", "apriel"},
	{"meituan-longcat/LongCat-Flash-Thinking-2601", "longcat"},
	{"openPangu-Embedded-7B", "pangu"},
	{"pangu-pro-moe", "pangu"},
	{"naver-hyperclovax/HyperCLOVAX-SEED-Think-32B", "hyperclovax_seed_think"},
	{"naver-hyperclovax/HyperCLOVAX-SEED-Think-14B", "hyperclovax_seed_think_14b"},
	{"IQuestLab/IQuest-Coder-V1-40B-Loop-Thinking", "iquest"},
	{"iquest-coder-v2", "iquest_coder_v2"},
	{"iquest-q1", "iquest_q1"},
	{"Aleph-Alpha/Kolibri-1", "kolibri1"},
	{"kolibri1", "kolibri1"},
	{"berrylm-os", "qwen3"},

	// Nesting: the more specific entry must win.
	{"deepseek-ai/DeepSeek-R1-0528-Qwen3-8B", "deepseek_r1"},
	{"deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "deepseek_r1"},
	{"deepseek-ai/DeepSeek-R1-Distill-Llama-8B", "deepseek_r1"},
	{"deepseek-r1:14b", "deepseek_r1"},
	{"deepseek-ai/DeepSeek-V3.2-Exp", "deepseek_v3"},
	{"deepseek-ai/DeepSeek-V3-0324", "deepseek_v3"},
	{"Qwen/Qwen3.5-4B", "qwen3"},
	{"qwen3:8b", "qwen3"},
	{"Qwen/Qwen3-VL-8B-Thinking", "qwen3_thinking"},
	{"Qwen/Qwen3-Coder-480B-A35B-Instruct", "identity"},
	{"Qwen/Qwen3-Next-80B-A3B-Instruct", "identity"},
	{"moonshotai/Kimi-K2.5", "kimi_k2"},
	{"moonshotai/Kimi-K2-Instruct", "identity"},
	{"zai-org/GLM-4.5V", "glm45"},
	{"zai-org/GLM-4.7-Flash", "glm45"},
	{"tencent/Hunyuan-7B-Instruct", "hunyuan_a13b"},
	{"nvidia/Llama-3.1-Nemotron-Nano-8B-v1", "nemotron_deci"},
	{"allenai/Olmo-3.1-32B-Think", "olmo3"},
	{"baidu/ERNIE-4.5-VL-28B-A3B-Thinking", "ernie45"},

	// Case, separators and word boundaries.
	{"QWEN/QWEN3-8B", "qwen3"},
	{"  Qwen/Qwen3-8B  ", "qwen3"},
	{"Llama_3_3_Nemotron_Super_49B", "nemotron_deci"},
	{"GPT OSS 120B", "openai_gptoss"},
}

func TestForModel(t *testing.T) {
	for _, c := range forModelCases {
		got, ok := reasoning.ForModel(c.id)
		if assert.True(t, ok, "ForModel(%q) found nothing, want %q", c.id, c.want) {
			assert.Equal(t, c.want, got, "ForModel(%q)", c.id)
		}
	}
}

func TestForModelUnknown(t *testing.T) {
	for _, id := range []string{
		"",
		"   ",
		"meta-llama/Llama-3.1-8B-Instruct",
		"Qwen/Qwen2.5-7B-Instruct",
		"mistralai/Mistral-7B-Instruct-v0.3",
		"ibm-granite/granite-4.0-h-small",
		"notqwen3",                               // a pattern starts a word
		"example/xmimo",                          // likewise
		"deepseek",                               // a family name alone is not a model
		"meituan-longcat/LongCat-Flash-Chat",     // LongCat's non-thinking model
		"IQuestLab/IQuest-Coder-V1-40B-Instruct", // IQuest's non-thinking model
	} {
		name, ok := reasoning.ForModel(id)
		assert.False(t, ok, "ForModel(%q) = %q, want nothing", id, name)
		assert.Empty(t, name, "ForModel(%q)", id)
	}
}

// notByModel are the registered names no model maps to: each is an
// engine's alternative for models that another name covers. ForModel's
// doc lists them.
var notByModel = []string{
	"apertus2509",             // SGLang's Apertus 2509; vLLM serves Apertus with apertus
	"basic",                   // Dynamo's generic <think> parser
	"beam",                    // Dynamo's gpt-oss; ForModel gives openai_gptoss
	"deepseek_v32",            // LMDeploy's DeepSeek V3.2; vLLM serves it with deepseek_v3
	"glm47",                   // the same class as glm45, which ForModel gives
	"hf",                      // configured from the model's own metadata
	"intern_s1",               // vLLM's Intern-S1 pull request; interns1 (SGLang's, in its main registry) keeps the models
	"kimi_k25",                // Dynamo's Kimi K2.5; vLLM serves it with kimi_k2
	"minimax_append_think",    // Dynamo's MiniMax M2 variant
	"minimax_m2_append_think", // vLLM's no-split MiniMax M2 variant
	"minimax_m2_sanitized",    // a vLLM pull request's MiniMax M2 with content normalised; minimax_m2 serves the models
	"nemotron",                // a vLLM pull request's string-based parser; nemotron_v3 and nemotron_deci serve its models
	"openpangu_v2",            // a vLLM pull request's; the spec names no model IDs
}

// TestForModelCoversEveryFamily checks that every registered name is
// reached by some model, or is one of notByModel, and that every name
// ForModel gives is a registered canonical name.
func TestForModelCoversEveryFamily(t *testing.T) {
	reached := map[string]bool{}
	for _, c := range forModelCases {
		name, ok := reasoning.ForModel(c.id)
		require.True(t, ok, c.id)
		canonical, registered := reasoning.Canonical(name)
		require.True(t, registered, "ForModel(%q) = %q, which is not registered", c.id, name)
		require.Equal(t, name, canonical, "ForModel(%q) gives an alias", c.id)
		reached[name] = true
	}
	for _, name := range reasoning.Names() {
		if slices.Contains(notByModel, name) {
			assert.False(t, reached[name], "%q is listed as reached by no model", name)
			continue
		}
		assert.True(t, reached[name], "no model maps to %q", name)
	}
	for _, name := range notByModel {
		_, ok := reasoning.Canonical(name)
		assert.True(t, ok, "notByModel lists %q, which is not registered", name)
	}
	t.Logf("%d models reach %d of %d names", len(forModelCases), len(reached), len(reasoning.Names()))
}

func ExampleForModel() {
	for _, id := range []string{"Qwen/Qwen3-8B", "Qwen/Qwen3-30B-A3B-Thinking-2507", "deepseek-r1:14b", "meta-llama/Llama-3.1-8B-Instruct"} {
		name, ok := reasoning.ForModel(id)
		fmt.Printf("%s: %q %v\n", id, name, ok)
	}
	// Output:
	// Qwen/Qwen3-8B: "qwen3" true
	// Qwen/Qwen3-30B-A3B-Thinking-2507: "qwen3_thinking" true
	// deepseek-r1:14b: "deepseek_r1" true
	// meta-llama/Llama-3.1-8B-Instruct: "" false
}

// TestForModelRegistry checks that ForModel reads the patterns a
// registration declares, on any Registry, and that the most specific
// pattern wins whatever the order of registration.
func TestForModelRegistry(t *testing.T) {
	f := func(tokenizer.Tokenizer, reasoning.Config) (reasoning.Parser, error) { return nil, nil }
	for _, order := range [][]string{{"broad", "narrow"}, {"narrow", "broad"}} {
		r := reasoning.NewRegistry()
		for _, name := range order {
			models := map[string][]string{"broad": {"acme"}, "narrow": {"acme*reasoner"}}[name]
			require.NoError(t, r.RegisterInfo(reasoning.Info{Name: name, Models: models}, f))
		}
		for id, want := range map[string]string{"Acme/Acme-7B": "broad", "acme/ACME_7B_Reasoner": "narrow", "notacme-7b": ""} {
			got, ok := r.ForModel(id)
			assert.Equal(t, want, got, "order %v, ForModel(%q)", order, id)
			assert.Equal(t, want != "", ok, "order %v, ForModel(%q)", order, id)
		}
	}
}
