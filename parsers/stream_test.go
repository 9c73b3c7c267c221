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
