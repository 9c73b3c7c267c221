package parsers

import (
	"strings"
	"testing"
)

// TestHarmonyHeldBare checks what harmonySpec.heldBare says of Harmony's
// grammar: every control token begins with "<", and a stream's header
// refuses text that holds one, wherever it lies, on pieces of every length
// takeHeld reads alike (up to 3 bytes, 4 to 8, 9 and more), and whether
// the header's raw text has room for a word or not, while it takes the
// same text with an "x" there.
func TestHarmonyHeldBare(t *testing.T) {
	if !harmonySpec.heldBare {
		t.Skip("harmonySpec.heldBare is off")
	}
	for _, m := range harmonyMarkers {
		if m[0] != '<' {
			t.Errorf("control token %q does not begin with \"<\"", m)
		}
	}
	header := func(room bool) *harmonyGrammar {
		g := &harmonyGrammar{}
		if room {
			g.raw = make([]byte, 0, 256)
		}
		g.beginHeader(harmonyStart, 0)
		return g
	}
	for _, room := range []bool{true, false} {
		for n := 1; n <= 12; n++ {
			for i := range n {
				s := strings.Repeat("a", i) + "<" + strings.Repeat("a", n-1-i)
				if g := header(room); g.takeHeld(s, len(harmonyStart)) {
					t.Errorf("room %v: takeHeld(%q) took it", room, s)
				}
				s = strings.Replace(s, "<", "x", 1)
				if g := header(room); !g.takeHeld(s, len(harmonyStart)) {
					t.Errorf("room %v: takeHeld(%q) refused it", room, s)
				}
			}
		}
	}
}

// TestHarmonyTakeHeldText checks that a stream's header keeps the text
// takeHeld takes as it came, on pieces of every length it reads alike (up
// to 3 bytes, 4 to 8, 9 and more) one after the other, each of distinct
// bytes, and that it refuses a piece with a newline wherever it lies.
func TestHarmonyTakeHeldText(t *testing.T) {
	g := &harmonyGrammar{raw: make([]byte, 0, 256)}
	g.beginHeader(harmonyStart, 0)
	want, c := "", byte('A')
	for n := 1; n <= 12; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i], c = c, 'A'+(c-'A'+1)%58
		}
		s := string(b)
		for i := range n {
			nl := s[:i] + "\n" + s[i+1:]
			if g.takeHeld(nl, len(harmonyStart)+len(want)) {
				t.Fatalf("takeHeld(%q) took it", nl)
			}
		}
		if !g.takeHeld(s, len(harmonyStart)+len(want)) {
			t.Fatalf("takeHeld(%q) refused it", s)
		}
		want += s
		if got := string(g.heldRaw()); got != harmonyStart+want {
			t.Fatalf("after %q: header %q, want %q", s, got, harmonyStart+want)
		}
	}
}

// TestHarmonyActive checks active's stance, read from a table, against
// where text goes as the grammar's text routes it, for every phase and
// route, of both Harmony names: held as a header's (directHeld), to the
// open segment (directSegment), or straight to a section.
func TestHarmonyActive(t *testing.T) {
	for _, rawTools := range []bool{false, true} {
		for _, ph := range []harmonyPhase{harmonyInHeader, harmonyInBody, harmonyInBetween} {
			for _, r := range []harmonyRoute{routeContent, routeReasoning, routeSegment} {
				g := &harmonyGrammar{phase: ph, route: r, rawTools: rawTools}
				st := g.active()
				want, sent := int8(0), 0
				g.text("x", 0, func(p phase, s string, at int) { want, sent = int8(p), sent+1 })
				switch {
				case sent > 1:
					t.Fatalf("rawTools %v, phase %d, route %d: text sent %d pieces", rawTools, ph, r, sent)
				case sent == 1:
				case g.held == 1:
					want = directHeld
				case g.segs.one == "x":
					want = directSegment
				default:
					t.Fatalf("rawTools %v, phase %d, route %d: text went nowhere", rawTools, ph, r)
				}
				if st.direct != want || st.mask != 1<<len(harmonyMarkers)-1 || st.moves || st.hold != 0 {
					t.Errorf("rawTools %v, phase %d, route %d: active() = %+v, want direct %d and every marker", rawTools, ph, r, st, want)
				}
			}
		}
	}
}
