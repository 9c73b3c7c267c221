// Command gendocs writes the registered parser names, from their
// reasoning.Info (declared in parsers/register.go), into README.md's table
// of names and package parsers' doc comment, and makes each Go snippet of
// README.md the body of the Example function its <!-- example: FILE
// FUNCTION --> line names (FUNCTION "imports": lines the file imports), so
// that what the README shows compiles, and runs as shown where it shows an
// Output. With -check it writes nothing and fails when a doc differs from
// what it would write.
//
// Usage, from the module root:
//
//	go run ./internal/gendocs [-check]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/namedocs"
	"github.com/reasoning-go/reasoning/parsers"
)

// ollamaRows are the rows of the README's table of Ollama's parser names.
func ollamaRows() []namedocs.OllamaRow {
	var rows []namedocs.OllamaRow
	for _, o := range parsers.OllamaNames() {
		name := "`" + o.Name + "`"
		if o.ThinkingOff {
			name += ", thinking off"
		}
		rows = append(rows, namedocs.OllamaRow{Ollama: o.Ollama, Name: name, Behaviour: o.Behaviour})
	}
	return rows
}

func main() {
	root := flag.String("root", ".", "the module root")
	check := flag.Bool("check", false, "fail when a doc is not what would be written, and write nothing")
	flag.Parse()
	if err := run(*root, *check); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

func run(root string, check bool) error {
	infos := namedocs.Infos(reasoning.Default)
	for _, doc := range []struct {
		path   string
		splice func(old string) (string, error)
	}{
		{"README.md", func(old string) (string, error) {
			next, err := namedocs.SpliceReadme(old, namedocs.Markdown(infos))
			if err != nil {
				return "", err
			}
			if next, err = namedocs.SpliceOllama(next, namedocs.OllamaMarkdown(ollamaRows())); err != nil {
				return "", err
			}
			return snippets(next, readFrom(root))
		}},
		{"parsers/doc.go", func(old string) (string, error) { return namedocs.SpliceGoDoc(old, namedocs.GoDoc(infos)) }},
	} {
		path := filepath.Join(root, doc.path)
		old, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		next, err := doc.splice(string(old))
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		switch {
		case next == string(old):
		case check:
			return fmt.Errorf("%s is not what make docs writes (names from reasoning.Info, README snippets from their Examples): run make docs", path)
		default:
			if err := os.WriteFile(path, []byte(next), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
