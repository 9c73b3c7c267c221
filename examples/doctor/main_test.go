package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/testvocab"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// shortSkip is why -short (make test's -race run) skips a test: it sweeps
// many inputs on one goroutine, where the race detector can find nothing,
// and the plain go test run has it.
const shortSkip = "a sweep on one goroutine: the plain go test run has it"

// The tests run the doctor with a real vocabulary many times: load each
// folder once.
func init() {
	load := loadVocab
	var mu sync.Mutex
	loaded := map[string]tokenizer.Tokenizer{}
	loadVocab = func(dir string) (tokenizer.Tokenizer, error) {
		mu.Lock()
		defer mu.Unlock()
		if tok, ok := loaded[dir]; ok {
			return tok, nil
		}
		tok, err := load(dir)
		if err == nil {
			loaded[dir] = tok
		}
		return tok, err
	}
}

// doctor runs the command and returns its findings, read back from -json,
// and its text report.
func doctor(t *testing.T, args ...string) ([]finding, string) {
	t.Helper()
	var out bytes.Buffer
	err := run(append(slices.Clone(args), "-json"), nil, &out)
	if err != nil && !errors.Is(err, errFound) {
		t.Fatalf("doctor %q: %v", args, err)
	}
	var fs []finding
	require.NoError(t, json.Unmarshal(out.Bytes(), &fs), out.String())
	assert.Equal(t, len(fs) > 0, errors.Is(err, errFound), "run returns errFound exactly when it reports findings")

	var text bytes.Buffer
	textErr := run(args, nil, &text)
	assert.Equal(t, err, textErr)
	return fs, text.String()
}

func names(fs []finding) []string {
	var ns []string
	for _, f := range fs {
		ns = append(ns, f.Check)
	}
	return ns
}

// td names a file of a captured example.
func td(example, file string) string { return filepath.Join("testdata", example, file) }

// capturedCase runs the doctor on a captured example and expects the named
// checks, in report order, with the given fragments somewhere in their
// blocks. No checks means silence: no output at all.
type capturedCase struct {
	name string
	args []string
	want []string // check names
	has  []string // fragments of the report
}

func runCases(t *testing.T, cases []capturedCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			fs, text := doctor(t, tt.args...)
			assert.Equal(t, tt.want, names(fs), text)
			if len(tt.want) == 0 {
				assert.Empty(t, text, "a healthy capture prints nothing")
			}
			for _, h := range tt.has {
				assert.Contains(t, text, h)
			}
			for _, f := range fs {
				assert.NotEmpty(t, f.What, f.Check)
				assert.NotEmpty(t, f.Evidence, f.Check)
				assert.NotEmpty(t, f.Fix, f.Check)
			}
		})
	}
}

// TestHealthy: captures of deployments that work say nothing.
func TestHealthy(t *testing.T) {
	runCases(t, []capturedCase{
		{name: "qwen3 thinking, vLLM",
			args: []string{"-parser", "qwen3", "-prompt", td("healthy-qwen3", "prompt.txt"), "-request", td("healthy-qwen3", "request.json"),
				"-response", td("healthy-qwen3", "response.json"), "-client-field", "reasoning_content"}},
		{name: "qwen3 thinking off, streamed",
			args: []string{"-parser", "qwen3", "-prompt", td("healthy-thinking-off", "prompt.txt"), "-request", td("healthy-thinking-off", "request.json"),
				"-response", td("healthy-thinking-off", "response.sse"), "-client-field", "reasoning"}},
		{name: "qwen3 tool call after reasoning",
			args: []string{"-parser", "qwen3", "-response", td("healthy-tool-call", "response.json")}},
		{name: "a prompt that leaves the block to the model",
			args: []string{"-parser", "qwen3", "-prompt", td("healthy-qwen3", "prompt.txt")}},
		{name: "a family with a thinking switch, told it is off",
			args: []string{"-parser", "qwen3", "-thinking=false", "-prompt", td("healthy-thinking-off", "prompt.txt")}},
		{name: "nothing but the name",
			args: []string{"-parser", "deepseek-r1"}},
	})
}

// TestStartInPrompt: the template put <think> in the prompt and the server's
// parser looked for it in the output (sgl-project/sglang#35148).
func TestStartInPrompt(t *testing.T) {
	files := []string{"-prompt", td("start-in-prompt", "prompt.txt"), "-request", td("start-in-prompt", "request.json"),
		"-response", td("start-in-prompt", "response.json")}
	runCases(t, []capturedCase{
		{name: "qwen3: another engine's parser",
			args: append([]string{"-parser", "qwen3"}, files...),
			want: []string{"start-in-prompt"},
			has: []string{
				`choices[0].message.content holds "</think>" at byte 308`,
				`ends in …"|im_end|>\n<|im_start|>assistant\n<think>\n"`,
				"this library's qwen3 starts in reasoning and splits this content into 308 bytes of reasoning",
				"sgl-project/sglang#35148",
			}},
		{name: "basic: a family that starts in content",
			args: append([]string{"-parser", "basic"}, files...),
			want: []string{"start-in-prompt"},
			has: []string{
				`reasoning.WithPrompt(prompt, promptIDs)`,
				`reasoning.WithForceReasoning(true)`,
				"use a parser that starts in reasoning: deepseek_r1,",
			}},
		{name: "interns1: predicted from the prompt alone",
			args: []string{"-parser", "interns1", "-prompt", td("start-in-prompt", "prompt.txt")},
			want: []string{"start-in-prompt"},
			has: []string{
				"built as the server builds it",
				"use a parser that starts in reasoning: qwen3,",
			}},
	})
}

// TestThinkingOff: thinking was disabled (or skipped) and the parser read
// the tagless answer as reasoning (sgl-project/sglang#9457, #37645).
func TestThinkingOff(t *testing.T) {
	runCases(t, []capturedCase{
		{name: "DeepSeek V3.1 with thinking false under deepseek-r1",
			args: []string{"-parser", "deepseek-r1", "-prompt", td("thinking-off", "prompt.txt"), "-request", td("thinking-off", "request.json"),
				"-response", td("thinking-off", "response.json")},
			want: []string{"thinking-off"},
			has: []string{
				"the request sets chat_template_kwargs.thinking to false",
				`<｜Assistant｜></think>": the chat template closed reasoning`,
				"choices[0].message.reasoning_content holds the whole output (150 bytes",
				"deepseek_r1 has no thinking switch",
				`reasoning.New("deepseek-r1", tok, reasoning.WithPrompt(prompt, promptIDs))`,
				"or use a parser with a thinking switch: deepseek_v3,",
			}},
		{name: "a switch the family does not read",
			args: []string{"-parser", "qwen3", "-request", td("thinking-off", "request.json"), "-response", td("thinking-off", "response.json")},
			want: []string{"thinking-off"},
			has: []string{
				"the request sets chat_template_kwargs.thinking to false",
				"tell the parser thinking is off: qwen3 reads chat_template_kwargs.enable_thinking; send enable_thinking: false",
			}},
		{name: "predicted from -thinking=false",
			args: []string{"-parser", "deepseek_r1", "-thinking=false"},
			want: []string{"thinking-off"},
			has:  []string{`puts a tagless answer such as "The answer is 4." in reasoning`}},
		{name: "GLM-4.5 skipped thinking and stopped",
			args: []string{"-parser", "glm45", "-response", td("skipped-thinking", "response.json")},
			want: []string{"thinking-off"},
			has: []string{
				"sgl-project/sglang#37645",
				"if thinking was off, tell the parser: glm45 reads chat_template_kwargs.enable_thinking",
				"skip_special_tokens: false",
				"reasoning.WithNonEmptyContent(true)",
			}},
	})
}

// TestClientField: the client reads one name of the reasoning field and the
// server writes the other.
func TestClientField(t *testing.T) {
	runCases(t, []capturedCase{
		{name: "server writes reasoning",
			args: []string{"-parser", "qwen3", "-response", td("client-field", "response.json"), "-client-field", "reasoning_content"},
			want: []string{"client-field"},
			has: []string{
				"the client reads reasoning_content but the server writes reasoning",
				"choices[0].message.reasoning holds 77 bytes",
				"choices[0].message.reasoning_content is absent",
			}},
		{name: "server writes reasoning_content",
			args: []string{"-parser", "qwen3", "-response", td("healthy-qwen3", "response.json"), "-client-field", "reasoning"},
			want: []string{"client-field"},
			has:  []string{"the client reads reasoning but the server writes reasoning_content"}},
		{name: "client reads what the server writes",
			args: []string{"-parser", "qwen3", "-response", td("client-field", "response.json"), "-client-field", "reasoning"}},
		{name: "null in every chunk of a stream",
			args: []string{"-parser", "qwen3", "-response", td("missed-end", "response.sse"), "-client-field", "reasoning"},
			want: []string{"client-field", "missed-end"},
			has:  []string{"choices[0].delta.reasoning (joined over the stream) is absent"}},
	})
}

// TestMultiTokenDelimiter uses the real vocabularies: DeepSeek-V3's has no
// <think> entry, Qwen3's has both markers as single tokens.
func TestMultiTokenDelimiter(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	deepseek := testvocab.Path(t, "deepseek-v3")
	qwen := testvocab.Path(t, "qwen3")
	runCases(t, []capturedCase{
		{name: "deepseek_r1 with DeepSeek-V3's tokenizer",
			args: []string{"-parser", "deepseek_r1", "-vocab", deepseek},
			want: []string{"multi-token-delimiter"},
			has: []string{
				`"</think>" is 3 tokens [1718 37947 32] ("</" "think" ">")`,
				"vLLM's DeepSeekR1ReasoningParser looks these up as single vocabulary entries",
				"could not locate think start/end tokens in the tokenizer!",
				"this library's deepseek_r1 accepts multi-token markers",
				`a multi-token "</think>" ends reasoning only when its last token arrives`,
			}},
		{name: "deepseek_v3 needs them only with thinking on",
			args: []string{"-parser", "deepseek_v3", "-vocab", deepseek}},
		{name: "deepseek_v3 with thinking on",
			args: []string{"-parser", "deepseek_v3", "-thinking", "-vocab", deepseek},
			want: []string{"multi-token-delimiter"},
			has:  []string{"DeepSeekV3ReasoningParser, with thinking on,"}},
		{name: "deepseek_r1 with a tokenizer that has the markers",
			args: []string{"-parser", "deepseek_r1", "-vocab", qwen}},
		{name: "qwen3 matches text",
			args: []string{"-parser", "qwen3", "-vocab", deepseek}},
		{name: "poolside_v1 fails here too",
			args: []string{"-parser", "poolside_v1", "-vocab", qwen},
			want: []string{"multi-token-delimiter"},
			has: []string{
				`this library's reasoning.New fails with this vocabulary: reasoning: parser "poolside_v1": delimiter "<assistant>"`,
				`"<assistant>" is 3 tokens`,
			}},
		{name: "healthy qwen3 with its own vocabulary",
			args: []string{"-parser", "qwen3", "-vocab", qwen, "-prompt", td("healthy-qwen3", "prompt.txt"),
				"-response", td("healthy-qwen3", "response.json")}},
	})
}

// TestTruncated: finish_reason length with no end marker.
func TestTruncated(t *testing.T) {
	runCases(t, []capturedCase{
		{name: "qwen3 ran out of tokens while reasoning",
			args: []string{"-parser", "qwen3", "-request", td("truncated", "request.json"), "-response", td("truncated", "response.json")},
			want: []string{"truncated"},
			has: []string{
				`finish_reason is "length"`,
				`ending …"e it up carefully, making sure to handle", with no "</think>"`,
				"usage.completion_tokens is 512; the request's max_tokens is 512",
				"raise max_tokens",
				"reasoning.WithThinkingBudget(n, nil)",
			}},
		{name: "with an unknown parser name the response checks still run",
			args: []string{"-parser", "qwen-3", "-response", td("truncated", "response.json")},
			want: []string{"unknown-parser", "truncated"}},
	})
}

// TestToolCallInReasoning: a tool call the model wrote before closing
// reasoning (ollama/ollama PR #14477).
func TestToolCallInReasoning(t *testing.T) {
	runCases(t, []capturedCase{
		{name: "qwen3: this library ends reasoning at <tool_call>",
			args: []string{"-parser", "qwen3", "-response", td("tool-in-reasoning", "response.json"), "-client-field", "reasoning"},
			want: []string{"tool-call-in-reasoning"},
			has: []string{
				`choices[0].message.reasoning holds "<tool_call>" at byte 125`,
				"no tool_calls in choice 0",
				"this library's qwen3 ends reasoning at \"<tool_call>\" and keeps the call in content",
				"upgrade it",
			}},
		{name: "deepseek_r1: no parser ends reasoning at R1's tool calls",
			args: []string{"-parser", "deepseek_r1", "-response", td("tool-in-reasoning-r1", "response.json")},
			want: []string{"tool-call-in-reasoning"},
			has: []string{
				`deepseek_r1 does not end reasoning at "<｜tool▁calls▁begin｜>"`,
				"run the tool-call parser over the reasoning too",
			}},
		{name: "a Qwen-style call under deepseek_r1: the parsers that end there",
			args: []string{"-parser", "deepseek_r1", "-response", td("tool-in-reasoning", "response.json")},
			want: []string{"tool-call-in-reasoning"},
			has: []string{
				`deepseek_r1 does not end reasoning at "<tool_call>"`,
				`use a parser that ends reasoning at "<tool_call>": qwen3,`,
			}},
	})
}

// TestTagsInContent: the server separated nothing (songquanpeng/one-api#2227).
func TestTagsInContent(t *testing.T) {
	runCases(t, []capturedCase{
		{name: "deepseek-r1 through a gateway without a parser",
			args: []string{"-parser", "deepseek_r1", "-response", td("tags-in-content", "response.json")},
			want: []string{"tags-in-content"},
			has: []string{
				`choices[0].message.content holds "<think>" at byte 0 and "</think>" at byte 132`,
				"--reasoning-parser deepseek_r1",
				"this library's deepseek_r1 splits this content into 125 bytes of reasoning",
			}},
	})
}

// TestMissedEnd: a </think> cut across two stream chunks that the server
// never joined, with the tool call after it (ai-dynamo/dynamo PR #10569).
func TestMissedEnd(t *testing.T) {
	runCases(t, []capturedCase{
		{name: "qwen3 stream",
			args: []string{"-parser", "qwen3", "-response", td("missed-end", "response.sse")},
			want: []string{"missed-end"},
			has: []string{
				`choices[0].delta.reasoning_content (joined over the stream) holds "</think>" at byte 60`,
				"the tool call after it (<tool_call>) was absorbed into reasoning too",
				"this library's qwen3 splits it into 60 bytes of reasoning and 82 of content",
				"ai-dynamo/dynamo PR #10569",
			}},
	})
}

// TestUnknownParser: names that are not registered, with the nearest ones.
func TestUnknownParser(t *testing.T) {
	runCases(t, []capturedCase{
		{name: "qwen-3", args: []string{"-parser", "qwen-3"},
			want: []string{"unknown-parser"},
			has:  []string{`no parser is registered as "qwen-3"`, "closest: qwen3 (1 edit)", "use -parser qwen3,"}},
		{name: "an alias", args: []string{"-parser", "gptoss"},
			want: []string{"unknown-parser"},
			has:  []string{"gpt_oss (1 edit, alias of openai_gptoss)"}},
		{name: "ambiguous", args: []string{"-parser", "deepseek"},
			want: []string{"unknown-parser"},
			has:  []string{"use the one for your model among", "deepseek_r1"}},
		{name: "nothing close", args: []string{"-parser", "xyzzyplugh"},
			want: []string{"unknown-parser"},
			has:  []string{"no registered name is close to it", "pick one of: ", "basic, beam,"}},
	})
	for _, tt := range []struct{ in, want string }{
		{"qwen-3", "qwen3"}, {"gptoss", "gpt_oss"}, {"deepseek-r2", "deepseek_r1"}, {"glm4.5", "glm45"},
		{"kimi-k2.5", "kimi_k25"}, {"Nemotron-V3", "nemotron_v3"}, {"minimax-m2.5", "minimax_m2"},
	} {
		near := closest(tt.in)
		if assert.NotEmpty(t, near, tt.in) {
			assert.Equal(t, tt.want, near[0].name, tt.in)
		}
	}
}

// TestBuild: a parser that cannot be built from what was given.
func TestBuild(t *testing.T) {
	dir := t.TempDir()
	req := filepath.Join(dir, "request.json")
	require.NoError(t, os.WriteFile(req, []byte(`{"model": "k2", "reasoning_effort": "extreme"}`), 0o644))
	runCases(t, []capturedCase{
		{name: "hf without its tokenizer metadata", args: []string{"-parser", "hf"},
			want: []string{"build"}, has: []string{"tokenizer_config.json"}},
		{name: "k2_horizon with an effort it rejects", args: []string{"-parser", "k2_horizon", "-request", req},
			want: []string{"build"}, has: []string{`unsupported reasoning_effort "extreme"`}},
	})
}

func TestRequest(t *testing.T) {
	r, err := parseRequest(`{"model": "m", "max_tokens": 10, "reasoning_effort": {"effort": "low"},
		"extra_body": {"chat_template_kwargs": {"enable_thinking": false}, "reasoning_effort": "none", "max_completion_tokens": 20}}`)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"enable_thinking": false, "reasoning_effort": "none"}, r.kwargs())
	n, key := r.maxTokens()
	assert.Equal(t, 20, n)
	assert.Equal(t, "max_completion_tokens", key)
}

func TestJSON(t *testing.T) {
	var out bytes.Buffer
	err := run([]string{"-parser", "qwen3", "-response", td("healthy-qwen3", "response.json"), "-json"}, nil, &out)
	require.NoError(t, err)
	assert.Equal(t, "[]\n", out.String(), "a healthy capture is an empty array")

	out.Reset()
	err = run([]string{"-parser", "qwen3", "-request", td("truncated", "request.json"), "-response", td("truncated", "response.json"), "-json"}, nil, &out)
	require.ErrorIs(t, err, errFound)
	var fs []map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &fs))
	require.Len(t, fs, 1)
	assert.Equal(t, "truncated", fs[0]["check"])
	for _, k := range []string{"what", "evidence", "fix"} {
		assert.NotEmpty(t, fs[0][k], k)
	}
}

func TestStdin(t *testing.T) {
	resp, err := os.ReadFile(td("truncated", "response.json"))
	require.NoError(t, err)
	var out bytes.Buffer
	err = run([]string{"-parser", "qwen3", "-response", "-"}, bytes.NewReader(resp), &out)
	require.ErrorIs(t, err, errFound)
	assert.True(t, strings.HasPrefix(out.String(), "truncated: "), out.String())
}

func TestHelp(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run([]string{"-h"}, nil, &out))
	for _, ch := range checks {
		assert.Contains(t, out.String(), "  "+ch.name+" ", "-h lists every check")
	}
	for _, flagName := range []string{"-parser", "-vocab", "-prompt", "-response", "-client-field", "-json"} {
		assert.Contains(t, out.String(), flagName)
	}
}

func TestErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "usage: doctor -parser NAME"},
		{[]string{"-parser", "qwen3", "extra"}, "usage:"},
		{[]string{"-parser", "qwen3", "-client-field", "thinking"}, `-client-field "thinking": want reasoning or reasoning_content`},
		{[]string{"-parser", "qwen3", "-response", "/no/such/file"}, "no such file"},
		{[]string{"-parser", "qwen3", "-prompt", "-", "-response", "-"}, "standard input is already read by -prompt"},
		{[]string{"-parser", "qwen3", "-response", td("healthy-qwen3", "prompt.txt")}, `neither a JSON body nor "data:" lines`},
		{[]string{"-parser", "qwen3", "-response", td("healthy-qwen3", "request.json")}, "no choices"},
		{[]string{"-parser", "qwen3", "-request", td("healthy-qwen3", "prompt.txt")}, "-request"},
		{[]string{"-parser", "qwen3", "-vocab", "/no/such/folder"}, "/no/such/folder"},
		{[]string{"-bogus"}, "flag provided but not defined"},
	} {
		err := run(tt.args, strings.NewReader(""), &bytes.Buffer{})
		if assert.Error(t, err, tt.args) {
			assert.NotErrorIs(t, err, errFound, tt.args)
			assert.Contains(t, err.Error(), tt.want, tt.args)
		}
	}
}

// TestStream reads a streamed capture: the deltas of each field joined.
func TestStream(t *testing.T) {
	text, err := os.ReadFile(td("missed-end", "response.sse"))
	require.NoError(t, err)
	r, err := parseResponse(string(text))
	require.NoError(t, err)
	require.True(t, r.streamed)
	require.Len(t, r.choices, 1)
	ch := r.choices[0]
	assert.Equal(t, "The user wants the weather in Paris. I'll call get_weather.\n</think>\n\n<tool_call>\n"+
		`{"name": "get_weather", "arguments": {"city": "Paris"}}`+"\n</tool_call>", ch.reasonCtt.text)
	assert.False(t, ch.reasoning.seen)
	assert.Equal(t, "stop", ch.finish)
	assert.Equal(t, 41, r.usage.CompletionTokens)

	r, err = parseResponse("data: " + `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":""}}]}}]}` +
		"\n\ndata: " + `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n")
	require.NoError(t, err)
	assert.Equal(t, 1, r.choices[0].toolCalls, "the deltas of one call count once")
}

// TestAliases checks that the doctor suggests every registered alias.
func TestAliases(t *testing.T) {
	require.NotEmpty(t, aliases)
	for _, n := range reasoning.Names() {
		info, _ := reasoning.Default.Info(n)
		for _, a := range info.Aliases {
			assert.Contains(t, aliases, a)
		}
	}
	for _, a := range aliases {
		_, ok := reasoning.Canonical(a)
		assert.True(t, ok, a)
	}
}

// TestSwitchKeys checks that the doctor tries every boolean thinking
// switch a registered family reads.
func TestSwitchKeys(t *testing.T) {
	assert.Equal(t, []string{"enable_thinking", "thinking"}, switchKeys[:2])
	for _, n := range reasoning.Names() {
		info, _ := reasoning.Default.Info(n)
		for _, k := range info.SwitchKeys {
			if k != "thinking_mode" && k != "reasoning_effort" {
				assert.Contains(t, switchKeys, k, n)
			}
		}
	}
}

// TestProbes checks what the doctor learns by running the parsers against
// what the families are made of.
func TestProbes(t *testing.T) {
	for _, tt := range []struct {
		name                 string
		opens, closes, tools []string
	}{
		{"qwen3", []string{"<think>"}, []string{"</think>"}, []string{"<tool_call>"}},
		{"deepseek_r1", []string{"<think>"}, []string{"</think>"}, nil},
		{"kimi_k2", []string{"<think>"}, []string{"</think>"}, []string{"<|tool_calls_section_begin|>"}},
		{"seed_oss", []string{"<seed:think>"}, []string{"</seed:think>"}, []string{"<seed:tool_call>"}},
		{"mistral", []string{"<think>", "[THINK]"}, []string{"</think>", "[/THINK]"}, []string{"[TOOL_CALLS]"}},
		{"hunyuan_a13b", []string{"<think>"}, []string{"</think>"}, nil},
		{"step3", nil, []string{"</think>"}, nil},
		{"openai_gptoss", nil, nil, nil},
		{"identity", nil, nil, nil},
	} {
		f, ok := newFamily(tt.name, nil, nil)
		require.True(t, ok, tt.name)
		assert.Equal(t, tt.opens, f.opens, tt.name)
		assert.Equal(t, tt.closes, f.closes, tt.name)
		assert.Equal(t, tt.tools, f.tools, tt.name)
	}
	// Whatever a probe finds is one of the family's own markers.
	for _, n := range reasoning.Names() {
		f, ok := newFamily(n, nil, nil)
		if !ok {
			continue
		}
		info, ok := reasoning.Default.Info(n)
		require.True(t, ok, n)
		for _, m := range slices.Concat(f.opens, f.closes, f.tools) {
			assert.True(t, slices.ContainsFunc(info.Markers, func(x string) bool { return strings.HasPrefix(m, x) }),
				"%s: probed marker %q is not among its markers %q", n, m, info.Markers)
		}
	}
}
