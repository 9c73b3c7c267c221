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

// TestEndIDs checks reasoning.EndMarker: every parser that splits
// reasoning has it (identity and minimax_m2_append_think split none), and
// one built without a tokenizer returns nil. With a real vocabulary, a
// family whose reasoning ends at a text it names returns that text's IDs,
// and one that names none (Muse's channels, Hunyuan's token state machine,
// Inkling's blocks) returns nil, which leaves a Gate's budget inert as not
// having EndMarker would.
func TestEndIDs(t *testing.T) {
	splitsNone := map[string]bool{"identity": true, "minimax_m2_append_think": true}
	for _, name := range reasoning.Names() {
		p, err := reasoning.New(name, nil, thinkingOn)
		if err != nil {
			continue // needs a tokenizer (hf): checked with one below where a vocabulary serves it
		}
		m, ok := p.(reasoning.EndMarker)
		switch {
		case !ok && !splitsNone[name]:
			t.Errorf("%s: %T is no reasoning.EndMarker", name, p)
		case ok && m.EndIDs() != nil:
			t.Errorf("%s without a tokenizer: EndIDs() = %v, want nil", name, m.EndIDs())
		}
	}
	for _, tc := range []struct{ name, end string }{
		{"qwen3", "</think>"},
		{"deepseek_r1", "</think>"},
		{"openai_gptoss", "<|end|><|start|>assistant<|channel|>final<|message|>"},
		{"muse_spark", ""},
		{"muse_glimmer", ""},
		{"hunyuan_a13b", ""},
		{"inkling", ""},
		{"apertus2509", "<|inner_suffix|>"},
		{"intern_s1", "</think>"},
		{"solar_open2", "<|think:end|>"},
	} {
		tok, _ := vocabFor(t, tc.name)
		p, err := reasoning.New(tc.name, tok, thinkingOn)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		m, ok := p.(reasoning.EndMarker)
		if !ok {
			t.Errorf("%s: %T is no reasoning.EndMarker", tc.name, p)
			continue
		}
		ids := m.EndIDs()
		switch {
		case tc.end == "" && ids != nil:
			t.Errorf("%s: EndIDs() = %v, want nil: the family names no end text", tc.name, ids)
		case tc.end != "" && tok.Decode(ids) != tc.end:
			t.Errorf("%s: EndIDs() = %v, decoded %q, want the IDs of %q", tc.name, ids, tok.Decode(ids), tc.end)
		}
	}
}
