package parsers

import (
	"slices"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
)

// TestExtractReuse checks that what Extract keeps between outputs (its
// extractor: driver, grammar, and the sections' spans with their room)
// leaves no trace: each of a parser's Extracts, in either order, with
// outputs of none, one and many spans a section, equals a new parser's,
// and a parser that has extracted streams what a new one streams.
func TestExtractReuse(t *testing.T) {
	for _, name := range reasoning.Names() {
		markers, tok := toyOf(t, name)
		if len(markers) == 0 {
			markers = []string{"x"} // a family of no markers: its text alone
		}
		outs := []string{
			"",
			" plan",
			" plan\n" + strings.Join(markers, "\n a ") + " answer",
			strings.Repeat(strings.Join(markers, " b ")+" c ", 3*extractRoom),
			markers[0] + " why " + markers[len(markers)-1] + " so",
		}
		fresh := func() reasoning.Parser {
			p, err := reasoning.New(name, tok)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return p
		}
		want := make([]reasoning.Message, len(outs))
		for i, out := range outs {
			want[i] = fresh().Extract(out)
		}
		p := fresh()
		for _, order := range [][]int{{0, 1, 2, 3, 4}, {3, 4, 1, 0, 2, 3, 2}} {
			for _, i := range order {
				if got := p.Extract(outs[i]); got != want[i] {
					t.Fatalf("%s: output %d %q after others:\n got %+v\nwant %+v", name, i, outs[i], got, want[i])
				}
			}
		}
		out := outs[2] + outs[3]
		if got, want := streamFours(p, out), streamFours(fresh(), out); !slices.Equal(got, want) {
			t.Fatalf("%s: stream after Extract:\n got %+v\nwant %+v", name, got, want)
		}
	}
}

// streamFours returns p's messages for out in deltas of 4 bytes, and
// Finish's.
func streamFours(p reasoning.Parser, out string) []reasoning.Message {
	var ms []reasoning.Message
	for i := 0; i < len(out); i += 4 {
		ms = append(ms, p.ExtractStreaming(reasoning.Delta{Text: out[i:min(i+4, len(out))]}))
	}
	return append(ms, p.Finish())
}
