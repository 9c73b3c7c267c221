package reasoning_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reasoning-go/reasoning"
)

func TestMessageIsZero(t *testing.T) {
	assert.True(t, reasoning.Message{}.IsZero())
	assert.False(t, reasoning.Message{Reasoning: " "}.IsZero())
	assert.False(t, reasoning.Message{Content: "x"}.IsZero())
}

// TestStreamReasoningOff: reasoning is held back and emitted in one piece
// when content follows it, or at Finish when the stream ends inside it.
func TestStreamReasoningOff(t *testing.T) {
	p, err := reasoning.New("deepseek_r1", nil, reasoning.WithStreamReasoning(false))
	require.NoError(t, err)
	var got []reasoning.Message
	for _, d := range []string{"one ", "two", "</think>", "answer", " more"} {
		got = append(got, p.ExtractStreaming(reasoning.Delta{Text: d}))
	}
	got = append(got, p.Finish())
	assert.Equal(t, []reasoning.Message{{}, {}, {}, {Reasoning: "one two", Content: "answer"}, {Content: " more"}, {}}, got)

	p, err = reasoning.New("deepseek_r1", nil, reasoning.WithStreamReasoning(false))
	require.NoError(t, err)
	assert.Equal(t, reasoning.Message{}, p.ExtractStreaming(reasoning.Delta{Text: "cut off</th"}))
	assert.Equal(t, reasoning.Message{Reasoning: "cut off</th"}, p.Finish())
	assert.Equal(t, reasoning.Message{}, p.ExtractStreaming(reasoning.Delta{Text: "late"}))
	assert.Equal(t, reasoning.Message{}, p.Finish())
}

// TestNonEmptyContent: a response without content returns its reasoning as
// content, in Extract and in a stream alike: the stream holds reasoning back
// until content follows it (issue 16, item 7).
func TestNonEmptyContent(t *testing.T) {
	out := "<think>only thoughts"
	want := reasoning.Message{Content: "only thoughts"}

	p, err := reasoning.New("deepseek_r1", nil, reasoning.WithNonEmptyContent(true))
	require.NoError(t, err)
	assert.Equal(t, want, p.Extract(out))
	assert.Equal(t, reasoning.Message{Reasoning: "a", Content: "b"}, p.Extract("a</think>b"))
	assert.Equal(t, want, reasoning.Collect(p, []reasoning.Delta{{Text: out}}), "streaming equals Extract")

	p, err = reasoning.New("deepseek_r1", nil, reasoning.WithNonEmptyContent(true))
	require.NoError(t, err)
	assert.Equal(t, []reasoning.Message{{}, {Reasoning: "a", Content: "b"}, {}},
		[]reasoning.Message{p.ExtractStreaming(reasoning.Delta{Text: "a"}), p.ExtractStreaming(reasoning.Delta{Text: "</think>b"}), p.Finish()},
		"reasoning is held until content follows it")

	p, err = reasoning.New("deepseek_r1", nil, reasoning.WithNonEmptyContent(true), reasoning.WithStreamReasoning(false))
	require.NoError(t, err)
	assert.Equal(t, want, reasoning.Collect(p, []reasoning.Delta{{Text: "<think>only "}, {Text: "thoughts"}}))

	p, err = reasoning.New("deepseek_r1", nil, reasoning.WithNonEmptyContent(true), reasoning.WithStreamReasoning(false))
	require.NoError(t, err)
	assert.Equal(t, reasoning.Message{Reasoning: "a", Content: "b"}, reasoning.Collect(p, []reasoning.Delta{{Text: "a</th"}, {Text: "ink>b"}}))
}

func TestCollectEmpty(t *testing.T) {
	p, err := reasoning.New("qwen3", nil)
	require.NoError(t, err)
	assert.Equal(t, reasoning.Message{}, reasoning.Collect(p, nil))
}

// TestNonEmptyContentStreamsAfterContent: with WithNonEmptyContent, once
// content has come the swap cannot apply, and reasoning streams again.
func TestNonEmptyContentStreamsAfterContent(t *testing.T) {
	p, err := reasoning.New("basic", nil, reasoning.WithNonEmptyContent(true))
	require.NoError(t, err)
	got := []reasoning.Message{
		p.ExtractStreaming(reasoning.Delta{Text: "<think>a"}),
		p.ExtractStreaming(reasoning.Delta{Text: "</think>b"}),
		p.ExtractStreaming(reasoning.Delta{Text: "<think>c"}),
		p.Finish(),
	}
	assert.Equal(t, []reasoning.Message{{}, {Reasoning: "a", Content: "b"}, {Reasoning: "c"}, {}}, got)
}
