package marker

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestManySets moves the active set among more sets than a Scanner
// remembers (setsKept, and Reset's), after every marker, with markers that
// share a first byte in groups and others that begin alone: the events are
// the reference's however the input is cut, and a delta Quiet passes is
// returned whole as text of its own. FuzzScan moves among four sets at
// most, which SetActive never has to forget.
func TestManySets(t *testing.T) {
	markers := []string{"<|start|>", "<|message|>", "<|eom|>", "to=", "[THINK]", "[/THINK]", "<think>", "</think>", "x>y"}
	if err := Check(markers); err != nil {
		t.Fatal(err)
	}
	alphabet := []string{"<|", "<", "|", "start|>", "message|>", "eom|>", "t", "o", "=", "to", "[", "[/", "THINK]", "think>", "</", "x", ">", "y", " ", "a"}
	alphabet = append(alphabet, markers...)
	all := uint64(1)<<len(markers) - 1
	for _, sets := range [][]uint64{
		{all &^ 1, all &^ 2, all &^ 4, all &^ 8, all &^ 16, all &^ 32, all &^ 64, all &^ 128, all &^ 256},
		{1 | 2, 4 | 8, 16 | 32, 64 | 128, 256 | 1, 2 | 8 | 64, 1 | 16 | 256, all, 8},
	} {
		next := func(k int) uint64 { return sets[k] }
		what := fmt.Sprintf("sets %#x", sets)
		r := rand.New(rand.NewPCG(7, uint64(sets[0])))
		for range 1000 {
			input := randomText(r, alphabet, 40)
			want := referenceMoving(markers, input, next)
			deltas := randomCuts(r, input, 9)
			var s Scanner
			s.Reset(markers)
			got := scanQuiet(t, &s, deltas, next, what)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("sets %#x, input %q, deltas %q: mismatch (-want +got):\n%s", sets, input, deltas, diff)
			}
		}
	}
}

// TestCopyToTables checks that a copy's remembered sets point at its own
// tables, not at those of the Scanner it was copied from, which go on
// changing as that one moves among sets.
func TestCopyToTables(t *testing.T) {
	markers := []string{"<a>", "<b>", "[c]", "x"}
	var s, c Scanner
	s.Reset(markers)
	for _, mask := range []uint64{1 | 4, 2 | 8, 15, 1 | 4} {
		s.SetActive(mask)
		s.Feed("text <a> [c] x <b>")
		for {
			if _, _, k := s.Next(); k < 0 {
				break
			}
		}
	}
	s.CopyTo(&c)
	if c.first != nil && c.first != &c.tabs[c.slot] {
		t.Errorf("copy's first points at tabs of another Scanner")
	}
	for i := range c.sets {
		if f := c.sets[i].first; f != nil && f != &c.tabs[i] {
			t.Errorf("copy's sets[%d].first points at tabs of another Scanner", i)
		}
	}
}
