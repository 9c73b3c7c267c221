package reasoning_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reasoning-go/reasoning"
	_ "github.com/reasoning-go/reasoning/parsers"
)

// onCore and offCore are the decision in the dialects every registry
// writes: the two common booleans and thinking_mode.
var (
	onCore  = map[string]any{"thinking": true, "enable_thinking": true, "thinking_mode": "enabled"}
	offCore = map[string]any{"thinking": false, "enable_thinking": false, "thinking_mode": "disabled"}
)

// on and off are the decision as Default's ResolveThinking states it: the
// core dialects plus the other boolean keys its families read (GigaChat
// 3.5's reasoning, openPangu V2's think).
var (
	on  = with(onCore, "reasoning", true, "think", true)
	off = with(offCore, "reasoning", false, "think", false)
)

// with returns m plus the given key/value pairs.
func with(m map[string]any, kv ...any) map[string]any {
	out := make(map[string]any, len(m)+len(kv)/2)
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func TestResolveThinking(t *testing.T) {
	enabled := reasoning.ThinkingDefaults{Mode: reasoning.ThinkingEnabled}
	disabled := reasoning.ThinkingDefaults{Mode: reasoning.ThinkingDisabled}
	for _, c := range []struct {
		name     string
		kwargs   map[string]any
		effort   string
		defaults reasoning.ThinkingDefaults
		want     map[string]any
		source   reasoning.ThinkingSource
	}{
		// Rung 4: nothing said anywhere.
		{name: "nothing", want: nil, source: reasoning.ThinkingFromFamily},
		{name: "other keys only", kwargs: map[string]any{"add_generation_prompt": true},
			want: map[string]any{"add_generation_prompt": true}, source: reasoning.ThinkingFromFamily},

		// Rung 3: the deployment's mode.
		{name: "mode enabled", defaults: enabled, want: on, source: reasoning.ThinkingFromMode},
		{name: "mode disabled", defaults: disabled, want: off, source: reasoning.ThinkingFromMode},
		{name: "mode auto", defaults: reasoning.ThinkingDefaults{Mode: reasoning.ThinkingAuto}, source: reasoning.ThinkingFromFamily},

		// Rung 1 over rung 3.
		{name: "request off beats mode enabled", kwargs: map[string]any{"enable_thinking": false}, defaults: enabled,
			want: off, source: reasoning.ThinkingFromRequest},
		{name: "request on beats mode disabled", kwargs: map[string]any{"thinking": true}, defaults: disabled,
			want: on, source: reasoning.ThinkingFromRequest},
		{name: "request thinking_mode disabled", kwargs: map[string]any{"thinking_mode": "Disabled"}, defaults: enabled,
			want: off, source: reasoning.ThinkingFromRequest},
		{name: "request thinking_mode enabled", kwargs: map[string]any{"thinking_mode": "enabled"}, defaults: disabled,
			want: on, source: reasoning.ThinkingFromRequest},
		{name: "request adaptive decides nothing but silences the mode", kwargs: map[string]any{"thinking_mode": "adaptive"},
			defaults: enabled, want: map[string]any{"thinking_mode": "adaptive"}, source: reasoning.ThinkingFromRequest},
		{name: "string booleans", kwargs: map[string]any{"enable_thinking": "false"}, defaults: enabled,
			want: off, source: reasoning.ThinkingFromRequest},
		{name: "either boolean true is on", kwargs: map[string]any{"thinking": false, "enable_thinking": true},
			want: on, source: reasoning.ThinkingFromRequest},
		{name: "booleans beat thinking_mode", kwargs: map[string]any{"enable_thinking": true, "thinking_mode": "disabled"},
			want: on, source: reasoning.ThinkingFromRequest},

		// reasoning_effort: top level, then the kwarg.
		{name: "effort none is off", effort: "none", defaults: enabled,
			want: with(off, "reasoning_effort", "none"), source: reasoning.ThinkingFromRequest},
		{name: "effort high is on", effort: "high", defaults: disabled,
			want: with(on, "reasoning_effort", "high"), source: reasoning.ThinkingFromRequest},
		{name: "effort no_think is off", kwargs: map[string]any{"reasoning_effort": "no_think"},
			want: with(off, "reasoning_effort", "no_think"), source: reasoning.ThinkingFromRequest},
		{name: "top-level effort beats the kwarg", kwargs: map[string]any{"reasoning_effort": "low"}, effort: "medium",
			want: with(on, "reasoning_effort", "medium"), source: reasoning.ThinkingFromRequest},
		{name: "booleans beat effort, effort kept", kwargs: map[string]any{"enable_thinking": false}, effort: "high",
			want: with(off, "reasoning_effort", "high"), source: reasoning.ThinkingFromRequest},
		{name: "thinking_mode beats effort", kwargs: map[string]any{"thinking_mode": "enabled"}, effort: "none",
			want: with(on, "reasoning_effort", "none"), source: reasoning.ThinkingFromRequest},
		{name: "non-string effort kwarg decides nothing", kwargs: map[string]any{"reasoning_effort": 3.0},
			want: map[string]any{"reasoning_effort": 3.0}, source: reasoning.ThinkingFromRequest},

		// null and "auto" are unset.
		{name: "null request falls to the mode", kwargs: map[string]any{"enable_thinking": nil}, defaults: disabled,
			want: off, source: reasoning.ThinkingFromMode},
		{name: "auto request falls to the mode", kwargs: map[string]any{"thinking": "AUTO"}, defaults: enabled,
			want: on, source: reasoning.ThinkingFromMode},
		{name: "auto thinking_mode falls to the family", kwargs: map[string]any{"thinking_mode": "auto"},
			source: reasoning.ThinkingFromFamily},
		{name: "auto effort falls to the mode", effort: "auto", defaults: disabled, want: off, source: reasoning.ThinkingFromMode},
		{name: "null effort kwarg falls to the family", kwargs: map[string]any{"reasoning_effort": nil},
			source: reasoning.ThinkingFromFamily},

		// Rung 2: the deployment's default kwargs.
		{name: "default kwargs beat the mode",
			defaults: reasoning.ThinkingDefaults{ChatTemplateKwargs: map[string]any{"enable_thinking": false}, Mode: reasoning.ThinkingEnabled},
			want:     off, source: reasoning.ThinkingFromDefaultKwargs},
		{name: "request beats default kwargs", kwargs: map[string]any{"thinking": true},
			defaults: reasoning.ThinkingDefaults{ChatTemplateKwargs: map[string]any{"enable_thinking": false, "reasoning_effort": "low"}},
			want:     on, source: reasoning.ThinkingFromRequest},
		{name: "default thinking_mode", defaults: reasoning.ThinkingDefaults{ChatTemplateKwargs: map[string]any{"thinking_mode": "enabled"}},
			want: on, source: reasoning.ThinkingFromDefaultKwargs},
		{name: "default effort", defaults: reasoning.ThinkingDefaults{ChatTemplateKwargs: map[string]any{"reasoning_effort": "none"}},
			want: with(off, "reasoning_effort", "none"), source: reasoning.ThinkingFromDefaultKwargs},
		{name: "null default falls to the mode",
			defaults: reasoning.ThinkingDefaults{ChatTemplateKwargs: map[string]any{"enable_thinking": nil}, Mode: reasoning.ThinkingDisabled},
			want:     off, source: reasoning.ThinkingFromMode},

		// Other keys merge, the request's over the deployment's.
		{name: "other keys merge", kwargs: map[string]any{"a": 1, "b": "request"},
			defaults: reasoning.ThinkingDefaults{ChatTemplateKwargs: map[string]any{"b": "default", "c": true}, Mode: reasoning.ThinkingDisabled},
			want:     with(off, "a", 1, "b", "request", "c", true), source: reasoning.ThinkingFromMode},
		{name: "a null other key is kept", kwargs: map[string]any{"custom": nil},
			want: map[string]any{"custom": nil}, source: reasoning.ThinkingFromFamily},
	} {
		t.Run(c.name, func(t *testing.T) {
			kwBefore, defBefore := snapshot(c.kwargs), snapshot(c.defaults.ChatTemplateKwargs)
			got, source := reasoning.ResolveThinking(c.kwargs, c.effort, c.defaults)
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("kwargs mismatch (-want +got):\n%s", diff)
			}
			assert.Equal(t, c.source, source, "source")
			assert.Equal(t, kwBefore, snapshot(c.kwargs), "request kwargs modified")
			assert.Equal(t, defBefore, snapshot(c.defaults.ChatTemplateKwargs), "default kwargs modified")
		})
	}
}

func snapshot(m map[string]any) string {
	b, _ := json.Marshal(m)
	return string(b)
}

// TestResolveThinkingReachesFamilies builds real parsers from the result:
// whatever dialect a family reads, it sees the decision.
func TestResolveThinkingReachesFamilies(t *testing.T) {
	const output = "<think>plan</think>answer"
	for _, c := range []struct {
		family string
		kwargs map[string]any
		mode   reasoning.ThinkingMode
		want   reasoning.Message
	}{
		// qwen3 reads only enable_thinking; the request said thinking.
		{"qwen3", map[string]any{"thinking": false}, reasoning.ThinkingAuto, reasoning.Message{Content: output}},
		// kimi_k2 reads thinking; the request said enable_thinking.
		{"kimi_k2", map[string]any{"enable_thinking": false}, reasoning.ThinkingAuto, reasoning.Message{Content: output}},
		// deepseek_v3 is off by default; the deployment turns it on.
		{"deepseek_v3", nil, reasoning.ThinkingEnabled, reasoning.Message{Reasoning: "plan", Content: "answer"}},
		// qwen3 is on by default; the deployment turns it off...
		{"qwen3", nil, reasoning.ThinkingDisabled, reasoning.Message{Content: output}},
		// ...unless the request turns it back on.
		{"qwen3", map[string]any{"enable_thinking": true}, reasoning.ThinkingDisabled, reasoning.Message{Reasoning: "plan", Content: "answer"}},
	} {
		kw, _ := reasoning.ResolveThinking(c.kwargs, "", reasoning.ThinkingDefaults{Mode: c.mode})
		p, err := reasoning.New(c.family, nil, reasoning.WithChatTemplateKwargs(kw))
		require.NoError(t, err)
		assert.Equal(t, c.want, p.Extract(output), "%s with %v, mode %v", c.family, c.kwargs, c.mode)
	}

	// minimax_m3 reads thinking_mode; the request said reasoning_effort.
	kw, _ := reasoning.ResolveThinking(nil, "high", reasoning.ThinkingDefaults{})
	p, err := reasoning.New("minimax_m3", nil, reasoning.WithChatTemplateKwargs(kw))
	require.NoError(t, err)
	assert.Equal(t, reasoning.Message{Reasoning: "plan", Content: "answer"}, p.Extract("plan</mm:think>answer"))
}

func TestThinkingModeText(t *testing.T) {
	for text, want := range map[string]reasoning.ThinkingMode{
		"enabled": reasoning.ThinkingEnabled, "Disabled": reasoning.ThinkingDisabled,
		"auto": reasoning.ThinkingAuto, "": reasoning.ThinkingAuto, " ENABLED ": reasoning.ThinkingEnabled,
	} {
		var m reasoning.ThinkingMode
		require.NoError(t, m.UnmarshalText([]byte(text)), text)
		assert.Equal(t, want, m, text)
	}
	var m reasoning.ThinkingMode
	err := m.UnmarshalText([]byte("on"))
	assert.ErrorIs(t, err, reasoning.ErrUnsupportedConfig)
	assert.EqualError(t, err, `reasoning: unsupported configuration: thinking mode "on" (want enabled, disabled or auto)`)

	for _, m := range []reasoning.ThinkingMode{reasoning.ThinkingAuto, reasoning.ThinkingEnabled, reasoning.ThinkingDisabled} {
		text, err := m.MarshalText()
		require.NoError(t, err)
		var back reasoning.ThinkingMode
		require.NoError(t, back.UnmarshalText(text))
		assert.Equal(t, m, back)
	}
	_, err = reasoning.ThinkingMode(9).MarshalText()
	assert.ErrorIs(t, err, reasoning.ErrUnsupportedConfig)
	assert.Equal(t, "ThinkingMode(9)", reasoning.ThinkingMode(9).String())
	assert.Equal(t, "default kwargs", reasoning.ThinkingFromDefaultKwargs.String())

	// As a flag, the way examples/gateway takes -default-thinking.
	fs := flag.NewFlagSet("gateway", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var mode reasoning.ThinkingMode
	fs.TextVar(&mode, "default-thinking", reasoning.ThinkingAuto, "")
	require.NoError(t, fs.Parse([]string{"-default-thinking", "disabled"}))
	assert.Equal(t, reasoning.ThinkingDisabled, mode)
	err = fs.Parse([]string{"-default-thinking", "maybe"})
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "want enabled, disabled or auto"), err.Error())
}

// A gateway resolves thinking once per request and builds the parser, and
// the upstream request, from the result.
func ExampleResolveThinking() {
	deployment := reasoning.ThinkingDefaults{Mode: reasoning.ThinkingDisabled}

	// The request says nothing: the deployment's mode decides.
	kw, source := reasoning.ResolveThinking(nil, "", deployment)
	fmt.Println(source, kw)

	// The request's reasoning_effort outranks the deployment.
	kw, source = reasoning.ResolveThinking(map[string]any{"enable_thinking": nil}, "high", deployment)
	fmt.Println(source, kw)

	p, err := reasoning.New("qwen3", nil, reasoning.WithChatTemplateKwargs(kw))
	if err != nil {
		log.Fatal(err)
	}
	m := p.Extract("<think>2 + 2 is 4.</think>4")
	fmt.Printf("reasoning=%q content=%q\n", m.Reasoning, m.Content)
	// Output:
	// mode map[enable_thinking:false reasoning:false think:false thinking:false thinking_mode:disabled]
	// request map[enable_thinking:true reasoning:true reasoning_effort:high think:true thinking:true thinking_mode:enabled]
	// reasoning="2 + 2 is 4." content="4"
}
