package parsers

import (
	"math/rand/v2"
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
