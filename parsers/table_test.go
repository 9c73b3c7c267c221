package parsers

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
)

var update = flag.Bool("update", false, "rewrite testdata/thinktag_tables.golden from the compiled tables")

// TestTagTables prints every think-tag family's compiled transition table and
// compares it with testdata/thinktag_tables.golden, so that a change of what a
// marker does shows up in review as a diff of rows. go test -run
// TestTagTables -update rewrites the file.
func TestTagTables(t *testing.T) {
	var b strings.Builder
	for _, name := range reasoning.Names() {
		p, err := reasoning.New(name, conformance.Tokenizer(name, nil), reasoning.WithForceReasoning(true))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sp, ok := p.(*shell)
		if !ok {
			continue
		}
		tg, ok := sp.initial.(*tagGrammar)
		if !ok {
			continue // not a think-tag family
		}
		printTable(&b, name, tg.fam)
	}
	golden := filepath.Join("..", "testdata", "thinktag_tables.golden")
	got := b.String()
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -run TestTagTables -update writes it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			g, w := at(gl, i), at(wl, i)
			if g != w {
				t.Fatalf("the compiled tables differ from %s from line %d:\n got: %s\nwant: %s\n(go test -run TestTagTables -update rewrites it after review)", golden, i+1, g, w)
			}
		}
	}
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "<end>"
}

// printTable writes f's rows: the spec's enums and rules, then for each
// structure a response can reach, the markers that count there and where
// each kind leads.
func printTable(b *strings.Builder, name string, f *tagFamily) {
	fmt.Fprintf(b, "%s: start %v, repeats %v", name, f.spec.Start, f.spec.Repeats)
	if f.thinking != nil {
		fmt.Fprintf(b, ", switch %q default %v, off %v", f.spec.Thinking.Keys, f.spec.Thinking.Default, [...]string{"identity", "content", "closed"}[f.off])
	}
	b.WriteString("\n")
	for _, r := range f.spec.rules {
		fmt.Fprintf(b, "  rule: %s\n", r.name)
	}
	for _, k := range reachable(f) {
		fmt.Fprintf(b, "  %s\n", structureName(fromKey(k)))
		for kind := range kinds {
			ms := f.bits[kind] & f.act[k]
			if ms == 0 {
				continue
			}
			var texts []string
			for i, m := range f.markers {
				if ms&(1<<i) != 0 {
					texts = append(texts, m)
				}
			}
			mv := f.moves[k][kind]
			what := "dropped"
			if mv.keep {
				what = "kept"
			}
			holds := ""
			for _, h := range []struct {
				on   bool
				name string
			}{{mv.to.trimming, "trim"}, {mv.to.labeling, "label"}, {mv.to.inTail, "tail"}, {mv.to.gap, "gap"}} {
				if h.on {
					holds += " +" + h.name
				}
			}
			if !mv.fresh {
				holds += " (holds kept)"
			}
			fmt.Fprintf(b, "    %-10s %q %s -> %s%s\n", kindNames[kind], texts, what, structureName(mv.to), holds)
		}
	}
}

var kindNames = [kinds]string{"open", "close", "end", "tool", "drop", "tool-close", "tail"}

func structureName(s tagState) string {
	parts := []string{s.phase.String()}
	for _, f := range []struct {
		on   bool
		name string
	}{{s.opened, "opened"}, {s.seen, "seen"}, {s.begun, "begun"}, {s.inTool, "in-tool"}} {
		if f.on {
			parts = append(parts, f.name)
		}
	}
	return strings.Join(parts, " ")
}

// reachable lists, in order, the structures a response of f can be in:
// from where responses start (by default, forced, from a prompt, with the
// thinking switch off), through the output beginning and every marker that
// counts.
func reachable(f *tagFamily) []uint8 {
	starts := []tagState{
		f.defaultStart(),
		{phase: phaseReasoning, seen: true},
		{phase: phaseContent},
		{phase: phaseContent, seen: true},
	}
	seen := map[uint8]bool{}
	var queue []uint8
	add := func(s tagState) {
		if k := s.key(); !seen[k] {
			seen[k] = true
			queue = append(queue, k)
		}
	}
	for _, s := range starts {
		add(s)
	}
	for i := 0; i < len(queue); i++ {
		k := queue[i]
		s := fromKey(k)
		s.begun = true
		add(s)
		for kind := range kinds {
			if f.bits[kind]&f.act[k] != 0 {
				add(f.moves[k][kind].to)
			}
		}
	}
	slices.Sort(queue)
	return queue
}
