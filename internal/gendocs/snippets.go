package main

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// exampleRef is the comment that names, above a Go snippet in README.md,
// the Example function whose body the snippet is (or "imports": import
// lines of that file).
var exampleRef = regexp.MustCompile(`^<!-- example: (\S+) (\S+) -->$`)

// snippets returns readme with every Go snippet made the body of the Example
// function its comment names, so that what the README shows compiles, and
// runs as shown where it shows an Output. A snippet of "imports" is
// checked, not written: each of its lines must be an import of the file it
// names. read returns a file's source by its path from the module root.
func snippets(readme string, read func(path string) ([]byte, error)) (string, error) {
	lines := strings.Split(readme, "\n")
	found := 0
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```go" {
			continue
		}
		end := i + 1
		for end < len(lines) && lines[end] != "```" {
			end++
		}
		at := "README.md:" + strconv.Itoa(i+1)
		found++
		ref := exampleRef.FindStringSubmatch(lines[max(i-1, 0)])
		if ref == nil {
			return "", fmt.Errorf("%s: a Go snippet without an <!-- example: FILE FUNCTION --> line above it; make it the body of an Example", at)
		}
		body, err := exampleBody(at, strings.Join(lines[i+1:end], "\n"), ref[1], ref[2], read)
		if err != nil {
			return "", err
		}
		lines = append(lines[:i+1], append(body, lines[end:]...)...)
		i += len(body) + 1
	}
	if found == 0 {
		return "", fmt.Errorf("README.md has no Go snippets")
	}
	return strings.Join(lines, "\n"), nil
}

// exampleBody returns the lines of function fn of the Go file at path, the
// snippet at at is to show; for "imports", the snippet itself once its
// lines are checked.
func exampleBody(at, snippet, path, fn string, read func(string) ([]byte, error)) ([]string, error) {
	src, err := read(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", at, err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", at, err)
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
				return nil, fmt.Errorf("%s: %s does not import %s", at, path, line)
			}
		}
		return strings.Split(snippet, "\n"), nil
	}
	var decl *ast.FuncDecl
	for _, d := range f.Decls {
		if d, ok := d.(*ast.FuncDecl); ok && d.Recv == nil && d.Name.Name == fn {
			decl = d
		}
	}
	if decl == nil || !strings.HasPrefix(fn, "Example") {
		return nil, fmt.Errorf("%s: %s has no Example function %s", at, path, fn)
	}
	body := string(src[fset.Position(decl.Body.Lbrace).Offset+1 : fset.Position(decl.Body.Rbrace).Offset])
	var out []string
	for _, line := range strings.Split(strings.Trim(body, "\n"), "\n") {
		out = append(out, strings.TrimPrefix(line, "\t"))
	}
	if strings.Contains(body, "// Output:") {
		for _, ex := range doc.Examples(f) {
			if "Example"+ex.Name == fn && ex.Output == "" && !ex.EmptyOutput {
				return nil, fmt.Errorf("%s: %s shows an Output that go test does not check (the Output comment must be its last comment group)", at, fn)
			}
		}
	}
	return out, nil
}

// readFrom returns a reader of files by their path from root.
func readFrom(root string) func(string) ([]byte, error) {
	return func(path string) ([]byte, error) { return os.ReadFile(filepath.Join(root, path)) }
}
