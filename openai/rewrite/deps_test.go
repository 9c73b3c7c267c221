package rewrite

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoNetHTTP: the package is for stacks other than net/http (fasthttp,
// custom pipelines), so no package of this module that it imports, directly
// or not, may import net/http. The one way in that remains is the tiktoken
// vocabulary loader of github.com/pkoukk/tiktoken-go (package tokenizer's
// chosen dependency), which can fetch encodings over HTTP; no other
// third-party package may bring it either.
func TestNoNetHTTP(t *testing.T) {
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command(gotool, "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, " ")
		if pkg == "net/http" || strings.HasPrefix(pkg, "net/http/") || strings.HasPrefix(pkg, "vendor/") {
			continue // the standard library's own
		}
		for _, imp := range strings.Fields(imports) {
			if imp != "net/http" && !strings.HasPrefix(imp, "net/http/") {
				continue
			}
			if strings.HasPrefix(pkg, "github.com/pkoukk/tiktoken-go") {
				continue // its vocabulary loader; see the test's doc
			}
			t.Errorf("%s imports %s, and package rewrite imports %s", pkg, imp, pkg)
		}
	}
}
