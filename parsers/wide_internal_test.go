package parsers

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
)

// TestWideMarkers checks which marker sets Extract's scanner may watch
// whole (wideMarkers): few, one first byte, and no marker ending in what
// another begins with, where one taken for text would hide one that
// counts.
func TestWideMarkers(t *testing.T) {
	for _, c := range []struct {
		markers []string
		want    bool
	}{
		{[]string{"<think>", "</think>"}, true},
		{[]string{"<think>"}, true},
		{[]string{"<think>", "</think>", "<seed:think>", "</seed:think>"}, true},
		{[]string{"<think>", "</think>", "<a>", "<b>", "<c>"}, false}, // more than wideMax
		{[]string{"<think>", "[THINK]"}, false},                       // two first bytes
		{[]string{"<a<", "<b>"}, false},                               // "<a<" ends in what "<b>" begins with
		{[]string{"<b>", "<a<"}, false},                               // in either order
		{[]string{"<ab", "<b>x"}, true},                               // "b" begins no marker
		{[]string{"<x|", "<|y"}, true},                                // "|" is inside both, but neither ends in the other's start
	} {
		if got := wideMarkers(c.markers); got != c.want {
			t.Errorf("wideMarkers(%q) = %t, want %t", c.markers, got, c.want)
		}
	}
}

// TestWideExtractAgrees holds Extract where its scanner watches every
// marker (wideMarkers) to the same Extract with the scanner watching only
// the markers that count, and to the driver's feed, for every think-tag
// name it applies to, under configurations that start the response in
// either section (forced, thinking off, prompts): random outputs of
// markers, their cuts, runs of their first byte and long text, many over
// farText bytes, where the scanner's search takes indexFar. make test runs
// 500 outputs per name and configuration, make check (REASONING_SWEEP=full)
// 1,500.
func TestWideExtractAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("a sweep on one goroutine: the plain go test run has it")
	}
	configs := [][]reasoning.Option{
		{thinkingOn},
		{reasoning.WithForceReasoning(true)},
		{reasoning.WithForceReasoning(false)},
		{reasoning.WithThinking(false)},
		{reasoning.WithPrompt("user: hi\nassistant: <think>", nil)},
		{reasoning.WithPrompt("x<think>a</think>b\nassistant:", nil)},
		{reasoning.WithPrompt("<think>\n", nil), thinkingOn},
		{reasoning.WithNonEmptyContent(true)},
		{reasoning.WithStreamReasoning(false)},
	}
	outputs := 500
	if conformance.FullSweep() {
		outputs = 1500
	}
	const seed = 20261205
	wide := 0
	for _, name := range reasoning.Names() {
		for ci, cfg := range configs {
			p, err := reasoning.New(name, conformance.Tokenizer(name, nil), cfg...)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			sh, ok := p.(*shell)
			if !ok {
				continue
			}
			tg, ok := sh.initial.(*tagGrammar)
			if !ok || !sh.wideExtract() {
				continue
			}
			if ci == 0 {
				wide++
			}
			q, _ := reasoning.New(name, conformance.Tokenizer(name, nil), cfg...)
			narrow := q.(*shell)
			narrow.wide = -1
			pieces := []string{"a", "text ", " ", "\n", "\n\n", "<", "x\n", "<<", "<a>", "</",
				strings.Repeat("<", 40), strings.Repeat("y", 700), strings.Repeat("<z", 300)}
			for _, mk := range tg.fam.markers {
				pieces = append(pieces, mk, mk, mk[:len(mk)-1], mk[1:], mk[:1]+mk)
			}
			if tg.fam.label != "" {
				pieces = append(pieces, tg.fam.label)
			}
			r := rand.New(rand.NewPCG(seed, uint64(len(name))<<8|uint64(ci)))
			for range outputs {
				var b strings.Builder
				for range 1 + r.IntN(30) {
					b.WriteString(pieces[r.IntN(len(pieces))])
				}
				out := b.String()
				got, notWide := p.Extract(out), narrow.Extract(out)
				want := collectText(sh.fresh(false), out, new(gather))
				if got != notWide || got != want {
					t.Fatalf("seed %d: %s, configuration %d, output %q:\nwide     %+v\nnot wide %+v\ndriver   %+v", seed, name, ci, out, got, notWide, want)
				}
			}
		}
	}
	if wide == 0 {
		t.Fatal("no name's Extract watches every marker: the test checks nothing")
	}
}
