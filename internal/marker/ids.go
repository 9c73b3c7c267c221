package marker

import "github.com/reasoning-go/reasoning/internal/work"

// HasPrefixIDs reports whether ids begins with seq. An empty seq is never a
// prefix.
func HasPrefixIDs(ids, seq []int) bool {
	if len(seq) == 0 || len(ids) < len(seq) {
		return false
	}
	for i, id := range seq {
		if ids[i] != id {
			return false
		}
	}
	return true
}

// LastIndexAny returns the start of the last occurrence in ids of any of
// seqs selected by mask (bit i for seqs[i]), considering only occurrences
// that end after position from, and which sequence it is; -1, -1 when none.
// Sequences must not contain one another.
func LastIndexAny(ids []int, seqs [][]int, mask uint64, from int) (pos, k int) {
	stop := from - maxLen(seqs, mask)   // occurrences starting here or before end by from
	work.Add(len(ids) - max(stop+1, 0)) // the positions the loop may visit
	for i := len(ids) - 1; i >= 0 && i > stop; i-- {
		for j, seq := range seqs {
			if mask&(1<<j) == 0 || len(seq) == 0 || i+len(seq) <= from {
				continue
			}
			if HasPrefixIDs(ids[i:], seq) {
				return i, j
			}
		}
	}
	return -1, -1
}

// MatchAt returns which of seqs selected by mask begins ids[i:], or -1.
func MatchAt(ids []int, i int, seqs [][]int, mask uint64) int {
	work.Add(1)
	for j, seq := range seqs {
		if mask&(1<<j) != 0 && HasPrefixIDs(ids[i:], seq) {
			return j
		}
	}
	return -1
}

func maxLen(seqs [][]int, mask uint64) int {
	n := 0
	for j, seq := range seqs {
		if mask&(1<<j) != 0 {
			n = max(n, len(seq))
		}
	}
	return n
}
