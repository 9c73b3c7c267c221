package namedocs

import (
	"testing"

	"github.com/reasoning-go/reasoning"
)

var infos = []reasoning.Info{
	{Name: "alpha", Aliases: []string{"a-1"}, Engine: "vLLM", Summary: "`<a|b>`…`</a|b>`", SwitchKeys: []string{"enable_thinking"}},
	{Name: "beta_long", Engine: "Dynamo", Summary: "as `alpha`"},
}

func TestMarkdown(t *testing.T) {
	const want = "| name | aliases | engine | what it does | thinking switch keys |\n|---|---|---|---|---|\n" +
		"| `alpha` | `a-1` | vLLM | `<a\\|b>`…`</a\\|b>` | `enable_thinking` |\n" +
		"| `beta_long` |  | Dynamo | as `alpha` | none |\n"
	if got := Markdown(infos); got != want {
		t.Errorf("Markdown:\n%s\nwant:\n%s", got, want)
	}
	readme := "# x\n\n" + ReadmeBegin + "\nold\n" + ReadmeEnd + "\nafter\n"
	next, err := SpliceReadme(readme, want)
	if err != nil {
		t.Fatal(err)
	}
	if table, _ := ReadmeTable(next); table != want {
		t.Errorf("ReadmeTable after SpliceReadme = %q, want %q", table, want)
	}
	if _, err := SpliceReadme("no table", want); err == nil {
		t.Error("SpliceReadme without the marker lines: no error")
	}
}

func TestGoDoc(t *testing.T) {
	const want = "//\talpha      <a|b>…</a|b> (a-1)\n//\tbeta_long  as alpha\n"
	if got := GoDoc(infos); got != want {
		t.Errorf("GoDoc = %q, want %q", got, want)
	}
	src := "// Package p.\n//\n" + GoDocIntro + "\n//\n//\told line\n//\n// More.\npackage p\n"
	next, err := SpliceGoDoc(src, want)
	if err != nil {
		t.Fatal(err)
	}
	if wantSrc := "// Package p.\n//\n" + GoDocIntro + "\n//\n" + want + "//\n// More.\npackage p\n"; next != wantSrc {
		t.Errorf("SpliceGoDoc = %q, want %q", next, wantSrc)
	}
}
