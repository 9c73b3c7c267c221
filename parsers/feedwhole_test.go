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
// marker, for every think-tag name, under configurations that start it in
// reasoning, in content, where the family starts by default, with thinking
// off and after prompts. Where Extract's scanner watches every marker
// (wideMarkers), it is held too to the same Extract watching only the
// markers that count. The outputs are the family's markers among text
// that exercises what the loop leaves to the driver: markers that do not
// count where they come, tool-call openers kept in content, whitespace a
// family trims or holds, labels, wrappers and tails, and markers cut short
// by the end; and long ones past farText, where the scanner's search takes
// indexFar (200 of them, 1,500 with REASONING_SWEEP=full, none with
// -short).
func TestFeedWholeAgrees(t *testing.T) {
	configs := []struct {
		name string
		opts []reasoning.Option
	}{
		{"default", []reasoning.Option{thinkingOn}},
		{"forced", []reasoning.Option{reasoning.WithForceReasoning(true)}},
		{"content", []reasoning.Option{reasoning.WithForceReasoning(false)}},
		{"thinking off", []reasoning.Option{reasoning.WithThinking(false)}},
		{"prompt opens", []reasoning.Option{reasoning.WithPrompt("user: hi\nassistant: <think>", nil)}},
		{"prompt closes", []reasoning.Option{reasoning.WithPrompt("x<think>a</think>b\nassistant:", nil)}},
		{"prompt ends open", []reasoning.Option{reasoning.WithPrompt("<think>\n", nil), thinkingOn}},
		{"non-empty content", []reasoning.Option{reasoning.WithNonEmptyContent(true)}},
		{"reasoning not streamed", []reasoning.Option{reasoning.WithStreamReasoning(false)}},
	}
	long := 200
	switch {
	case conformance.FullSweep():
		long = 1500
	case testing.Short(): // the race run: the plain go test run has them
		long = 0
	}
	wide := 0
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
			var narrow *shell // Extract watching only the markers that count
			if sh.wideExtract() {
				wide++
				q, _ := reasoning.New(name, conformance.Tokenizer(name, nil), c.opts...)
				narrow = q.(*shell)
				narrow.wide = -1
			}
			outs := append(feedWholeOutputs(tg.fam, 300), longOutputs(tg.fam, long)...)
			for i, out := range outs {
				got := p.Extract(out)
				want := collectText(sh.fresh(false), out, new(gather))
				if got != want {
					t.Fatalf("%s/%s: output %d %q:\nExtract  %+v\ndriver's %+v", name, c.name, i, out, got, want)
				}
				if narrow != nil {
					if n := narrow.Extract(out); got != n {
						t.Fatalf("%s/%s: output %d %q:\nExtract watching every marker %+v\nwatching those that count     %+v", name, c.name, i, out, got, n)
					}
				}
			}
		}
	}
	if wide == 0 {
		t.Fatal("no name's Extract watches every marker: the wide watch goes unchecked")
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

// longOutputs returns n outputs for f, seeded, of up to 30 pieces drawn
// from f's markers, their cuts (a marker less its last byte or its first,
// one after its own first byte), runs of their first byte and long text,
// many of them past farText.
func longOutputs(f *tagFamily, n int) []string {
	pieces := []string{"a", "text ", " ", "\n", "\n\n", "<", "x\n", "<<", "<a>", "</",
		strings.Repeat("<", 40), strings.Repeat("y", 700), strings.Repeat("<z", 300)}
	for _, mk := range f.markers {
		pieces = append(pieces, mk, mk, mk[:len(mk)-1], mk[1:], mk[:1]+mk)
	}
	if f.label != "" {
		pieces = append(pieces, f.label)
	}
	rng := rand.New(rand.NewPCG(20261205, uint64(len(f.markers))))
	outs := make([]string, n)
	for i := range outs {
		var b strings.Builder
		for range 1 + rng.IntN(30) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		outs[i] = b.String()
	}
	return outs
}
