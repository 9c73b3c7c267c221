package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
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

func TestSplit(t *testing.T) {
	var out bytes.Buffer
	err := run([]string{"-parser", "deepseek_r1", "-"}, strings.NewReader("a<b</think>c"), &out)
	require.NoError(t, err)
	assert.Equal(t, `{"reasoning":"a<b","content":"c"}`+"\n", out.String())
}

// TestStreamTotals checks that the streamed deltas add up to the totals and
// to the non-streamed split, for every saved sample.
func TestStreamTotals(t *testing.T) {
	samples, err := filepath.Glob("../../testdata/samples/*.txt")
	require.NoError(t, err)
	require.NotEmpty(t, samples)
	for _, path := range samples {
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		t.Run(name, func(t *testing.T) {
			if _, err := reasoning.New(name, nil); errors.Is(err, tokenizer.ErrNoConfig) {
				t.Skipf("%s needs a model folder (-vocab) with its tokenizer metadata", name)
			}
			var whole, streamed bytes.Buffer
			require.NoError(t, run([]string{"-parser", name, path}, nil, &whole))
			require.NoError(t, run([]string{"-parser", name, "-stream", "-chunk", "3", path}, nil, &streamed))
			var want reasoning.Message
			require.NoError(t, json.Unmarshal(whole.Bytes(), &want))
			lines := strings.Split(strings.TrimSpace(streamed.String()), "\n")
			var sum reasoning.Message
			for _, l := range lines[:len(lines)-1] {
				var m reasoning.Message
				require.NoError(t, json.Unmarshal([]byte(l), &m))
				assert.False(t, m.IsZero(), "a printed delta is never empty")
				sum.Reasoning += m.Reasoning
				sum.Content += m.Content
			}
			var total struct{ Total reasoning.Message }
			require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &total))
			assert.Equal(t, want, sum)
			assert.Equal(t, want, total.Total)
			raw, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.NotEmpty(t, string(raw))
		})
	}
}

func TestOptions(t *testing.T) {
	dir := t.TempDir()
	prompt := filepath.Join(dir, "prompt.txt")
	require.NoError(t, os.WriteFile(prompt, []byte("<|im_start|>assistant\n<think>\n\n</think>\n\n"), 0o644))
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-parser", "qwen3", "-thinking=false", "-"}, `{"content":"x</think>y"}`},
		{[]string{"-parser", "qwen3", "-thinking", "-"}, `{"reasoning":"x","content":"y"}`},
		{[]string{"-parser", "qwen3", "-prompt", prompt, "-"}, `{"content":"xy"}`},
	} {
		var out bytes.Buffer
		require.NoError(t, run(tt.args, strings.NewReader("x</think>y"), &out), tt.args)
		assert.Equal(t, tt.want+"\n", out.String(), tt.args)
	}
}

func TestErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "usage: split -parser NAME"},
		{[]string{"-parser", "qwen3"}, "usage:"},
		{[]string{"-parser", "nope", "-"}, `-parser "nope": no parser has this name; the names are: `},
		{[]string{"-parser", "qwen3", "/no/such/file"}, "no such file"},
		{[]string{"-parser", "qwen3", "-chunk", "0", "-"}, "-chunk 0"},
		{[]string{"-bogus"}, "flag provided but not defined"},
	} {
		err := run(tt.args, strings.NewReader(""), &bytes.Buffer{})
		if assert.Error(t, err, tt.args) {
			assert.Contains(t, err.Error(), tt.want, tt.args)
		}
	}
}

// TestUnknownParserSpeaksToTheCommandLine: the library's error advises a
// forgotten import, which means nothing to someone running the command.
func TestUnknownParserSpeaksToTheCommandLine(t *testing.T) {
	err := run([]string{"-parser", "qwen-4", "-"}, strings.NewReader(""), &bytes.Buffer{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), " qwen3 ")
	assert.NotContains(t, err.Error(), "import")
}

func TestHelp(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run([]string{"-h"}, strings.NewReader(""), &out))
	for _, flag := range []string{"parser", "stream", "chunk", "prompt", "vocab", "thinking"} {
		assert.Contains(t, out.String(), "  -"+flag, "-h describes -%s", flag)
	}
	assert.True(t, strings.HasPrefix(out.String(), "usage: split"))
}

// TestVocab streams a sample one real token per delta through a real
// vocabulary and checks the totals against the whole split.
func TestVocab(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	dir, ok := testvocab.Dir()
	if !ok {
		t.Skip("no vocabularies; set REASONING_VOCAB_DIR")
	}
	var whole, streamed bytes.Buffer
	sample := "../../testdata/samples/qwen3.txt"
	vocab := filepath.Join(dir, "qwen3")
	require.NoError(t, run([]string{"-parser", "qwen3", "-vocab", vocab, sample}, nil, &whole))
	require.NoError(t, run([]string{"-parser", "qwen3", "-vocab", vocab, "-stream", sample}, nil, &streamed))
	lines := strings.Split(strings.TrimSpace(streamed.String()), "\n")
	var total struct{ Total reasoning.Message }
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &total))
	var want reasoning.Message
	require.NoError(t, json.Unmarshal(whole.Bytes(), &want))
	assert.Equal(t, want, total.Total)
	assert.Greater(t, len(lines), 20, "one line per token that emitted something")
}
