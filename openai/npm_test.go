package openai

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	dir := npmClient(t)
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model  string
			Stream bool
		}
		json.NewDecoder(r.Body).Decode(&req)
		switch {
		case req.Model == "fail":
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("X-Request-Id", "req-7")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":{"message":"slow down","type":"rate_limit","param":null,"code":"429"}}`)
		case req.Stream:
			serveSSE(11, append(clientStream[:len(clientStream):len(clientStream)], "[DONE]")...)(w, r)
		default:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, clientCompletion)
		}
	})
	gw := startGateway(t, up)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "client.mjs", gw.URL)
	cmd.Dir = dir
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		t.Fatalf("node client.mjs: %v\n%s", err, ee.Stderr)
	}
	require.NoError(t, err)
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
	script, err := os.ReadFile(filepath.Join("testdata", "npm", "client.mjs"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "client.mjs"), script, 0o644))
	return dir
}
