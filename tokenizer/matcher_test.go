package tokenizer

import (
	"math/rand/v2"
	"testing"
)

func TestMatcher(t *testing.T) {
	d := Delimiter{Text: "</think>", IDs: []int{7, 7, 8}}
	m := d.NewMatcher()
	steps := []struct {
		ids     []int
		done    bool
		found   int
		partial int
	}{
		{[]int{1, 7}, false, 0, 1},
		{[]int{7}, false, 0, 2},
		{[]int{7}, false, 0, 2}, // 7 7 7: still two of three
		{[]int{8, 7}, true, 1, 1},
		{nil, false, 1, 1},
		{[]int{7, 8}, true, 2, 0},
	}
	for i, s := range steps {
		if got := m.Accept(s.ids...); got != s.done || m.Found() != s.found || m.Partial() != s.partial {
			t.Fatalf("step %d Accept(%v) = %v, found %d, partial %d; want %v, %d, %d",
				i, s.ids, got, m.Found(), m.Partial(), s.done, s.found, s.partial)
		}
	}
	m.Rollback(1) // undo the last 8: one found, "7 7" in progress again
	if m.Found() != 1 || m.Partial() != 2 || len(m.Remaining()) != 1 {
		t.Fatalf("after Rollback(1): found %d, partial %d, remaining %v", m.Found(), m.Partial(), m.Remaining())
	}
	m.Rollback(100)
	if m.Found() != 0 || m.Partial() != 0 || m.Accepted() != 0 || len(m.Remaining()) != 3 {
		t.Fatalf("after Rollback(100): found %d, partial %d, accepted %d", m.Found(), m.Partial(), m.Accepted())
	}
	if (Delimiter{Text: "x"}).NewMatcher().Accept(1, 2, 3) {
		t.Fatal("a Delimiter without IDs matched")
	}
}

// TestMatcherRollbackReplay: any sequence of accepts and rollbacks leaves a
// Matcher in the state of one that accepted only the surviving tokens.
func TestMatcherRollbackReplay(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, seq := range [][]int{{5}, {1, 2}, {1, 1, 2}, {1, 2, 1, 2, 3}, {2, 2, 2}} {
		d := Delimiter{IDs: seq}
		for range 500 {
			m := d.NewMatcher()
			var kept []int
			for range 30 {
				if r.IntN(4) == 0 {
					n := r.IntN(5)
					m.Rollback(n)
					kept = kept[:max(0, len(kept)-n)]
					continue
				}
				batch := make([]int, r.IntN(4))
				for i := range batch {
					batch[i] = 1 + r.IntN(3)
				}
				m.Accept(batch...)
				kept = append(kept, batch...)
			}
			replay := d.NewMatcher()
			replay.Accept(kept...)
			if m.Found() != replay.Found() || m.Partial() != replay.Partial() || m.Accepted() != len(kept) {
				t.Fatalf("seq %v kept %v: found %d partial %d, replay found %d partial %d",
					seq, kept, m.Found(), m.Partial(), replay.Found(), replay.Partial())
			}
			if want := count(kept, seq); m.Found() != want {
				t.Fatalf("seq %v kept %v: found %d, want %d", seq, kept, m.Found(), want)
			}
		}
	}
}

// count counts the occurrences of seq in ids, allowing overlaps.
func count(ids, seq []int) int {
	n := 0
	for i := 0; i+len(seq) <= len(ids); i++ {
		if equal(ids[i:i+len(seq)], seq) {
			n++
		}
	}
	return n
}
