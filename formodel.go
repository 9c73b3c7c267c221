package reasoning

import "strings"

// ForModel returns the name of the parser for a model, given its Hugging
// Face ID ("Qwen/Qwen3-8B") or the name a server serves it under
// ("qwen3:8b", "deepseek-r1-distill-qwen-7b"). ok is false for a model the
// table does not know; a gateway then leaves the model's output untouched.
//
// The lookup is a table of patterns tried in order, most specific first, so
// that "Qwen3-8B" finds qwen3, "Qwen3-30B-A3B-Thinking-2507" finds
// qwen3_thinking, "Qwen3-30B-A3B-Instruct-2507" (which never thinks) finds
// identity, and "DeepSeek-R1-0528-Qwen3-8B" finds deepseek_r1. Matching
// ignores case and treats '_' and ' ' as '-'; a pattern matches anywhere in
// the ID but only from the start of a word, and its '*' stands for any
// run of characters. Where engines disagree on the parser for a model,
// vLLM's choice wins, as it does for names (GLM-4.7 is glm45, Kimi K2.5 is
// kimi_k2).
//
// The table reaches every registered family except the names that are an
// engine's alternative for models another name already covers: basic,
// beam, glm47, hf, kimi_k25, minimax_append_think and
// minimax_m2_append_think, which a caller picks by name.
//
// ForModel only reads its table: the name it returns still has to be
// registered (import package parsers) before New can build it.
func ForModel(modelID string) (name string, ok bool) {
	id := normalizeModelID(modelID)
	if id == "" {
		return "", false
	}
	for _, e := range modelTable {
		if matchModel(id, e.pattern) {
			return e.name, true
		}
	}
	return "", false
}

// A modelEntry maps a pattern of model IDs to a parser name.
type modelEntry struct {
	pattern string // normalised (lower case, '-' for '_'), '*' for any run
	name    string // canonical parser name
}

// modelTable is ForModel's table, most specific pattern first. Group order
// matters where IDs nest: DeepSeek's R1 distills and Qwen3 checkpoints
// contain "qwen", Kimi K2's Instruct must not read as Thinking.
var modelTable = []modelEntry{
	// DeepSeek. The R1 distills (and R1-0528-Qwen3-8B) come before Qwen.
	{"deepseek-r1", "deepseek_r1"},
	{"deepseek-v4.1", "deepseek_v41"},
	{"deepseek-v41", "deepseek_v41"},
	{"deepseek-v4", "deepseek_v4"},
	{"deepseekv4", "deepseek_v4"},
	{"deepseek-v3", "deepseek_v3"}, // V3.1, V3.2; V3 itself: thinking off
	{"qwq", "deepseek_r1"},

	// Qwen3: Thinking checkpoints always think, Instruct and Coder never do.
	{"qwen3*thinking", "qwen3_thinking"},
	{"qwen3*instruct", "identity"},
	{"qwen3-coder", "identity"},
	{"qwen3", "qwen3"}, // also Qwen3.5, Qwen3.6

	// Kimi. K2 Instruct is a non-thinking model; K2.5 is vLLM's kimi_k2.
	{"kimi-k3", "kimi_k3"},
	{"kimi-k2-instruct", "identity"},
	{"kimi-k2", "kimi_k2"},
	{"kimi-vl*thinking", "kimi"},
	{"k2-horizon", "k2_horizon"},

	// GLM: one parser class from GLM-4.5 to GLM-5.x.
	{"glm-4.1v*thinking", "glm45"},
	{"glm-4.5", "glm45"},
	{"glm-4.6", "glm45"},
	{"glm-4.7", "glm45"},
	{"glm-5", "glm45"},
	{"ling-3", "ling3"},

	// MiniMax.
	{"minimax-m3", "minimax_m3"},
	{"minimax-m2", "minimax_m2"},

	// gpt-oss and the channel formats.
	{"gpt-oss", "openai_gptoss"},
	{"gemma-4", "gemma4"},
	{"gemma4", "gemma4"},
	{"muse-glimmer", "muse_glimmer"},
	{"muse-spark", "muse_spark"},
	{"inkling", "inkling"},

	// IBM Granite: 3.2 and 3.3 think in phrases, 4.2 in <think> tags.
	{"granite-4.2", "granite_thinking_parser"},
	{"granite4.2", "granite_thinking_parser"},
	{"granite-3.2", "granite"},
	{"granite-3.3", "granite"},
	{"granite3.2", "granite"},
	{"granite3.3", "granite"},

	// Tencent Hunyuan.
	{"hunyuan", "hunyuan_a13b"}, // and the dense 0.5B-7B, same format
	{"hy3", "hy_v3"},
	{"hy4", "hy_v4"},

	// NVIDIA Nemotron: Nemotron 3, the Nano 2 hybrids (R1 style), and the
	// Llama-based v1 models that open <think> themselves.
	{"nemotron-3", "nemotron_v3"},
	{"nemotron3", "nemotron_v3"},
	{"nemotron-nano*v2", "deepseek_r1"},
	{"llama*nemotron", "nemotron_deci"},

	// Mistral: Magistral and the Ministral 3 reasoning checkpoints.
	{"magistral", "mistral"},
	{"ministral*reasoning", "mistral"},

	// Cohere Command A.
	{"command-a-reasoning", "cohere_command3"},
	{"command-a-plus", "cohere_command4"},

	// The rest, one family each.
	{"ernie-4.5*thinking", "ernie45"},
	{"ernie-4.5-vl", "ernie45"},
	{"seed-oss", "seed_oss"},
	{"step-3.5", "step3p5"},
	{"step3.5", "step3p5"},
	{"step3p5", "step3p5"},
	{"step3", "step3"},
	{"olmo-3*think", "olmo3"},
	{"olmo3*think", "olmo3"},
	{"mimo", "mimo"},
	{"minicpm-v", "minicpmv"},
	{"intern-s1", "interns1"},
	{"holo2", "holo2"},
	{"laguna", "poolside_v1"},
	{"plamo-3", "plamo3"},
	{"phi-4*reasoning", "deepseek_r1"},
	{"phi4*reasoning", "deepseek_r1"},
}

// normalizeModelID folds case and spells '_' and ' ' as '-'.
func normalizeModelID(id string) string {
	id = strings.ToLower(strings.TrimSpace(id))
	return strings.Map(func(r rune) rune {
		if r == '_' || r == ' ' {
			return '-'
		}
		return r
	}, id)
}

// matchModel reports whether pattern occurs in id starting at a word
// boundary, its '*' matching any run of characters.
func matchModel(id, pattern string) bool {
	first, rest, _ := strings.Cut(pattern, "*")
	for from := 0; ; {
		i := strings.Index(id[from:], first)
		if i < 0 {
			return false
		}
		i += from
		if i == 0 || !isWordByte(id[i-1]) {
			if matchRest(id[i+len(first):], rest) {
				return true
			}
		}
		from = i + 1
	}
}

// matchRest matches the '*'-separated pieces of rest, in order, anywhere
// in s.
func matchRest(s, rest string) bool {
	for rest != "" {
		var piece string
		piece, rest, _ = strings.Cut(rest, "*")
		i := strings.Index(s, piece)
		if i < 0 {
			return false
		}
		s = s[i+len(piece):]
	}
	return true
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 0x80
}
