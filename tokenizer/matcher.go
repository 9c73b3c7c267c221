package tokenizer

// A Matcher follows a delimiter through a stream of accepted token IDs, one
// or many at a time, and can take back the last tokens it accepted, as
// speculative decoding needs when the target model rejects draft tokens.
//
// It matches the delimiter's IDs as a contiguous run (a multi-token
// delimiter must arrive spelled as Resolve spelled it). Each Accept costs
// O(1) amortised per token; the Matcher remembers one small integer per
// accepted token so that Rollback can go back any distance.
type Matcher struct {
	seq   []int   // the delimiter's IDs
	fail  []int   // fail[i]: length of the longest proper border of seq[:i+1]
	state int     // length of the longest suffix of the accepted tokens that is a prefix of seq
	hist  []int32 // state before each accepted token
	found []int32 // number of complete matches after each accepted token
}

// NewMatcher returns a Matcher for d. A Delimiter without IDs never matches.
func (d Delimiter) NewMatcher() *Matcher {
	m := &Matcher{seq: d.IDs, fail: make([]int, len(d.IDs))}
	for i, k := 1, 0; i < len(d.IDs); i++ {
		for k > 0 && d.IDs[i] != d.IDs[k] {
			k = m.fail[k-1]
		}
		if d.IDs[i] == d.IDs[k] {
			k++
		}
		m.fail[i] = k
	}
	return m
}

// Accept takes the next accepted tokens and reports whether the delimiter
// was completed by any of them.
func (m *Matcher) Accept(ids ...int) (completed bool) {
	n := m.Found()
	for _, id := range ids {
		m.hist = append(m.hist, int32(m.state))
		m.state = m.step(m.state, id)
		if m.state == len(m.seq) && len(m.seq) > 0 {
			n++
			m.state = m.fail[len(m.seq)-1]
			completed = true
		}
		m.found = append(m.found, int32(n))
	}
	return completed
}

func (m *Matcher) step(state, id int) int {
	for state > 0 && m.seq[state] != id {
		state = m.fail[state-1]
	}
	if len(m.seq) > 0 && m.seq[state] == id {
		state++
	}
	return state
}

// Rollback forgets the last n accepted tokens; n larger than what was
// accepted forgets everything.
func (m *Matcher) Rollback(n int) {
	if n <= 0 {
		return
	}
	keep := max(0, len(m.hist)-n)
	if keep < len(m.hist) {
		m.state = int(m.hist[keep])
	}
	m.hist, m.found = m.hist[:keep], m.found[:keep]
}

// Accepted returns how many tokens the Matcher holds.
func (m *Matcher) Accepted() int { return len(m.hist) }

// Found returns how many times the delimiter has been completed in the
// accepted tokens.
func (m *Matcher) Found() int {
	if len(m.found) == 0 {
		return 0
	}
	return int(m.found[len(m.found)-1])
}

// Partial returns how many of the delimiter's tokens end the accepted
// tokens, a delimiter in progress; 0 when none.
func (m *Matcher) Partial() int { return m.state }

// Remaining returns the IDs that would complete the delimiter in progress,
// or all of them when none is in progress. The slice is shared: do not
// modify it.
func (m *Matcher) Remaining() []int { return m.seq[m.state:] }
