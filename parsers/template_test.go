package parsers

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// The "hf" parser's cases need a tokenizer that carries the model's
// response_template. These tests port the reasoning-related cases of vLLM's
// tests/parser/test_response_template.py (@4ee83d1) and run each through the
// conformance harness with such a tokenizer: upstream's Gemma 4 vocabulary,
// and templates other than Gemma 4's. The cases on Gemma 4's published
// template are also in ../testdata/cases/hf.json, which the harness runs
// with the catalog's template on its own toy vocabulary.

const templateTests = "vllm tests/parser/test_response_template.py@4ee83d199254bc099473562585cec1e5fe650115"

// The strings of the upstream tests.
const (
	gemmaPrefix = "<|turn>model\n"
	tplThinking = "<|channel>thought\nplan<channel|>"
	gemmaTool   = `<|tool_call>call:set_alarm{hour:7,label:<|"|>morning<|"|>}<tool_call|>`
)

// gemmaVocab is the upstream tests' vocabulary of Gemma 4's special tokens,
// plus <eos>; every other byte is a token of its own.
var gemmaVocab = map[string]int{
	"<eos>": 1, "<|tool_call>": 48, "<tool_call|>": 49, "<|channel>": 50, "<channel|>": 51,
	`<|"|>`: 52, "<|turn>": 53, "<|tool_response>": 54, "<turn|>": 55,
}

// gemmaTemplate returns Gemma 4's response_template, decoded as
// tokenizer_config.json gives it, after edit (which may be nil) changes it.
func gemmaTemplate(t *testing.T, edit func(tmpl map[string]any)) map[string]any {
	t.Helper()
	var tmpl map[string]any
	if err := json.Unmarshal([]byte(gemma4ResponseTemplate), &tmpl); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(tmpl)
	}
	return tmpl
}

// templateField returns field name of a template, to edit.
func templateField(tmpl map[string]any, name string) map[string]any {
	return tmpl["fields"].(map[string]any)[name].(map[string]any)
}

// templateTokenizer returns the Gemma vocabulary carrying tmpl as its
// response_template.
func templateTokenizer(t *testing.T, tmpl any) tokenizer.Tokenizer {
	t.Helper()
	v, err := tokenizer.NewVocab(gemmaVocab)
	if err != nil {
		t.Fatal(err)
	}
	return tokenizer.WithConfig(v, map[string]any{"response_template": tmpl})
}

func TestResponseTemplateErrors(t *testing.T) {
	v, err := tokenizer.NewVocab(gemmaVocab)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		tok  tokenizer.Tokenizer
		want string // in the error
		meta bool   // the error wraps tokenizer.ErrNoConfig
	}{
		{"no tokenizer", nil, `reasoning: parser "hf": needs a tokenizer that carries the model's tokenizer_config.json`, true},
		{"no metadata", v, `reasoning: parser "hf": tokenizer *tokenizer.Vocab carries no model metadata`, true},
		{"no response_template", tokenizer.WithConfig(v, map[string]any{"tokenizer_class": "X"}), `has no "response_template"`, false},
		{"null response_template", tokenizer.WithConfig(v, map[string]any{"response_template": nil}), `has no "response_template"`, false},
		{"not an object", templateTokenizer(t, "<think>"), "response_template: not an object (got a string)", false},
		{"empty fields", templateTokenizer(t, map[string]any{"fields": map[string]any{}, "start_anchor": "x"}), `"fields" must be a non-empty object`, false},
		{"no thinking field", templateTokenizer(t, gemmaTemplate(t, func(m map[string]any) {
			delete(m["fields"].(map[string]any), "thinking")
		})), `no "thinking" field: the reasoning parser needs one`, false},
		{"unsupported field", templateTokenizer(t, gemmaTemplate(t, func(m map[string]any) {
			m["fields"].(map[string]any)["citations"] = map[string]any{"open": "<citation>", "close": "</citation>"}
		})), `unsupported semantic fields: "fields": unknown keys ["citations"]`, false},
		{"unsupported default", templateTokenizer(t, gemmaTemplate(t, func(m map[string]any) {
			m["defaults"].(map[string]any)["name"] = "x"
		})), `unsupported semantic defaults`, false},
		{"json content", templateTokenizer(t, gemmaTemplate(t, func(m map[string]any) {
			templateField(m, "content")["content"] = "json"
		})), `field "content": content json cannot be streamed as text`, false},
		{"thinking transform", templateTokenizer(t, gemmaTemplate(t, func(m map[string]any) {
			templateField(m, "thinking")["transform"] = "{content}"
		})), `field "thinking": "transform" cannot be streamed as text`, false},
		{"thinking pattern", templateTokenizer(t, gemmaTemplate(t, func(m map[string]any) {
			f := templateField(m, "thinking")
			delete(f, "open")
			f["open_pattern"] = `<\|channel>(thought|plan)\n`
		})), `field "thinking": "open_pattern" "<\\|channel>(thought|plan)\\n" is not a plain literal`, false},
		{"thinking without close", templateTokenizer(t, gemmaTemplate(t, func(m map[string]any) {
			delete(templateField(m, "thinking"), "close")
		})), `field "thinking" has no close`, false},
		{"thinking without open", templateTokenizer(t, gemmaTemplate(t, func(m map[string]any) {
			delete(templateField(m, "thinking"), "open")
		})), `field "thinking" has no open`, false},
		{"unknown field key", templateTokenizer(t, gemmaTemplate(t, func(m map[string]any) {
			templateField(m, "thinking")["stop"] = "x"
		})), `field "thinking": unknown keys ["stop"]`, false},
		{"unknown top-level key", templateTokenizer(t, gemmaTemplate(t, func(m map[string]any) {
			m["roles"] = true
		})), `unknown keys ["roles"]`, false},
		{"version", templateTokenizer(t, gemmaTemplate(t, func(m map[string]any) { m["version"] = 2.0 })), "unsupported version 2", false},
		{"no start anchor", templateTokenizer(t, gemmaTemplate(t, func(m map[string]any) { delete(m, "start_anchor") })),
			`no "start_anchor" or "start_anchor_pattern"`, false},
		{"bad anchor pattern", templateTokenizer(t, gemmaTemplate(t, func(m map[string]any) {
			delete(m, "start_anchor")
			m["start_anchor_pattern"] = `(?<=x)y`
		})), `"start_anchor_pattern": unsupported regular expression`, false},
		{"empty literal", templateTokenizer(t, gemmaTemplate(t, func(m map[string]any) {
			templateField(m, "content")["close"] = []any{"<turn|>", ""}
		})), `field "content": "close": an empty string`, false},
		{"delimiters clash", templateTokenizer(t, gemmaTemplate(t, func(m map[string]any) {
			templateField(m, "content")["close"] = "<channel|>"
		})), `delimiters clash: marker: "<channel|>" is inside "<channel|>"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := reasoning.New("hf", tt.tok)
			if err == nil {
				t.Fatal("New succeeded")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q, want it to contain %q", err, tt.want)
			}
			if got := errors.Is(err, tokenizer.ErrNoConfig); got != tt.meta {
				t.Errorf("errors.Is(err, tokenizer.ErrNoConfig) = %v, want %v (error %q)", got, tt.meta, err)
			}
			// Metadata that is there but unusable is the model's problem.
			if got := errors.Is(err, reasoning.ErrUnsupportedConfig); got == tt.meta {
				t.Errorf("errors.Is(err, reasoning.ErrUnsupportedConfig) = %v, want %v (error %q)", got, !tt.meta, err)
			}
		})
	}
	// The alias builds the same parser.
	if _, err := reasoning.New("response_template", templateTokenizer(t, gemmaTemplate(t, nil))); err != nil {
		t.Errorf("New(response_template): %v", err)
	}
}

// templateCase is a conformance case for a template, which may differ from
// Gemma 4's.
type templateCase struct {
	conformance.Case
	edit func(map[string]any) // changes Gemma 4's template; nil: as published
	tmpl map[string]any       // the template, instead of Gemma 4's
}

func promptOf(s string) *string { return &s }

func TestResponseTemplateCases(t *testing.T) {
	upstream := func(name, output string, want reasoning.Message, note string) templateCase {
		return templateCase{Case: conformance.Case{Name: "vllm:response_template/" + name, Source: templateTests, Note: note,
			Options: conformance.Options{Prompt: promptOf(gemmaPrefix)}, Output: output, Want: want}}
	}
	const toolNote = "Upstream's reasoning matches Gemma 4's parser; its tool calls are parsed by the tool parser. This reasoning parser leaves them in content, verbatim, as vLLM's reasoning adapter does with tool parsing off."
	cases := []templateCase{
		// test_gemma4_response_template_matches_registered_parser.
		upstream("gemma4-parity/content", "Hello<turn|>", reasoning.Message{Content: "Hello"}, ""),
		upstream("gemma4-parity/reasoning", tplThinking+"The answer is 42.<turn|>", reasoning.Message{Reasoning: "plan", Content: "The answer is 42."}, ""),
		upstream("gemma4-parity/tool", tplThinking+gemmaTool, reasoning.Message{Reasoning: "plan", Content: gemmaTool}, toolNote),
		upstream("gemma4-parity/content_then_tool", "Let me check."+gemmaTool, reasoning.Message{Content: "Let me check." + gemmaTool}, toolNote),
		upstream("gemma4-parity/multiple_tools", `<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,unit:<|"|>celsius<|"|>}<tool_call|>`+gemmaTool,
			reasoning.Message{Content: `<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,unit:<|"|>celsius<|"|>}<tool_call|>` + gemmaTool}, toolNote),
		upstream("gemma4-parity/nested_arguments", `<|tool_call>call:complex_function{nested:{inner:<|"|>value<|"|>},list:[<|"|>a<|"|>,<|"|>b<|"|>]}<tool_call|>`,
			reasoning.Message{Content: `<|tool_call>call:complex_function{nested:{inner:<|"|>value<|"|>},list:[<|"|>a<|"|>,<|"|>b<|"|>]}<tool_call|>`}, toolNote),
		// test_gemma4_response_template_prompt_state_matches_registered_parser.
		{Case: conformance.Case{Name: "vllm:response_template/prompt-state/prefilled_reasoning", Source: templateTests,
			Options: conformance.Options{Prompt: promptOf(gemmaPrefix + "<|channel>thought\n")},
			Output:  "continued reasoning<channel|>Final answer<turn|>", Want: reasoning.Message{Reasoning: "continued reasoning", Content: "Final answer"}}},
		upstream("prompt-state/direct_answer", "Direct answer without reasoning.<turn|>", reasoning.Message{Content: "Direct answer without reasoning."}, ""),
		// test_streaming_prefill_is_state_only: the prompt's own text is
		// never emitted, only the state it leaves.
		{Case: conformance.Case{Name: "vllm:response_template/prefill/reasoning", Source: templateTests,
			Options: conformance.Options{Prompt: promptOf(gemmaPrefix + "<|channel>thought\nprefill")},
			Output:  " generated<channel|>", Want: reasoning.Message{Reasoning: " generated"}}},
		{Case: conformance.Case{Name: "vllm:response_template/prefill/content", Source: templateTests,
			Options: conformance.Options{Prompt: promptOf(gemmaPrefix + "prefill ")},
			Output:  "generated<turn|>", Want: reasoning.Message{Content: "generated"}}},
		{Case: conformance.Case{Name: "vllm:response_template/prefill/empty_tool_open", Source: templateTests,
			Options: conformance.Options{Prompt: promptOf(gemmaPrefix + "<|tool_call>call:set_alarm")},
			Output:  `{hour:7}<tool_call|><|channel>thought`, Want: reasoning.Message{Content: `{hour:7}<tool_call|><|channel>thought`}}},
		{Case: conformance.Case{Name: "vllm:response_template/prefill/unresolved_partial_delimiter", Source: templateTests,
			Options: conformance.Options{Prompt: promptOf(gemmaPrefix + "<|chan")},
			Output:  "nel", Want: reasoning.Message{Content: "nel"}}},
		{Case: conformance.Case{Name: "diff:vllm:response_template/prefill/completed_partial_delimiter", Source: templateTests,
			Note:    "Upstream joins a delimiter cut by the end of the prompt (\"<|chan\" + \"nel>thought\\n\") and gives reasoning \"reason\". Ours does not: a prompt ends on a token boundary, and a special token is not cut in two.",
			Options: conformance.Options{Prompt: promptOf(gemmaPrefix + "<|chan")},
			Output:  "nel>thought\nreason<channel|>", Want: reasoning.Message{Content: "nel>thought\nreason<channel|>"}}},
		// test_delimited_template_keeps_plain_content_and_tolerates_required_fields.
		{Case: conformance.Case{Name: "vllm:response_template/delimited-template-plain-content", Source: templateTests,
			Options: conformance.Options{Prompt: promptOf("<assistant>")},
			Output:  "<think>plan</think>answer", Want: reasoning.Message{Reasoning: "plan", Content: "answer"}},
			tmpl: map[string]any{"start_anchor": "<assistant>", "fields": map[string]any{
				"thinking":   map[string]any{"open": "<think>", "close": "</think>"},
				"tool_calls": map[string]any{"open": "<call>", "close": "</call>", "content": "json", "optional": false},
			}}},

		// Ours: the regions.
		{Case: conformance.Case{Name: "ours:no-prompt-starts-in-content", Output: "a<|channel>thought\nb<channel|>c",
			Want: reasoning.Message{Reasoning: "b", Content: "ac"}}},
		{Case: conformance.Case{Name: "ours:content-closers-dropped", Output: "a<turn|>b<eos>c<|tool_response>d",
			Want: reasoning.Message{Content: "abcd"}}},
		{Case: conformance.Case{Name: "ours:thinking-is-sealed", Output: "<|channel>thought\nx<turn|>y" + gemmaTool + "<|channel>thought\nz<channel|>after",
			Note: "Inside a thinking region only its close counts (upstream's region parser): content closers, tool calls and a second opener are reasoning text.",
			Want: reasoning.Message{Reasoning: "x<turn|>y" + gemmaTool + "<|channel>thought\nz", Content: "after"}}},
		{Case: conformance.Case{Name: "ours:tool-call-is-verbatim", Output: "<|tool_call>call:f{a:<|channel>thought\nx<channel|><turn|>}<tool_call|>b<turn|>",
			Note: "Inside a tool call only its close counts; the call stays in content, delimiters and all.",
			Want: reasoning.Message{Content: "<|tool_call>call:f{a:<|channel>thought\nx<channel|><turn|>}<tool_call|>b"}}},
		{Case: conformance.Case{Name: "ours:tool-call-truncated", Output: "x<|tool_call>call:f{a:1<turn|>",
			Want: reasoning.Message{Content: "x<|tool_call>call:f{a:1<turn|>"}}},
		{Case: conformance.Case{Name: "ours:blocks-reopen", Output: "<|channel>thought\na<channel|>b<|channel>thought\nc<channel|>d",
			Note: "Every thinking open in content starts a block, as upstream's region parser does whether or not the field repeats.",
			Want: reasoning.Message{Reasoning: "ac", Content: "bd"}}},
		{Case: conformance.Case{Name: "ours:thinking-unclosed", Output: "<|channel>thought\nstill", Want: reasoning.Message{Reasoning: "still"}}},
		{Case: conformance.Case{Name: "ours:stray-thinking-close-is-text", Output: "a<channel|>b", Want: reasoning.Message{Content: "a<channel|>b"}}},
		{Case: conformance.Case{Name: "ours:whitespace-kept", Output: "\n<|channel>thought\n\n plan \n<channel|>\n answer \n", Want: reasoning.Message{Reasoning: "\n plan \n", Content: "\n\n answer \n"}}},
		{Case: conformance.Case{Name: "ours:prompt-anchor-is-the-last", Output: "x<channel|>y",
			Options: conformance.Options{Prompt: promptOf("<|turn>user\n<|channel>thought\nold<channel|><turn|>" + gemmaPrefix + "<|channel>thought\n")},
			Want:    reasoning.Message{Reasoning: "x", Content: "y"}}},
		{Case: conformance.Case{Name: "ours:prompt-without-anchor-read-whole", Output: "x<channel|>y",
			Options: conformance.Options{Prompt: promptOf("<|channel>thought\n")},
			Want:    reasoning.Message{Reasoning: "x", Content: "y"}}},
		{Case: conformance.Case{Name: "ours:tool-response-anchor", Output: "x<|channel>thought\ny",
			Options: conformance.Options{Prompt: promptOf(gemmaPrefix + "<|channel>thought\nplan<channel|>" + gemmaTool + "<|tool_response>sunny<tool_response|>")},
			Want:    reasoning.Message{Reasoning: "y", Content: "x"}}},
		{Case: conformance.Case{Name: "ours:force-reasoning", Output: "x<channel|>y", Options: conformance.Options{ForceReasoning: func() *bool { b := true; return &b }()},
			Want: reasoning.Message{Reasoning: "x", Content: "y"}}},
		{Case: conformance.Case{Name: "ours:thinking-off-does-not-change-the-split", Output: tplThinking + "ok",
			Options: conformance.Options{Kwargs: map[string]any{"enable_thinking": false}},
			Want:    reasoning.Message{Reasoning: "plan", Content: "ok"}}},
		{Case: conformance.Case{Name: "ours:content-open-dropped-text-outside-kept", Output: "pre<|channel>final\nanswer<turn|>post",
			Note: "Upstream's region parser drops text outside every region when the content field has an open; ours keeps it as content.",
			Want: reasoning.Message{Content: "preanswerpost"}},
			edit: func(m map[string]any) { templateField(m, "content")["open_pattern"] = `<\|channel>final\n` }},
		{Case: conformance.Case{Name: "ours:lists-and-patterns", Output: "<r>a</r>b<R>c</R>d[[x]]e<end>",
			Options: conformance.Options{Prompt: promptOf("<|im_start|>assistant\n")},
			Want:    reasoning.Message{Reasoning: "ac", Content: "bd[[x]]e"}},
			tmpl: map[string]any{"start_anchor_pattern": `<\|im_start\|>assistant\n`, "version": 1.0, "fields": map[string]any{
				"thinking":   map[string]any{"open": []any{"<r>", "<R>"}, "close": []any{"</r>", "</R>"}},
				"content":    map[string]any{"close_pattern": `<end>`},
				"tool_calls": map[string]any{"open_pattern": `\[\[\w+`, "close": "]]"},
			}}},
	}

	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			tmpl := c.tmpl
			if tmpl == nil {
				tmpl = gemmaTemplate(t, c.edit)
			}
			conformance.CheckCaseWith(t, "hf", c.Case, templateTokenizer(t, tmpl))
		})
	}
}

// TestResponseTemplateGate ports upstream's three gate tests: whether the
// IDs (here the prompt's, as the serving layer asks) show that reasoning
// has ended.
func TestResponseTemplateGate(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(map[string]any)
		kwargs map[string]any
		ids    string // the text of the IDs asked about
		want   bool
	}{
		{"waits-for-content-region/open-thinking", nil, nil, gemmaPrefix + "<|channel>thought\n", false},
		{"waits-for-content-region/answer", nil, nil, gemmaPrefix + "answer", true},
		{"content-opener-held-by-prompt", func(m map[string]any) { templateField(m, "content")["open_pattern"] = `<\|channel>final\n` },
			nil, gemmaPrefix + "<|channel>final\n", true},
		{"disabled-thinking", nil, map[string]any{"enable_thinking": false}, gemmaPrefix, true},
		{"enabled-thinking-nothing-yet", nil, nil, gemmaPrefix, false},
		{"repeated-thinking/open", func(m map[string]any) { templateField(m, "thinking")["repeats"] = true }, nil, gemmaPrefix + "<|channel>thought\n", false},
		{"repeated-thinking/answer", func(m map[string]any) { templateField(m, "thinking")["repeats"] = true }, nil, gemmaPrefix + "answer", false},
		// Ours.
		{"closed-thinking", nil, nil, gemmaPrefix + tplThinking, true},
		{"inside-tool-call", nil, nil, gemmaPrefix + "<|tool_call>call:f{", true},
		{"partial-delimiter-decides-nothing", nil, nil, gemmaPrefix + "<|chan", false},
		{"reopened-thinking", nil, nil, gemmaPrefix + tplThinking + "x<|channel>thought\n", false},
		{"earlier-turn-ignored", nil, nil, gemmaPrefix + tplThinking + "done<turn|><|turn>user\nhi<turn|>" + gemmaPrefix + "<|channel>thought\n", false},
	}
	for _, tt := range tests {
		t.Run("vllm-and-ours/"+tt.name, func(t *testing.T) {
			tok := templateTokenizer(t, gemmaTemplate(t, tt.edit))
			p, err := reasoning.New("hf", tok, reasoning.WithChatTemplateKwargs(tt.kwargs))
			if err != nil {
				t.Fatal(err)
			}
			ids := tok.Encode(tt.ids)
			if got := p.IsReasoningEnd(ids); got != tt.want {
				t.Errorf("IsReasoningEnd(%q) = %v, want %v", tt.ids, got, tt.want)
			}
			if got := p.IsReasoningEndStreaming(ids, ids[len(ids)-1:]); got != tt.want {
				t.Errorf("IsReasoningEndStreaming(%q) = %v, want %v", tt.ids, got, tt.want)
			}
		})
	}
}

// TestResponseTemplateIDs checks the ID methods on output IDs, with the
// prompt given to New.
func TestResponseTemplateIDs(t *testing.T) {
	tok := templateTokenizer(t, gemmaTemplate(t, nil))
	tests := []struct {
		name      string
		prompt    string
		output    string
		end       bool
		content   string // decoded ExtractContentIDs; "-" for nil
		reasoning int    // CountReasoningTokens
	}{
		{"prefilled-thinking-open", gemmaPrefix + "<|channel>thought\n", "abc", false, "-", 3},
		{"prefilled-thinking-closed", gemmaPrefix + "<|channel>thought\n", "ab<channel|>cd<turn|>", true, "cd", 2},
		{"thinking-then-tool", gemmaPrefix, tplThinking + gemmaTool, true, gemmaTool, 4},
		{"content-only", gemmaPrefix, "hi<turn|>", true, "hi", 0},
		{"nothing-yet", gemmaPrefix, "", false, "-", 0},
		{"content-after-last-block", gemmaPrefix, "a" + tplThinking + "b" + tplThinking + "c", true, "c", 8},
		{"anchor-in-ids", "", gemmaPrefix + "<|channel>thought\nx<channel|>y", true, "y", 1},
		{"anchor-again", "", gemmaPrefix + "x<turn|>" + gemmaPrefix + "<|channel>thought\nz", false, "-", 2},
		{"anchor-tool-response", gemmaPrefix, "<|channel>thought\nx" + "<tool_response|>y", true, "y", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := reasoning.New("hf", tok, reasoning.WithPrompt(tt.prompt, tok.Encode(tt.prompt)))
			if err != nil {
				t.Fatal(err)
			}
			ids := tok.Encode(tt.output)
			if got := p.IsReasoningEnd(ids); got != tt.end {
				t.Errorf("IsReasoningEnd = %v, want %v", got, tt.end)
			}
			got := p.ExtractContentIDs(ids)
			if tt.content == "-" {
				if got != nil {
					t.Errorf("ExtractContentIDs = %q, want nil", tok.Decode(got))
				}
			} else if got == nil || tok.Decode(got) != tt.content {
				t.Errorf("ExtractContentIDs = %q (nil %v), want %q", tok.Decode(got), got == nil, tt.content)
			}
			// The streaming check keeps its place; it must answer as
			// IsReasoningEnd does at every length.
			q, err := reasoning.New("hf", tok, reasoning.WithPrompt(tt.prompt, tok.Encode(tt.prompt)))
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i <= len(ids); i++ {
				if got, want := q.IsReasoningEndStreaming(ids[:i], ids[i-1:i]), p.IsReasoningEnd(ids[:i]); got != want {
					t.Errorf("IsReasoningEndStreaming after %d tokens = %v, IsReasoningEnd = %v", i, got, want)
				}
			}
			if !strings.HasPrefix(tt.name, "anchor-") { // the count reads output IDs, from where the response starts
				if n := p.CountReasoningTokens(ids); n != tt.reasoning {
					t.Errorf("CountReasoningTokens = %d, want %d", n, tt.reasoning)
				}
			}
		})
	}
}

// TestResponseTemplateStreamingAnchors checks the streaming end check
// against IsReasoningEnd at every length where the start anchors are a
// pattern, or literals whose occurrences overlap ("<ab" and "b>" in
// "<ab>"), so that the last anchor is not the last one a scan from the
// left finds: the response starts after the one that ends last.
func TestResponseTemplateStreamingAnchors(t *testing.T) {
	for _, edit := range []func(map[string]any){
		func(tmpl map[string]any) { tmpl["start_anchor"] = []any{"<ab", "b>"} },
		func(tmpl map[string]any) { tmpl["start_anchor"] = []any{"<ab", "<abb>"} },
		func(tmpl map[string]any) {
			delete(tmpl, "start_anchor")
			tmpl["start_anchor_pattern"] = "<a+b>"
		},
	} {
		tmpl := gemmaTemplate(t, edit)
		tok := templateTokenizer(t, tmpl)
		for _, out := range []string{
			"<|channel>thought\nx<ab>y",
			"<|channel>thought\nx<ab<|channel>thought\ny<abb>z<channel|>",
			"a<abb>" + tplThinking + "<aab>",
		} {
			p, err := reasoning.New("hf", tok)
			if err != nil {
				t.Fatal(err)
			}
			q, _ := reasoning.New("hf", tok)
			ids := tok.Encode(out)
			for i := 1; i <= len(ids); i++ {
				if got, want := q.IsReasoningEndStreaming(ids[:i], ids[i-1:i]), p.IsReasoningEnd(ids[:i]); got != want {
					t.Errorf("anchors %v, output %q: IsReasoningEndStreaming after %q = %v, IsReasoningEnd = %v", tmpl["start_anchor"], out, tok.Decode(ids[:i]), got, want)
				}
			}
		}
	}
}

// TestResponseTemplateLoad builds "hf" from a model folder whose
// tokenizer_config.json carries the template, as tokenizer.Load reads it.
func TestResponseTemplateLoad(t *testing.T) {
	dir := t.TempDir()
	hfJSON := `{"added_tokens": [{"id": 3, "content": "<think>", "special": true}, {"id": 4, "content": "</think>", "special": true}],
	 "normalizer": null, "pre_tokenizer": null, "decoder": null,
	 "model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": ["a b"]}}`
	meta := `{"tokenizer_class": "X", "response_template": {"start_anchor": "<assistant>",
	 "fields": {"thinking": {"open": "<think>", "close": "</think>"}}}}`
	for name, data := range map[string]string{"tokenizer.json": hfJSON, "tokenizer_config.json": meta} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tok, err := tokenizer.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := reasoning.New("hf", tok)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(reasoning.Message{Reasoning: "ab", Content: "ba"}, p.Extract("<think>ab</think>ba")); diff != "" {
		t.Errorf("Extract mismatch (-want +got):\n%s", diff)
	}
	if ids := tok.Encode("<think>ab</think>"); !p.IsReasoningEnd(ids) || p.IsReasoningEnd(ids[:2]) {
		t.Errorf("IsReasoningEnd(%v) wrong", ids)
	}
}
