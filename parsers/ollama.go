package parsers

import (
	"strings"

	"github.com/reasoning-go/reasoning"
)

// An OllamaName maps one of Ollama's parser names (the "parser" of an
// Ollama model manifest, ollama/ollama model/parsers/parsers.go) to the
// name of ours that splits that model's output. Ollama's names are not
// registered: two of them mean something else here (Ollama's qwen3 never
// thinks, its olmo3 never thinks), and Ollama's own OpenAI endpoint already
// returns reasoning, so a gateway in front of Ollama rarely needs a parser.
// A gateway that reads Ollama manifests and serves their models elsewhere
// looks the name up with FromOllama.
type OllamaName struct {
	Ollama      string // Ollama's parser name, as its manifests spell it
	Name        string // our registered name
	ThinkingOff bool   // the Ollama name never thinks: build Name with WithThinking(false)
	Behaviour   string // what Ollama's parser does, in a few words
}

// ollamaNames is Ollama's parser names at ollama/ollama fb307609
// (../shared/spec/field-names.md §17), and ours for each.
var ollamaNames = []OllamaName{
	{"qwen3", "identity", false, "no thinking"},
	{"qwen3-thinking", "qwen3_thinking", false, "starts in thinking (default on), optional leading `<think>`, `</think>` ends"},
	{"qwen3.5", "qwen3", false, "thinking on when `think` is unset; one leading `<think>` allowed; `<tool_call>` inside thinking ends it"},
	{"ornith", "qwen3", false, "as `qwen3.5`"},
	{"qwen3-vl-thinking", "deepseek_r1", false, "starts in thinking, only `</think>` expected"},
	{"qwen3-vl-instruct", "identity", false, "no thinking"},
	{"qwen3-coder", "identity", false, "no reasoning"},
	{"functiongemma", "identity", false, "no reasoning"},
	{"glm-ocr", "identity", false, "no reasoning"},
	{"cogito", "deepseek_v3", false, "thinking only when `think` is true (default off); `</think>` ends"},
	{"deepseek3", "deepseek_v3", false, "as `cogito`"},
	{"olmo3", "identity", false, "no thinking"},
	{"olmo3-think", "olmo3", false, "always starts in thinking, `</think>` ends"},
	{"nemotron-3-nano", "nemotron_v3", false, "thinking on by default; optional `<think>`; `</think>` or `<tool_call>` ends"},
	{"nemotron-3.5-nano", "nemotron_v3", false, "as `nemotron-3-nano`"},
	{"glm-4.7", "glm47", false, "starts in thinking when `think` is unset or true"},
	{"gemma4", "gemma4", false, "Gemma 4 channels"},
	{"gemma4-no-thinking", "gemma4", true, "Gemma 4 channels, never thinks"},
	{"lfm2", "interns1", false, "as `lfm2-thinking`: the model decides"},
	{"lfm2-thinking", "interns1", false, "thinks only when the output begins with `<think>` (the model decides)"},
	{"laguna", "poolside_v1", false, "thinking off by default; on: starts in thinking, optional leading `<think>`"},
	{"poolside-v1", "poolside_v1", false, "as `laguna`"},
	{"ministral", "mistral", false, "content unless `[THINK]` appears, then `[THINK]`…`[/THINK]`"},
	{"cohere", "cohere_command4", false, "reasoning until `<|END_THINKING|>`, then response blocks unwrapped, `<|START_ACTION|>` tools"},
	{"glimmer", "muse_glimmer", false, "Muse Glimmer recipient channels"},
	{"harmony", "openai_gptoss", false, "gpt-oss Harmony"},
	{"passthrough", "identity", false, "output unchanged"},
}

// OllamaNames returns every Ollama parser name FromOllama knows, in the
// order of the README's table.
func OllamaNames() []OllamaName { return append([]OllamaName(nil), ollamaNames...) }

// FromOllama returns our registered name for the Ollama parser name parser
// (matched ignoring case and surrounding space), and the options that make
// it split as Ollama's does (thinking off for a name that never thinks);
// ok is false for a name it does not know. Build the parser with
// reasoning.New(name, tok, opts...).
func FromOllama(parser string) (name string, opts []reasoning.Option, ok bool) {
	parser = strings.ToLower(strings.TrimSpace(parser))
	for _, o := range ollamaNames {
		if o.Ollama == parser {
			if o.ThinkingOff {
				opts = []reasoning.Option{reasoning.WithThinking(false)}
			}
			return o.Name, opts, true
		}
	}
	return "", nil, false
}
