package parsers

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
)

// TestFeedWholeAgrees holds a think-tag family's Extract, which moves by
// the family's table where the state holds nothing (driver.feedWhole,
// tagGrammar.move), to the driver's feed of the same grammar marker by
// marker, for every think-tag name, started in
// reasoning, in content and where the family starts by default. The
// outputs are the family's markers among text that exercises what the
// loop leaves to the driver: markers that do not count where they come,
// tool-call openers kept in content, whitespace a family trims or holds,
// labels, wrappers and tails, and markers cut short by the end.
func TestFeedWholeAgrees(t *testing.T) {
	configs := []struct {
		name string
		opts []reasoning.Option
	}{
		{"default", []reasoning.Option{thinkingOn}},
		{"forced", []reasoning.Option{reasoning.WithForceReasoning(true)}},
		{"content", []reasoning.Option{reasoning.WithForceReasoning(false)}},
	}
	for _, name := range reasoning.Names() {
		for _, c := range configs {
			p, err := reasoning.New(name, conformance.Tokenizer(name, nil), c.opts...)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			sh, ok := p.(*shell)
			if !ok {
				continue
			}
			tg, ok := sh.initial.(*tagGrammar)
			if !ok {
				continue // not a think-tag family
			}
			for i, out := range feedWholeOutputs(tg.fam, 300) {
				got := p.Extract(out)
				want := collectText(sh.fresh(false), out, new(gather))
				if got != want {
					t.Fatalf("%s/%s: output %d %q:\nExtract  %+v\ndriver's %+v", name, c.name, i, out, got, want)
				}
			}
		}
	}
}

// feedWholeOutputs returns n outputs for f, a few written out, the rest
// drawn from f's markers, their prefixes and the text its rules read.
func feedWholeOutputs(f *tagFamily, n int) []string {
	pieces := []string{"a", "text ", " ", "\n", "\n\n", "<", "x\n"}
	for _, mk := range f.markers {
		pieces = append(pieces, mk, mk, mk[:len(mk)-1])
	}
	if f.label != "" {
		pieces = append(pieces, f.label, f.label[:len(f.label)/2])
	}
	if f.tail.chars != "" {
		pieces = append(pieces, f.tail.chars[:1], string(f.tail.end))
	}
	outs := []string{""}
	for _, mk := range f.markers { // each marker alone, among text, twice
		outs = append(outs, mk, "a"+mk+"b", "a "+mk+" b"+mk+"c\n")
	}
	for i := range f.markers { // each pair of markers in turn
		for j := range f.markers {
			outs = append(outs, "r"+f.markers[i]+"m"+f.markers[j]+"e")
		}
	}
	rng := rand.New(rand.NewPCG(1, uint64(len(f.markers))))
	for len(outs) < n {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		outs = append(outs, b.String())
	}
	return outs
}
