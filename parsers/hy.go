package parsers

import (
	"reflect"
	"strings"
	"sync"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Hy V3 and V4 write <think> and </think> with a suffix that a checkpoint's
// structural tokens carry (such as ":6124c78e"), or none. hySuffixNames are
// those tokens' names, as vLLM's detect_token_suffix knows them.
const hySuffixNames = "think tool_calls tool_call arg_key arg_value"

func hyThinkSpec(name, suffix string, thinkingDefault bool) ThinkTag {
	s := ThinkTag{
		Name:     name,
		Open:     []string{"<think" + suffix + ">"},
		Close:    []string{"</think" + suffix + ">"},
		Thinking: Switch{Keys: []string{"reasoning_effort"}, decide: hyThinking(thinkingDefault)},
	}
	if name == "hy_v3" { // vLLM main's HYV3ReasoningParser is R1-style (spec vllm-main §1.1)
		s.rules = []rule{dropLeadSpace()}
	}
	return s
}

// hyThinking is the Hy V3 and V4 thinking switch:
// chat_template_kwargs["reasoning_effort"]; "no_think" turns thinking off,
// any other value on, and none (or "") gives the default.
func hyThinking(def bool) func(reasoning.Config) bool {
	return func(c reasoning.Config) bool {
		v, ok := c.Kwarg("reasoning_effort")
		if !ok {
			return def
		}
		s, isString := v.(string)
		if !isString {
			return true
		}
		switch s = strings.TrimSpace(s); {
		case s == "":
			return def
		case strings.EqualFold(s, "no_think"):
			return false
		}
		return true
	}
}

var (
	hyV3Family = newTagFamily(hyThinkSpec("hy_v3", "", false))
	hyV4Family = newTagFamily(hyThinkSpec("hy_v4", "", true))
)

// newHYV3 builds the "hy_v3" parser (vLLM HYV3ReasoningParser, Hunyuan 3).
//
// Markers: <think{suffix}> and </think{suffix}>, where the suffix is the
// token_suffix of the tokenizer's metadata (tokenizer_config.json, as
// tokenizer.Load reads it; ":6124c78e" gives <think:6124c78e>), or none
// without it. Neither need be a single token.
// Starts in: reasoning (the template puts <think> in the prompt). The first
// <think> is dropped wherever it comes; text before it is reasoning, but
// whitespace alone before it is dropped (as deepseek_r1). A prompt
// that closed the block (WithPrompt) starts the response in content.
// Thinking switch: chat_template_kwargs["reasoning_effort"], default
// "no_think": thinking off, the whole output is content, untouched, and the
// end check is always true. Any other effort ("low", "high") turns it on.
// Truncation: an output that never closes reasoning is all reasoning.
// Repeats: after the first </think> everything is content, verbatim; a second
// <think> inside reasoning is reasoning text.
// Streaming: holds back fewer bytes than the closing marker while they may
// start it; Finish returns them to the section they belong to.
// Upstream: spec vllm-channels-and-state §6, tests/reasoning/
// test_hy_v3_reasoning_parser.py, and spec vllm-main §1.1 for the text
// before <think>. vLLM reads token_suffix from the
// tokenizer's init kwargs, which come from the same file. It also reads a
// top-level reasoning_effort; pass it in the kwargs. vLLM fails at New
// unless both markers are single tokens; we accept any spelling (DESIGN:
// multi-token delimiters work).
// vLLM's extract drops text before <think>, and its streaming path leaks
// the <think> of a delta that carries more than the marker into reasoning
// (§15.5 #6); ours drop the marker and keep the text in both. vLLM counts
// reasoning tokens by marker depth, so a block opened in the prompt counts
// 0; ours counts the tokens whose text falls in reasoning. The end check is
// vLLM's: the last marker decides, none means not ended.
func newHYV3(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	f := hyV3Family
	if s, _ := tokenizer.ConfigOf(tok)["token_suffix"].(string); s != "" {
		f = newTagFamily(hyThinkSpec("hy_v3", s, false))
	}
	return f.newParser(tok, cfg)
}

func init() {
	register("hy_v3", newHYV3, hyV3Family.entry(), about{engine: vllm, models: []string{"hy3"},
		summary: "`<think{suffix}>`…`</think{suffix}>`, suffix from tokenizer_config `token_suffix`; `reasoning_effort` (default \"no_think\" → identity)"})
}

// newHYV4 builds the "hy_v4" parser (vLLM HYV4ReasoningParser, Hunyuan 4).
//
// Markers: <think{suffix}> and </think{suffix}>, where the suffix is that of
// the vocabulary's structural tokens (<think:6124c78e>, <tool_calls:…>), or
// none: when <think> is one token, without a tokenizer, or when the
// tokenizer cannot list its vocabulary. Neither need be a single token.
// Starts in, truncation, repeats, streaming: as hy_v3.
// Thinking switch: chat_template_kwargs["reasoning_effort"], default "high"
// (the chat template's own default): thinking on; "no_think" turns it off,
// and the parser is the identity.
// End check: as vLLM's, the last marker decides, so a stray <think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: spec vllm-channels-and-state §7, tests/reasoning/
// test_hy_v4_reasoning_parser.py. The three cases that test demands of a
// delta carrying <think> with more text, or its ID without its text, hold
// here: the split follows the text, so a <think> whose text the detokenizer
// skipped leaves nothing to strip. vLLM counts reasoning tokens up to the
// first </think>, skipping a leading <think>; ours counts the tokens whose
// text falls in reasoning, which is the same for one block. vLLM fails at
// New in thinking mode unless both markers are single tokens; we accept any
// spelling.
func newHYV4(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	f := hyV4Family
	if s := hySuffix(tok); s != "" {
		f = newTagFamily(hyThinkSpec("hy_v4", s, true))
	}
	return f.newParser(tok, cfg)
}

func init() {
	register("hy_v4", newHYV4, hyV4Family.entry(), about{engine: vllm, models: []string{"hy4"},
		summary: "as `hy_v3`, suffix from the vocabulary's structural tokens; `reasoning_effort` (default \"high\"; \"no_think\" → identity)"})
}

// hySuffixes remembers, by tokenizer, the suffix hySuffix found: finding
// it reads the whole vocabulary. Tokenizers are immutable, so the answer
// never changes. Only pointers are kept, since any pointer can be a key.
var hySuffixes sync.Map

// hySuffix returns the suffix of the vocabulary's structural tokens, with
// its colon: the first entry, by ID, that reads <name:suffix>, where name is
// think, tool_calls, tool_call, arg_key or arg_value, as vLLM's
// detect_token_suffix looks for. It is "" without a tokenizer, when <think>
// itself is one token, and when the tokenizer cannot tell its vocabulary
// size (the tokenizer package's HF and Tiktoken can). The scan, some tens
// of milliseconds for a real vocabulary, runs once per tokenizer when the
// tokenizer is a pointer, as those are; once per parser otherwise.
func hySuffix(tok tokenizer.Tokenizer) string {
	if tok == nil {
		return ""
	}
	if _, ok := tok.TokenID(thinkOpen); ok {
		return ""
	}
	sized, ok := tok.(interface{ VocabSize() int })
	if !ok {
		return ""
	}
	cache := reflect.TypeOf(tok).Kind() == reflect.Pointer
	if cache {
		if s, ok := hySuffixes.Load(tok); ok {
			return s.(string)
		}
	}
	suffix := ""
	for id := range sized.VocabSize() {
		if s, ok := structuralSuffix(tok.Decode([]int{id})); ok {
			suffix = s
			break
		}
	}
	if cache {
		hySuffixes.Store(tok, suffix)
	}
	return suffix
}

// structuralSuffix reports whether token reads <name> or <name:suffix> with
// name one of Hunyuan's structural names, and returns ":suffix" or "".
func structuralSuffix(token string) (string, bool) {
	body, ok := strings.CutPrefix(token, "<")
	if !ok {
		return "", false
	}
	if body, ok = strings.CutSuffix(body, ">"); !ok {
		return "", false
	}
	name, rest, colon := strings.Cut(body, ":")
	if !strings.Contains(" "+hySuffixNames+" ", " "+name+" ") || name == "" {
		return "", false
	}
	if !colon {
		return "", true
	}
	if rest == "" || strings.ContainsAny(rest, " \t\r\n\v\f>") {
		return "", false
	}
	return ":" + rest, true
}
