package parsers

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// TestLastIndex checks lastIndex against strings.LastIndex on seeded random
// strings over a small alphabet, so that matches overlap, and on the
// patterns its callers look for.
func TestLastIndex(t *testing.T) {
	const seed = 15
	r := rand.New(rand.NewPCG(seed, 1))
	for _, sub := range []string{"to=", "<|channel|>", "a", "aa", "aba", "=a="} {
		for range 2000 {
			var b strings.Builder
			for range r.IntN(40) {
				b.WriteByte("ab=to<|channel>"[r.IntN(15)])
				if r.IntN(10) == 0 {
					b.WriteString(sub)
				}
			}
			s := b.String()
			if got, want := lastIndex(s, sub), strings.LastIndex(s, sub); got != want {
				t.Fatalf("lastIndex(%q, %q) = %d, want %d (seed %d)", s, sub, got, want, seed)
			}
		}
	}
}

// TestRecipientOf checks recipientOf against a split of the header into
// words, on seeded random headers: the first word that begins with "to=".
func TestRecipientOf(t *testing.T) {
	const seed = 19
	r := rand.New(rand.NewPCG(seed, 2))
	pieces := []string{"to=", "t", "o", "=", "a", "xto=", " ", "\t", "\n", "\r", "functions.get", "<|constrain|>", "json"}
	for range 5000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		header := b.String()
		want := ""
		for _, word := range strings.FieldsFunc(header, func(c rune) bool { return strings.ContainsRune(spaces, c) }) {
			if rest, ok := strings.CutPrefix(word, "to="); ok {
				want = rest
				break
			}
		}
		if got := recipientOf(header); got != want {
			t.Fatalf("recipientOf(%q) = %q, want %q (seed %d)", header, got, want, seed)
		}
	}
}

// TestSpaceSet checks that spaceSet, a stance's hold, holds the bytes of
// spaces and no other, and trimSpaceRight against strings.TrimRight.
func TestSpaceSet(t *testing.T) {
	for c := range 256 {
		if got, want := holds(spaceSet, byte(c)), strings.IndexByte(spaces, byte(c)) >= 0; got != want {
			t.Errorf("holds(spaceSet, %q) = %v, want %v", byte(c), got, want)
		}
	}
	for _, s := range []string{"", " ", "a", "a \t\r\n", " \n a", "a\v", "\x00", "é \n", "\n\n"} {
		if got, want := trimSpaceRight(s), strings.TrimRight(s, spaces); got != want {
			t.Errorf("trimSpaceRight(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestGather checks gather, Extract's collector, on pieces of every kind:
// the output's own bytes (adjacent ones merge), bytes equal to the
// output's at their offset but elsewhere in memory, text of a grammar's
// own, offsets outside the output. Each section is the pieces joined; a
// section of one piece of the output is that substring, not a copy; a
// joined section costs one allocation, made at its final size; a second
// output on the same gather gives its own sections.
func TestGather(t *testing.T) {
	a, d, g, j := strings.Repeat("a", 100), strings.Repeat("d", 100), strings.Repeat("g", 100), strings.Repeat("j", 100)
	output := "<think>" + a + "</think>" + d + "<think>" + g + "</think>" + j
	at := func(s string) int { return strings.Index(output, s) }
	type add struct {
		ph   phase
		s    string
		at   int
		copy bool // s is a copy of the output's bytes, not the bytes themselves
	}
	own := func(ph phase, s string) add { return add{ph, output[at(s) : at(s)+len(s)], at(s), false} }
	for _, tt := range []struct {
		name               string
		adds               []add
		reasoning, content string
		whole              bool // one piece of the output each: substrings
		joined             int  // the sections joined: one allocation each
	}{
		{"empty", nil, "", "", true, 0},
		{"one piece each", []add{own(phaseReasoning, a), own(phaseContent, d)}, a, d, true, 0},
		{"adjacent pieces merge", []add{own(phaseReasoning, a[:10]), {phaseReasoning, output[at(a)+10 : at(a)+100], at(a) + 10, false}, own(phaseContent, d)}, a, d, true, 0},
		{"pieces apart join", []add{own(phaseReasoning, a), own(phaseContent, d), own(phaseReasoning, g), own(phaseContent, j)}, a + g, d + j, false, 2},
		{"equal bytes elsewhere", []add{{phaseReasoning, a, at(a), true}, {phaseReasoning, g, at(g), true}}, a + g, "", false, 1},
		{"grammar's own text", []add{own(phaseContent, d), {phaseContent, "\n", at(d) + 100, false}, own(phaseContent, j)}, "", d + "\n" + j, false, 1},
		{"offsets outside", []add{{phaseReasoning, a, -1, false}, {phaseReasoning, g, len(output) - 1, false}}, a + g, "", false, 1},
		{"empty pieces", []add{{phaseReasoning, "", 3, false}, own(phaseContent, d), {phaseContent, "", at(d), false}}, "", d, true, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var x gather
			clones := 0
			run := func() (r, c string) {
				x.start(output)
				for _, a := range tt.adds {
					s := a.s
					if a.copy {
						s = strings.Clone(s)
						clones++
					}
					x.emit(a.ph, s, a.at)
				}
				m := x.message()
				return m.Reasoning, m.Content
			}
			for i := range 2 { // the second output reuses x
				if r, c := run(); r != tt.reasoning || c != tt.content {
					t.Fatalf("run %d: got %q, %q; want %q, %q", i, r, c, tt.reasoning, tt.content)
				}
			}
			if tt.whole {
				r, c := run()
				for _, s := range []string{r, c} {
					if off := uintptr(unsafe.Pointer(unsafe.StringData(s))) - uintptr(unsafe.Pointer(unsafe.StringData(output))); s != "" && off >= uintptr(len(output)) {
						t.Fatalf("%q is not the output's own bytes", s)
					}
				}
			}
			clones = 0
			allocs := testing.AllocsPerRun(20, func() { run() })
			if got := allocs - float64(clones)/21; got != float64(tt.joined) {
				t.Fatalf("%v allocations, want %d", got, tt.joined)
			}
		})
	}
}

// TestGatherRoom checks that an output dense in pieces leaves a gather
// room enough for the next output as dense: no allocation then but the
// joined sections, however many pieces, up to maxGatherRoom.
func TestGatherRoom(t *testing.T) {
	const pieces = 7000 // per section: both within maxGatherRoom, though append grows past it
	output := strings.Repeat("<think>reasoning</think>content", pieces)
	reasoning, content := strings.Repeat("reasoning", pieces), strings.Repeat("content", pieces)
	var x gather
	run := func() {
		x.start(output)
		for i := range pieces {
			at := i * 31
			x.emit(phaseReasoning, output[at+7:at+16], at+7)
			x.emit(phaseContent, output[at+24:at+31], at+24)
		}
		m := x.message()
		if m.Reasoning != reasoning || m.Content != content {
			t.Fatalf("got sections of %d and %d bytes", len(m.Reasoning), len(m.Content))
		}
	}
	run()
	if allocs := testing.AllocsPerRun(20, run); allocs != 2 {
		t.Errorf("%v allocations, want the 2 joined sections", allocs)
	}
}

// TestHeldTail checks heldTail against what the grammars hold back: the
// trailing whitespace trailingSpace.send holds, and the one newline
// trailingSpace.newline holds.
func TestHeldTail(t *testing.T) {
	for _, s := range []string{"", " ", "a", "a \t\r\n", " \n a", "a\v", "\n", "\n\n", "a\n\n", "a \n", "é \n"} {
		if got, want := heldTail(spaceSet, s), len(s)-len(strings.TrimRight(s, spaces)); got != want {
			t.Errorf("heldTail(spaceSet, %q) = %d, want %d", s, got, want)
		}
		want := 0
		if strings.HasSuffix(s, "\n") {
			want = 1
		}
		if got := heldTail(newlineHold, s); got != want {
			t.Errorf("heldTail(newlineHold, %q) = %d, want %d", s, got, want)
		}
		if got := heldTail(0, s); got != 0 {
			t.Errorf("heldTail(0, %q) = %d, want 0", s, got)
		}
	}
}

// TestNextField checks nextField against strings.Fields on seeded random
// strings of ASCII spaces, words, Unicode spaces and invalid bytes.
func TestNextField(t *testing.T) {
	const seed = 23
	r := rand.New(rand.NewPCG(seed, 3))
	pieces := []string{" ", "\t", "\v", "\f", "\r", "\n", "a", "to=x", "json", "\u00a0", "\u0085", "\u2003", "\u3000", "é", "\xff", "\xc2", "<|constrain|>"}
	for range 20000 {
		var b strings.Builder
		for range r.IntN(10) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		var got []string
		for f, rest := nextField(s); f != ""; f, rest = nextField(rest) {
			got = append(got, f)
		}
		if want := strings.Fields(s); !slices.Equal(got, want) {
			t.Fatalf("nextField splits %q into %q, want %q (seed %d)", s, got, want, seed)
		}
	}
}
