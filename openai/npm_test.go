package openai

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reasoning-go/reasoning/openai/internal/fake"
)

// TestNPMOpenAIClient runs the npm openai client (testdata/npm, its
// version pinned by the lockfile) through a Handler: a streamed completion
// with two interleaved choices, a tool call and usage, a plain one, and an
// error. It needs node and npm; the package is installed once into the
// user's cache folder, keyed by the lockfile, never into the repository.
func TestNPMOpenAIClient(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the npm client test installs a package")
	}
	up := apiUpstream(t, serveSSE(11, append(clientStream[:len(clientStream):len(clientStream)], "[DONE]")...),
		clientCompletion, openAIRateLimit, "X-Request-Id")
	gw := startGateway(t, up)
	out := runNode(t, "client.mjs", gw.URL)
	var got struct {
		Stream map[int]struct {
			Reasoning        string `json:"reasoning"`
			ReasoningContent string `json:"reasoning_content"`
			Content, Tools   string
			Finish           string
		}
		Usage   int
		Message map[string]any
		Error   struct {
			Status    int
			Message   string
			RequestID string
		}
	}
	require.NoError(t, json.Unmarshal(out, &got), "%s", out)
	for i, want := range clientWant {
		s := got.Stream[i]
		assert.Equal(t, want.Reasoning, s.Reasoning, "choice %d: delta.reasoning", i)
		assert.Equal(t, want.Reasoning, s.ReasoningContent, "choice %d: delta.reasoning_content", i)
		assert.Equal(t, want.Content, s.Content, "choice %d", i)
		assert.Equal(t, want.Finish, s.Finish, "choice %d", i)
	}
	assert.Equal(t, `get_weather{"city":"Paris"}`, got.Stream[1].Tools)
	assert.Equal(t, 40, got.Usage)
	assert.Equal(t, map[string]any{"role": "assistant", "content": "done", "reasoning": "plan", "reasoning_content": "plan"}, got.Message)
	assert.Equal(t, http.StatusTooManyRequests, got.Error.Status)
	assert.Contains(t, got.Error.Message, "slow down")
	assert.Equal(t, "req-7", got.Error.RequestID)
}

// npmClient returns a folder holding testdata/npm with its packages
// installed, installing them the first time; it skips the test when node
// or npm is missing or the install fails (no registry).
func npmClient(t *testing.T) string {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the npm openai client is not tested", tool)
		}
	}
	lock, err := os.ReadFile(filepath.Join("testdata", "npm", "package-lock.json"))
	require.NoError(t, err)
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	sum := sha256.Sum256(lock)
	dir := filepath.Join(cache, "reasoning-go", "npm-"+hex.EncodeToString(sum[:8]))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "openai", "package.json")); err != nil {
		require.NoError(t, os.MkdirAll(filepath.Dir(dir), 0o755))
		tmp, err := os.MkdirTemp(filepath.Dir(dir), "install-") // renamed into place when complete
		require.NoError(t, err)
		defer os.RemoveAll(tmp)
		for _, f := range []string{"package.json", "package-lock.json"} {
			b, err := os.ReadFile(filepath.Join("testdata", "npm", f))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(tmp, f), b, 0o644))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		install := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		install.Dir = tmp
		if out, err := install.CombinedOutput(); err != nil {
			t.Skipf("npm ci failed (is the npm registry reachable?): %v\n%s", err, out)
		}
		if err := os.Rename(tmp, dir); err != nil && !os.IsExist(err) {
			if _, statErr := os.Stat(filepath.Join(dir, "node_modules")); statErr != nil {
				t.Fatalf("installing the npm client into %s: %v", dir, err)
			}
		}
	}
	scripts, err := filepath.Glob(filepath.Join("testdata", "npm", "*.mjs"))
	require.NoError(t, err)
	for _, path := range scripts {
		script, err := os.ReadFile(path)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.Base(path)), script, 0o644))
	}
	return dir
}

// runNode runs one script of testdata/npm against url and returns what it
// printed.
func runNode(t *testing.T, script, url string) []byte {
	dir := npmClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script, url)
	cmd.Dir = dir
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		t.Fatalf("node %s: %v\n%s", script, err, ee.Stderr)
	}
	require.NoError(t, err)
	return out
}

// TestNPMAnthropicClient runs the npm @anthropic-ai/sdk client through a
// Handler: a streamed message assembled by its MessageStream, a plain one,
// and an error. Like TestNPMOpenAIClient, it needs node and npm.
func TestNPMAnthropicClient(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the npm client test installs a package")
	}
	gw := startGateway(t, messagesUpstream(t, 0))
	out := runNode(t, "messages.mjs", gw.URL)
	var got struct {
		Thinking        string
		Stream, Message []map[string]any
		Error           struct {
			Status    int
			Message   string
			RequestID string
		}
	}
	require.NoError(t, json.Unmarshal(out, &got), "%s", out)
	assert.Equal(t, fake.MessagesReasoning, got.Thinking)
	require.Len(t, got.Stream, 3, "%s", out)
	assert.Equal(t, map[string]any{"type": "thinking", "thinking": fake.MessagesReasoning, "signature": ""}, got.Stream[0])
	assert.Equal(t, map[string]any{"type": "text", "text": fake.MessagesText}, got.Stream[1])
	assert.Equal(t, map[string]any{"city": "Paris"}, got.Stream[2]["input"])
	require.Len(t, got.Message, 3, "%s", out)
	assert.Equal(t, map[string]any{"type": "thinking", "thinking": "plan", "signature": ""}, got.Message[0])
	assert.Equal(t, "done", got.Message[1]["text"])
	assert.Equal(t, http.StatusTooManyRequests, got.Error.Status)
	assert.Contains(t, got.Error.Message, "slow down")
	assert.Equal(t, "req-7", got.Error.RequestID)
}

// TestNPMResponsesClient runs the npm openai client's Responses API
// through a Handler: a streamed response assembled by its ResponseStream,
// a plain one, and an error.
func TestNPMResponsesClient(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the npm client test installs a package")
	}
	gw := startGateway(t, responsesUpstream(t, -1))
	out := runNode(t, "responses.mjs", gw.URL)
	var got struct {
		Reasoning, Text string
		Stream, Message []map[string]any
		Error           struct {
			Status    int
			Message   string
			RequestID string
		}
	}
	require.NoError(t, json.Unmarshal(out, &got), "%s", out)
	assert.Equal(t, fake.ResponsesReasoning, got.Reasoning)
	assert.Equal(t, fake.ResponsesAnswer, got.Text)
	for name, output := range map[string][]map[string]any{"stream": got.Stream, "message": got.Message} {
		require.Len(t, output, 3, "%s: %s", name, out)
		assert.Equal(t, "reasoning", output[0]["type"], name)
		assert.Equal(t, "message", output[1]["type"], name)
		assert.Equal(t, "function_call", output[2]["type"], name)
	}
	assert.Equal(t, []any{map[string]any{"type": "reasoning_text", "text": fake.ResponsesReasoning}}, got.Stream[0]["content"])
	assert.Equal(t, []any{map[string]any{"type": "reasoning_text", "text": "plan"}}, got.Message[0]["content"])
	assert.Equal(t, http.StatusTooManyRequests, got.Error.Status)
	assert.Equal(t, "req-7", got.Error.RequestID)
}
