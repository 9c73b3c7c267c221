package parsers_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
)

// TestNamesCovered fails for a registered name that has no golden case (a
// file in ../testdata/cases whose "parser" is the name, holding a case) or
// no sample output in ../testdata/samples, which the benchmarks and the
// long-stream sweeps stream, and for a case file of a name that is not a
// registered canonical name.
func TestNamesCovered(t *testing.T) {
	files, err := filepath.Glob(casesDir + "/*.json")
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]int{}
	for _, path := range files {
		f, err := conformance.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if c, ok := reasoning.Canonical(f.Parser); !ok || c != f.Parser {
			t.Errorf("%s: parser %q is not a registered canonical name", path, f.Parser)
		}
		cases[f.Parser] += len(f.Cases) + len(f.IDCases)
	}
	for _, name := range reasoning.Names() {
		if cases[name] == 0 {
			t.Errorf("registered parser %q has no golden case in %s", name, casesDir)
		}
		sample := "../testdata/samples/" + name + ".txt"
		if raw, err := os.ReadFile(sample); err != nil || strings.TrimSpace(string(raw)) == "" {
			t.Errorf("registered parser %q has no sample output %s (%v)", name, sample, err)
		}
	}
}
