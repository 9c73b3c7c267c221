package reasoning_test

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// fake is a toy family for registry tests: it records the Config and
// tokenizer it was built with, and splits at the first "|".
type fake struct {
	tok tokenizer.Tokenizer
	cfg reasoning.Config
	shout
}

func fakeFactory(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return &fake{tok: tok, cfg: cfg}, nil
}

func TestRegisterAndLookup(t *testing.T) {
	r := reasoning.NewRegistry()
	require.NoError(t, r.Register("deep_thought", fakeFactory, "DT-1", "hal"))
	require.NoError(t, r.Register("alpha", fakeFactory))
	assert.Equal(t, []string{"alpha", "deep_thought"}, r.Names())

	for _, name := range []string{"deep_thought", "DEEP-THOUGHT", "deep-thought", "dt_1", "Dt-1", " hal "} {
		got, ok := r.Canonical(name)
		assert.True(t, ok, name)
		assert.Equal(t, "deep_thought", got, name)
		p, err := r.New(name, nil)
		require.NoError(t, err, name)
		assert.IsType(t, &fake{}, p)
	}
	_, ok := r.Canonical("deep thought")
	assert.False(t, ok)
}

func TestRegisterErrors(t *testing.T) {
	r := reasoning.NewRegistry()
	require.NoError(t, r.Register("qwen3", fakeFactory, "qwen"))
	for _, tt := range []struct {
		name    string
		aliases []string
		f       reasoning.Factory
		is      error
		want    string
	}{
		{"qwen3", nil, fakeFactory, reasoning.ErrNameTaken, `reasoning: parser name already registered: Register called twice for "qwen3"`},
		{"QWEN3", nil, fakeFactory, reasoning.ErrNameTaken, `reasoning: parser name already registered: Register "QWEN3": "QWEN3" is taken by "qwen3"`},
		{"other", []string{"qwen"}, fakeFactory, reasoning.ErrNameTaken, `"qwen" is taken by "qwen3"`},
		{"", nil, fakeFactory, reasoning.ErrInvalidRegistration, "empty name"},
		{"x", []string{" "}, fakeFactory, reasoning.ErrInvalidRegistration, "empty name or alias"},
		{"y", nil, nil, reasoning.ErrInvalidRegistration, "nil factory"},
		{"z", []string{"z"}, fakeFactory, reasoning.ErrNameTaken, `Register called twice for "z"`},
	} {
		err := r.Register(tt.name, tt.f, tt.aliases...)
		if assert.Error(t, err, tt.name) {
			assert.ErrorIs(t, err, tt.is, tt.name)
			assert.Contains(t, err.Error(), tt.want)
		}
	}
	// A failed Register leaves the registry as it was.
	assert.Equal(t, []string{"qwen3"}, r.Names())
	_, ok := r.Canonical("other")
	assert.False(t, ok)
}

func TestRegisterPanicsOnDefault(t *testing.T) {
	assert.PanicsWithError(t, `reasoning: parser name already registered: Register called twice for "qwen3"`, func() {
		reasoning.Register("qwen3", fakeFactory)
	})
}

func TestUnknownName(t *testing.T) {
	r := reasoning.NewRegistry()
	_, err := r.New("qwen3", nil)
	require.ErrorIs(t, err, reasoning.ErrUnknownParser)
	assert.Equal(t, `reasoning: unknown parser "qwen3" (no parsers are registered; forgotten import of github.com/reasoning-go/reasoning/parsers?)`, err.Error())

	require.NoError(t, r.Register("b", fakeFactory))
	require.NoError(t, r.Register("a", fakeFactory))
	_, err = r.New("c", nil)
	require.ErrorIs(t, err, reasoning.ErrUnknownParser)
	assert.Contains(t, err.Error(), `"c" (known: a, b;`)
}

func TestFactoryError(t *testing.T) {
	r := reasoning.NewRegistry()
	cause := errors.New(`delimiter "<x>": cannot encode`)
	require.NoError(t, r.Register("bad", func(tokenizer.Tokenizer, reasoning.Config) (reasoning.Parser, error) {
		return nil, cause
	}, "worse"))
	_, err := r.New("worse", nil)
	require.ErrorIs(t, err, cause)
	assert.Equal(t, `reasoning: parser "bad": delimiter "<x>": cannot encode`, err.Error())

	require.NoError(t, r.Register("none", func(tokenizer.Tokenizer, reasoning.Config) (reasoning.Parser, error) {
		return nil, nil
	}))
	_, err = r.New("none", nil)
	assert.ErrorIs(t, err, reasoning.ErrInvalidRegistration)
	assert.EqualError(t, err, `reasoning: invalid registration: parser "none": its factory returned no parser and no error`)
}

func TestOptions(t *testing.T) {
	r := reasoning.NewRegistry()
	var got reasoning.Config
	require.NoError(t, r.Register("fake", func(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
		got = cfg
		return fakeFactory(tok, cfg)
	}))
	build := func(opts ...reasoning.Option) reasoning.Config {
		_, err := r.New("fake", nil, opts...)
		require.NoError(t, err)
		return got
	}
	assert.Equal(t, reasoning.Config{StreamReasoning: true}, build(), "defaults")
	assert.Equal(t, reasoning.Config{StreamReasoning: true}, build(nil), "a nil option is skipped")

	yes := true
	kw := map[string]any{"thinking_mode": "enabled"}
	cfg := build(
		reasoning.WithChatTemplateKwargs(kw),
		reasoning.WithThinking(false),
		reasoning.WithPrompt("<think>\n", []int{1, 2}),
		reasoning.WithForceReasoning(true),
		reasoning.WithNonEmptyContent(true),
	)
	want := reasoning.Config{
		ChatTemplateKwargs: map[string]any{"thinking_mode": "enabled", "enable_thinking": false, "thinking": false},
		PromptText:         "<think>\n",
		PromptIDs:          []int{1, 2},
		StreamReasoning:    true,
		ForceReasoning:     &yes,
		NonEmptyContent:    true,
	}
	if diff := cmp.Diff(want, cfg); diff != "" {
		t.Errorf("Config mismatch (-want +got):\n%s", diff)
	}
	assert.Equal(t, map[string]any{"thinking_mode": "enabled"}, kw, "the caller's map is not modified")
	assert.False(t, build(reasoning.WithStreamReasoning(false)).StreamReasoning)
	assert.True(t, build(reasoning.WithChatTemplateKwargs(map[string]any{"force_nonempty_content": true})).NonEmptyContent)
	assert.False(t, build(reasoning.WithChatTemplateKwargs(map[string]any{"force_nonempty_content": nil})).NonEmptyContent)
}

func TestTypedNilTokenizerIsNil(t *testing.T) {
	r := reasoning.NewRegistry()
	require.NoError(t, r.Register("fake", fakeFactory))
	var v *tokenizer.Vocab
	p, err := r.New("fake", v)
	require.NoError(t, err)
	assert.Nil(t, p.(*fake).tok)
}

func TestConfigThinking(t *testing.T) {
	for _, tt := range []struct {
		kw      map[string]any
		on, set bool
	}{
		{nil, false, false},
		{map[string]any{"enable_thinking": true}, true, true},
		{map[string]any{"enable_thinking": false}, false, true},
		{map[string]any{"enable_thinking": nil}, false, false},
		{map[string]any{"enable_thinking": "auto"}, false, false},
		{map[string]any{"thinking": true, "enable_thinking": false}, true, true},
		{map[string]any{"thinking": "false"}, false, true},
		{map[string]any{"thinking": "Yes"}, true, true},
		{map[string]any{"thinking": "disabled"}, false, true},
		{map[string]any{"thinking": 0.0}, false, true},
		{map[string]any{"thinking": 1}, true, true},
		{map[string]any{"thinking": "high"}, true, true},
		{map[string]any{"other": true}, false, false},
	} {
		cfg := reasoning.Config{ChatTemplateKwargs: tt.kw}
		on, set := cfg.Thinking("enable_thinking", "thinking")
		assert.Equal(t, []bool{tt.on, tt.set}, []bool{on, set}, "%v", tt.kw)
	}
}

// TestConcurrentRegistry registers while others look up; run with -race.
func TestConcurrentRegistry(t *testing.T) {
	r := reasoning.NewRegistry()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			assert.NoError(t, r.Register(strings.Repeat("x", i+1), fakeFactory))
		}()
		go func() {
			defer wg.Done()
			r.Names()
			r.Canonical("x")
			_, _ = r.New("xx", nil)
		}()
	}
	wg.Wait()
	assert.Len(t, r.Names(), 8)
}
