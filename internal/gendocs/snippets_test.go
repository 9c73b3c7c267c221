package main

import (
	"os"
	"strings"
	"testing"
)

const exampleSrc = `package p_test

import (
	"fmt"

	"example.com/p"
)

func Example() {
	fmt.Println(p.X)
	// Output: 1
}

func ExampleUnchecked() {
	// Output: 2
	fmt.Println(2)
	// A later comment: the Output above is not the last.
}
`

func files(path string) ([]byte, error) {
	if path == "example_test.go" {
		return []byte(exampleSrc), nil
	}
	return nil, os.ErrNotExist
}

func TestSnippets(t *testing.T) {
	readme := "# p\n\n<!-- example: example_test.go imports -->\n```go\nimport (\n\t\"example.com/p\"\n)\n```\n\n" +
		"<!-- example: example_test.go Example -->\n```go\nold\n```\ntext\n"
	got, err := snippets(readme, files)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(readme, "old", "fmt.Println(p.X)\n// Output: 1", 1)
	if got != want {
		t.Errorf("snippets:\n%s\nwant:\n%s", got, want)
	}
	for _, tt := range []struct{ readme, err string }{
		{"```go\nx\n```\n", "without an <!-- example"},
		{"<!-- example: example_test.go imports -->\n```go\nimport (\n\t\"os\"\n)\n```\n", `does not import "os"`},
		{"<!-- example: example_test.go ExampleNone -->\n```go\nx\n```\n", "has no Example function ExampleNone"},
		{"<!-- example: example_test.go ExampleUnchecked -->\n```go\nx\n```\n", "an Output that go test does not check"},
		{"<!-- example: missing.go Example -->\n```go\nx\n```\n", "file does not exist"},
		{"no snippets\n", "no Go snippets"},
	} {
		if _, err := snippets(tt.readme, files); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("snippets(%q) error = %v, want one containing %q", tt.readme, err, tt.err)
		}
	}
}
