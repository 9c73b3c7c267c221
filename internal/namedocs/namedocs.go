// Package namedocs renders the registered parser names, from their
// reasoning.Info, into the docs that list them: the README's table of names
// and the name list of package parsers' doc comment. The gendocs command
// writes them (make docs); tests compare the docs with what these functions
// render.
package namedocs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reasoning-go/reasoning"
)

// The lines around the README's table.
const (
	ReadmeBegin = "<!-- names: generated from reasoning.Info by make docs; edit parsers/register.go -->"
	ReadmeEnd   = "<!-- end names -->"
)

// The line of package parsers' doc comment that the name list follows.
const GoDocIntro = "// The names, each followed by its aliases in parentheses:"

// Infos returns the Info of every name registered in r, in name order.
func Infos(r *reasoning.Registry) []reasoning.Info {
	var infos []reasoning.Info
	for _, n := range r.Names() {
		info, _ := r.Info(n)
		infos = append(infos, info)
	}
	return infos
}

// Markdown returns the README's table of names, the lines between
// ReadmeBegin and ReadmeEnd.
func Markdown(infos []reasoning.Info) string {
	var b strings.Builder
	b.WriteString("| name | aliases | engine | what it does | thinking switch keys |\n|---|---|---|---|---|\n")
	for _, i := range infos {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", i.Name, codes(i.Aliases, ""), i.Engine,
			strings.ReplaceAll(i.Summary, "|", `\|`), codes(i.SwitchKeys, "none"))
	}
	return b.String()
}

// codes sets each of ss as a code span, or returns none for no ss.
func codes(ss []string, none string) string {
	if len(ss) == 0 {
		return none
	}
	out := make([]string, len(ss))
	for k, s := range ss {
		out[k] = "`" + strings.ReplaceAll(s, "|", `\|`) + "`"
	}
	return strings.Join(out, ", ")
}

// GoDoc returns the name list of package parsers' doc comment: the comment
// lines between GoDocIntro's blank line and the next, as a code block.
func GoDoc(infos []reasoning.Info) string {
	width := 0
	for _, i := range infos {
		width = max(width, len(i.Name))
	}
	var b strings.Builder
	for _, i := range infos {
		line := fmt.Sprintf("%-*s  %s", width, i.Name, strings.ReplaceAll(i.Summary, "`", ""))
		if len(i.Aliases) > 0 {
			line += " (" + strings.Join(i.Aliases, ", ") + ")"
		}
		b.WriteString("//\t" + line + "\n")
	}
	return b.String()
}

// SpliceReadme returns readme with its table of names replaced by table.
func SpliceReadme(readme, table string) (string, error) {
	begin := strings.Index(readme, ReadmeBegin+"\n")
	end := strings.Index(readme, "\n"+ReadmeEnd)
	if begin < 0 || end < begin {
		return "", fmt.Errorf("namedocs: README has no %q ... %q lines", ReadmeBegin, ReadmeEnd)
	}
	return readme[:begin+len(ReadmeBegin)+1] + table + readme[end+1:], nil
}

// ReadmeTable returns the table of names in readme.
func ReadmeTable(readme string) (string, error) {
	begin := strings.Index(readme, ReadmeBegin+"\n")
	end := strings.Index(readme, "\n"+ReadmeEnd)
	if begin < 0 || end < begin {
		return "", fmt.Errorf("namedocs: README has no %q ... %q lines", ReadmeBegin, ReadmeEnd)
	}
	return readme[begin+len(ReadmeBegin)+1 : end+1], nil
}

// SpliceGoDoc returns the source of package parsers' doc.go with its name
// list replaced by list.
func SpliceGoDoc(src, list string) (string, error) {
	lines := strings.SplitAfter(src, "\n")
	at := slices.Index(lines, GoDocIntro+"\n")
	if at < 0 || at+1 >= len(lines) || lines[at+1] != "//\n" {
		return "", fmt.Errorf("namedocs: doc.go has no %q line followed by a blank comment line", GoDocIntro)
	}
	start := at + 2
	end := start
	for end < len(lines) && strings.HasPrefix(lines[end], "//\t") {
		end++
	}
	return strings.Join(lines[:start], "") + list + strings.Join(lines[end:], ""), nil
}

// The lines around README.md's table of Ollama's parser names.
const (
	OllamaBegin = "<!-- ollama: generated from parsers.OllamaNames by make docs; edit parsers/ollama.go -->"
	OllamaEnd   = "<!-- end ollama -->"
)

// An OllamaRow is one row of the table of Ollama's parser names.
type OllamaRow struct{ Ollama, Name, Behaviour string }

// OllamaMarkdown returns the README's table of Ollama's parser names.
func OllamaMarkdown(rows []OllamaRow) string {
	var b strings.Builder
	b.WriteString("| Ollama parser | what it does there | name here |\n|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", r.Ollama, strings.ReplaceAll(r.Behaviour, "|", "\\|"), r.Name)
	}
	return b.String()
}

// SpliceOllama returns readme with its table of Ollama's parser names
// replaced by table.
func SpliceOllama(readme, table string) (string, error) {
	begin := strings.Index(readme, OllamaBegin+"\n")
	end := strings.Index(readme, "\n"+OllamaEnd)
	if begin < 0 || end < begin {
		return "", fmt.Errorf("namedocs: README has no %q ... %q lines", OllamaBegin, OllamaEnd)
	}
	return readme[:begin+len(OllamaBegin)+1] + table + readme[end+1:], nil
}
