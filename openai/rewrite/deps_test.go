package rewrite

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoNetHTTP: the package is for stacks other than net/http (fasthttp,
// custom pipelines), so nothing it imports, directly or not, may be
// net/http.
func TestNoNetHTTP(t *testing.T) {
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command(gotool, "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "net/http" || strings.HasPrefix(pkg, "net/http/") {
			t.Errorf("package rewrite depends on %s; go list -deps:\n%s", pkg, out)
		}
	}
}
