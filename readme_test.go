package reasoning_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// exampleRef is the comment that names, above a Go snippet in README.md,
// the Example function whose body the snippet is (or "imports": import
// lines of that file).
var exampleRef = regexp.MustCompile(`^<!-- example: (\S+) (\S+) -->$`)

// TestReadmeExamples checks that every Go snippet in README.md is, line for
// line, the body of the Example function its comment names, or import
// lines of the file it names, so that what the README shows compiles, and
// runs as shown where it shows an Output.
func TestReadmeExamples(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(readme), "\n")
	snippets := 0
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```go" {
			continue
		}
		end := i + 1
		for end < len(lines) && lines[end] != "```" {
			end++
		}
		snippet := strings.Join(lines[i+1:end], "\n")
		at := "README.md:" + strconv.Itoa(i+1)
		snippets++
		ref := exampleRef.FindStringSubmatch(lines[max(i-1, 0)])
		if ref == nil {
			t.Errorf("%s: a Go snippet without an <!-- example: FILE FUNCTION --> line above it; make it the body of an Example", at)
		} else {
			checkSnippet(t, at, snippet, ref[1], ref[2])
		}
		i = end
	}
	if snippets == 0 {
		t.Fatal("README.md has no Go snippets")
	}
}

// checkSnippet checks one README snippet against function fn (or the
// imports) of the Go file at path.
func checkSnippet(t *testing.T, at, snippet, path, fn string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%s: %v", at, err)
		return
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		t.Errorf("%s: %v", at, err)
		return
	}
	if fn == "imports" {
		have := map[string]bool{}
		for _, spec := range f.Imports {
			line := spec.Path.Value
			if spec.Name != nil {
				line = spec.Name.Name + " " + line
			}
			have[line] = true
		}
		for _, line := range strings.Split(snippet, "\n") {
			if line = strings.TrimSpace(line); line != "import (" && line != ")" && line != "" && !have[line] {
				t.Errorf("%s: %s does not import %s", at, path, line)
			}
		}
		return
	}
	var decl *ast.FuncDecl
	for _, d := range f.Decls {
		if d, ok := d.(*ast.FuncDecl); ok && d.Recv == nil && d.Name.Name == fn {
			decl = d
		}
	}
	if decl == nil || !strings.HasPrefix(fn, "Example") {
		t.Errorf("%s: %s has no Example function %s", at, path, fn)
		return
	}
	body := string(src[fset.Position(decl.Body.Lbrace).Offset+1 : fset.Position(decl.Body.Rbrace).Offset])
	var want []string
	for _, line := range strings.Split(strings.Trim(body, "\n"), "\n") {
		want = append(want, strings.TrimPrefix(line, "\t"))
	}
	if diff := cmp.Diff(want, strings.Split(snippet, "\n")); diff != "" {
		t.Errorf("%s: the snippet differs from the body of %s in %s (-%s +README):\n%s", at, fn, path, fn, diff)
	}
	if strings.Contains(snippet, "// Output:") {
		for _, ex := range doc.Examples(f) {
			if "Example"+ex.Name == fn && ex.Output == "" && !ex.EmptyOutput {
				t.Errorf("%s: %s shows an Output that go test does not check (the Output comment must be its last comment group)", at, fn)
			}
		}
	}
}
