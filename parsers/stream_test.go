package parsers

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
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
