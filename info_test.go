package reasoning_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/namedocs"
	"github.com/reasoning-go/reasoning/parsers"
)

func TestInfo(t *testing.T) {
	r := reasoning.NewRegistry()
	info := reasoning.Info{
		Name: "reasoner", Aliases: []string{"reasoner-v1"}, Engine: "ours", Summary: "<reason>…</reason>",
		Markers: []string{"<reason>", "</reason>", "<tool>"}, Opens: []string{"<reason>"}, Closes: []string{"</reason>"},
		Tools: []string{"<tool>"}, SwitchKeys: []string{"enable_reasoning"},
	}
	require.NoError(t, r.RegisterInfo(info, fakeFactory))
	require.NoError(t, r.Register("plain", fakeFactory, "PLAIN-2"))

	for _, name := range []string{"reasoner", "REASONER_V1", "reasoner-v1", " Reasoner "} {
		got, ok := r.Info(name)
		assert.True(t, ok, name)
		assert.Equal(t, info, got, name)
	}
	got, ok := r.Info("plain_2")
	assert.True(t, ok)
	assert.Equal(t, reasoning.Info{Name: "plain", Aliases: []string{"PLAIN-2"}}, got, "Register gives Name and Aliases only")
	_, ok = r.Info("nobody")
	assert.False(t, ok)

	// Neither the Info given nor one returned shares memory with the registry.
	info.Opens[0] = "changed"
	got.Aliases[0] = "changed"
	again, _ := r.Info("reasoner")
	assert.Equal(t, "<reason>", again.Opens[0])
	again, _ = r.Info("plain")
	assert.Equal(t, "PLAIN-2", again.Aliases[0])

	// RegisterInfo fails as Register does.
	assert.ErrorIs(t, r.RegisterInfo(reasoning.Info{Name: "other", Aliases: []string{"Reasoner"}}, fakeFactory), reasoning.ErrNameTaken)
	assert.ErrorIs(t, r.RegisterInfo(reasoning.Info{}, fakeFactory), reasoning.ErrInvalidRegistration)
	assert.ErrorIs(t, r.RegisterInfo(reasoning.Info{Name: "x"}, nil), reasoning.ErrInvalidRegistration)
	assert.Equal(t, []string{"plain", "reasoner"}, r.Names())
}

// TestInfoDefault checks that every name the parsers package registers is
// described: its aliases find it, and what it says of its markers holds
// together.
func TestInfoDefault(t *testing.T) {
	for _, name := range reasoning.Names() {
		info, ok := reasoning.Default.Info(name)
		require.True(t, ok, name)
		assert.Equal(t, name, info.Name)
		assert.NotEmpty(t, info.Summary, "%s: no summary", name)
		assert.NotEmpty(t, info.Engine, "%s: no engine", name)
		// Markers are code spans: Markdown would read <think> as HTML.
		for k, part := range strings.Split(info.Summary, "`") {
			assert.False(t, k%2 == 0 && strings.ContainsAny(part, "<|"), "%s: summary has %q outside backquotes", name, part)
		}
		for _, a := range info.Aliases {
			c, ok := reasoning.Canonical(a)
			assert.True(t, ok && c == name, "%s: alias %q finds %q", name, a, c)
		}
		// Opens may name a marker as the model writes it (Gemma 4's with
		// its label): each begins with one of Markers.
		for _, m := range slices.Concat(info.Opens, info.Closes, info.Tools) {
			assert.True(t, slices.ContainsFunc(info.Markers, func(x string) bool { return strings.HasPrefix(m, x) }),
				"%s: %q begins with none of its Markers %q", name, m, info.Markers)
		}
	}
}

// TestResolveThinkingThirdPartyKey registers a family switched by a key no
// in-tree family reads: ResolveThinking reads it and writes its decision
// into it, and the family's parser follows.
func TestResolveThinkingThirdPartyKey(t *testing.T) {
	spec := parsers.ThinkTag{
		Name:     "reasoner",
		Open:     []string{"<reason>"},
		Close:    []string{"</reason>"},
		Thinking: parsers.Switch{Keys: []string{"enable_reasoning"}, Default: true},
	}
	f, err := spec.Factory()
	require.NoError(t, err)
	r := reasoning.NewRegistry()

	// Before the family is registered, its key is just another kwarg.
	kw, src := r.ResolveThinking(map[string]any{"enable_reasoning": false}, "", reasoning.ThinkingDefaults{})
	assert.Equal(t, map[string]any{"enable_reasoning": false}, kw)
	assert.Equal(t, reasoning.ThinkingFromFamily, src)

	require.NoError(t, r.RegisterInfo(reasoning.Info{Name: "reasoner", SwitchKeys: spec.Thinking.Keys}, f))
	const output = "<reason>plan</reason>answer"
	for _, c := range []struct {
		kwargs map[string]any
		d      reasoning.ThinkingDefaults
		src    reasoning.ThinkingSource
		want   map[string]any
	}{
		// The family's own key decides, and is written in every dialect.
		{map[string]any{"enable_reasoning": false}, reasoning.ThinkingDefaults{}, reasoning.ThinkingFromRequest,
			with(offCore, "enable_reasoning", false)},
		// Another dialect reaches the family's key.
		{map[string]any{"thinking": false}, reasoning.ThinkingDefaults{}, reasoning.ThinkingFromRequest,
			with(offCore, "enable_reasoning", false)},
		{nil, reasoning.ThinkingDefaults{Mode: reasoning.ThinkingDisabled}, reasoning.ThinkingFromMode,
			with(offCore, "enable_reasoning", false)},
		{nil, reasoning.ThinkingDefaults{ChatTemplateKwargs: map[string]any{"enable_reasoning": "no"}}, reasoning.ThinkingFromDefaultKwargs,
			with(offCore, "enable_reasoning", false)},
		// The request's key beats the deployment's.
		{map[string]any{"enable_reasoning": true}, reasoning.ThinkingDefaults{Mode: reasoning.ThinkingDisabled}, reasoning.ThinkingFromRequest,
			with(onCore, "enable_reasoning", true)},
		{map[string]any{"enable_reasoning": nil}, reasoning.ThinkingDefaults{}, reasoning.ThinkingFromFamily, nil},
	} {
		kw, src := r.ResolveThinking(c.kwargs, "", c.d)
		assert.Equal(t, c.want, kw, "%v, %+v", c.kwargs, c.d)
		assert.Equal(t, c.src, src, "%v, %+v", c.kwargs, c.d)
		p, err := r.New("reasoner", nil, reasoning.WithChatTemplateKwargs(kw))
		require.NoError(t, err)
		want := reasoning.Message{Content: output}
		if kw == nil || kw["enable_reasoning"] == true {
			want = reasoning.Message{Reasoning: "plan", Content: "answer"}
		}
		assert.Equal(t, want, p.Extract(output), "%v, %+v", c.kwargs, c.d)
	}
}

// TestReadmeNames checks that README.md's table of names is what
// reasoning.Info gives (make docs writes it).
func TestReadmeNames(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	table, err := namedocs.ReadmeTable(string(readme))
	require.NoError(t, err)
	if diff := cmp.Diff(namedocs.Markdown(namedocs.Infos(reasoning.Default)), table); diff != "" {
		t.Errorf("README.md's table of names differs from reasoning.Info (-Info +README); run make docs:\n%s", diff)
	}
}

func ExampleRegistry_Info() {
	info, ok := reasoning.Default.Info("GPT-OSS") // an alias, in any spelling
	fmt.Println(ok, info.Name, info.Aliases, info.Engine)
	info, _ = reasoning.Default.Info("qwen3")
	fmt.Println(info.Opens, info.Closes, info.Tools, info.SwitchKeys)
	// Output:
	// true openai_gptoss [gpt_oss] vLLM
	// [<think>] [</think>] [<tool_call>] [enable_thinking]
}
