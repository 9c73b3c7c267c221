package tokenizer

// tokenTrie finds whole tokens (added or special) in text: at the leftmost
// position where any token starts, the longest token starting there, as
// Hugging Face's added-token matcher and tiktoken's special-token regex do.
// It is immutable once built and safe for concurrent use.
type tokenTrie struct {
	first [256]bool        // bytes some token starts with
	edges map[uint64]int32 // node<<8 | byte → child node; node 0 is the root
	term  []int32          // node → index of the token ending there, or -1
	n     int              // number of tokens
}

func newTokenTrie() *tokenTrie {
	return &tokenTrie{edges: make(map[uint64]int32), term: []int32{-1}}
}

// add inserts token s with index idx. An empty s is ignored; a later add of
// the same s replaces the earlier index.
func (t *tokenTrie) add(s string, idx int) {
	if s == "" {
		return
	}
	t.first[s[0]] = true
	node := int32(0)
	for i := 0; i < len(s); i++ {
		key := uint64(node)<<8 | uint64(s[i])
		child, ok := t.edges[key]
		if !ok {
			child = int32(len(t.term))
			t.term = append(t.term, -1)
			t.edges[key] = child
		}
		node = child
	}
	if t.term[node] < 0 {
		t.n++
	}
	t.term[node] = int32(idx)
}

// longestAt returns the index and length of the longest token that starts
// text, or -1.
func (t *tokenTrie) longestAt(text string) (idx, n int) {
	idx = -1
	node := int32(0)
	for i := 0; i < len(text); i++ {
		child, ok := t.edges[uint64(node)<<8|uint64(text[i])]
		if !ok {
			break
		}
		node = child
		if k := t.term[node]; k >= 0 {
			idx, n = int(k), i+1
		}
	}
	return idx, n
}

// find returns the first token in text at or after from: its start, end and
// index. idx is -1 when there is none.
func (t *tokenTrie) find(text string, from int) (start, end, idx int) {
	if t == nil || t.n == 0 {
		return len(text), len(text), -1
	}
	for i := from; i < len(text); i++ {
		if !t.first[text[i]] {
			continue
		}
		if k, n := t.longestAt(text[i:]); k >= 0 {
			return i, i + n, k
		}
	}
	return len(text), len(text), -1
}
