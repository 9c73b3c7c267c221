package openai

import (
	"bytes"
	"log"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/openai/rewrite"
)

// TestOneOptionList: one list of options, this package's and package
// rewrite's, configures a rewrite.Config (which ignores WithErrorLog) and
// a Handler (which logs there); the zero Option sets nothing.
func TestOneOptionList(t *testing.T) {
	var logged bytes.Buffer
	opts := []rewrite.Option{{}, WithErrorLog(log.New(&logged, "", 0)), rewrite.WithParser("qwen-4")}
	_, err := rewrite.NewConfig(opts...)
	require.ErrorIs(t, err, reasoning.ErrUnknownParser)

	gw := httptest.NewServer(NewHandler(mustURL(t, "http://127.0.0.1:1"), opts...))
	t.Cleanup(gw.Close)
	resp, err := http.Post(gw.URL+"/v1/chat/completions", "application/json", strings.NewReader(`{}`))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusInternalServerError, resp.StatusCode)
	assert.Contains(t, logged.String(), "qwen-4")
}

// TestGoDocNamesNoInternalType: what go doc shows of packages openai and
// openai/rewrite names no type of an internal package, which a reader
// cannot look up (Option was func(*settings.Settings)).
func TestGoDocNamesNoInternalType(t *testing.T) {
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	for _, pkg := range []string{".", "./rewrite"} {
		out, err := exec.Command(gotool, "doc", "-all", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go doc -all %s: %v\n%s", pkg, err, out)
		}
		for _, internal := range []string{"settings.", "fake.", "/internal/"} {
			for _, line := range strings.Split(string(out), "\n") {
				if strings.Contains(line, internal) {
					t.Errorf("go doc -all %s shows %s: %q", pkg, internal, line)
				}
			}
		}
	}
}
