package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseArgsErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "usage: gateway"},
		{[]string{"-upstream", "127.0.0.1:8000"}, "want an http or https URL"},
		{[]string{"-upstream", "http://127.0.0.1:8000/v1"}, `without /v1 (-upstream http://127.0.0.1:8000)`},
		{[]string{"-upstream", "https://llm.example/openai/v1/"}, `without /v1 (-upstream https://llm.example/openai)`},
		{[]string{"-upstream", "http://x", "-field", "thoughts"}, `want both, reasoning or reasoning_content`},
		{[]string{"-upstream", "http://x", "-history", "forget"}, `want drop, render or keep`},
		{[]string{"-upstream", "http://x", "-default-thinking", "sometimes"}, "want enabled, disabled or auto"},
		{[]string{"-upstream", "http://x", "-default-chat-template-kwargs", "[1]"}, "-default-chat-template-kwargs"},
		{[]string{"-upstream", "http://x", "-default-chat-template-kwargs", "null"}, "want a JSON object"},
		{[]string{"-upstream", "http://x", "-parser", "k2_horizon", "-default-chat-template-kwargs", `{"reasoning_effort":"none"}`},
			"unsupported reasoning_effort"},
		{[]string{"-upstream", "http://x", "extra"}, "usage: gateway"},
	} {
		_, _, _, err := parseArgs(c.args, io.Discard)
		if assert.Error(t, err, c.args) {
			assert.Contains(t, err.Error(), c.want, c.args)
		}
	}
}

// TestUnknownParserSpeaksToTheCommandLine: the library's error advises a
// forgotten import, which means nothing to someone running the command.
func TestUnknownParserSpeaksToTheCommandLine(t *testing.T) {
	_, _, _, err := parseArgs([]string{"-upstream", "http://x", "-parser", "qwen-4"}, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `-parser "qwen-4": no parser has this name; the names are: `)
	assert.Contains(t, err.Error(), " qwen3 ")
	assert.Contains(t, err.Error(), "leave -parser out")
	assert.NotContains(t, err.Error(), "import")
}

func TestHelp(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-h"}, &out, io.Discard))
	for _, flag := range []string{"listen", "upstream", "parser", "field", "history", "default-thinking", "default-chat-template-kwargs"} {
		assert.Contains(t, out.String(), "  -"+flag+" ", "-h describes -%s", flag)
	}
	assert.True(t, strings.HasPrefix(out.String(), "usage: gateway"))
}

// TestRun serves the command against a fake upstream and sends it a chat
// request: the flags reach the Handler, other paths pass through.
func TestRun(t *testing.T) {
	var got struct {
		mu   sync.Mutex
		body map[string]any
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		got.mu.Lock()
		json.NewDecoder(r.Body).Decode(&got.body)
		got.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"<think>r</think>c"},"finish_reason":"stop"}]}`)
	})
	mux.HandleFunc("/v1/models", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"data":[]}`) })
	up := httptest.NewServer(mux)
	defer up.Close()

	ctx, cancel := context.WithCancel(context.Background())
	var stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-listen", "127.0.0.1:0", "-upstream", up.URL, "-parser", "DeepSeek-R1",
			"-field", "reasoning_content", "-default-thinking", "enabled", "-default-chat-template-kwargs", `{"custom":1}`}, io.Discard, &stderr)
	}()
	var addr string
	require.Eventually(t, func() bool {
		line := stderr.String()
		if i := strings.Index(line, "http://"); i >= 0 {
			addr, _, _ = strings.Cut(line[i:], " ")
			return true
		}
		return false
	}, 5*time.Second, 10*time.Millisecond)

	resp, err := http.Post(addr+"/v1/chat/completions", "application/json", strings.NewReader(`{"model":"x","messages":[]}`))
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.JSONEq(t, `{"choices":[{"index":0,"message":{"role":"assistant","content":"c","reasoning_content":"r"},"finish_reason":"stop"}]}`, string(body))
	got.mu.Lock()
	kwargs, _ := got.body["chat_template_kwargs"].(map[string]any)
	assert.Equal(t, float64(1), kwargs["custom"], "the deployment's kwargs go upstream")
	assert.Equal(t, true, kwargs["thinking"], "and so does its thinking mode")
	got.mu.Unlock()

	resp, err = http.Get(addr + "/v1/models")
	require.NoError(t, err)
	models, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, `{"data":[]}`, string(models))
	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return after its context was done")
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader in two
// goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
