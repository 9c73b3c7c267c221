package tokenizer

import (
	"fmt"
	"sync"
	"unicode/utf8"
)

// bpe is the byte-pair-encoding model of a tokenizer.json: a vocabulary and
// a ranked list of merges. It encodes one pre-tokenized word at a time.
type bpe struct {
	// vocab maps a token to its ID. For a byte-level model the key is the
	// bytes the token spells ("Ġthe" is stored as " the"), so words are
	// looked up without re-spelling them; other models key tokens as written.
	vocab map[string]int32
	// literal holds byte-level tokens that do not spell bytes (characters
	// outside the byte alphabet), under their written form.
	literal map[string]int32
	tokens  []string         // ID → token as written in the file; "" where the ID is not a model token
	merges  map[uint64]merge // pair of IDs (left<<32 | right) → merge

	byteLevel    bool       // words are bytes; the initial symbols are the byte tokens
	byteIDs      [256]int32 // byte-level: the ID of each byte's token, -1 if absent
	byteFallback bool       // unknown characters become <0xXX> tokens
	fallbackIDs  [256]int32 // the IDs of <0x00>..<0xFF>, -1 if absent
	unk          int32      // ID of the unknown token, -1 if none
	fuseUnk      bool       // consecutive unknown characters give one unknown token
	ignoreMerges bool       // a word that is one vocabulary entry is taken whole

	cache *wordCache
}

// merge is one entry of the merge list: its rank (lower merges first) and
// the ID of the token it makes.
type merge struct{ rank, id int32 }

func pairKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// symbol is a piece of a word during merging, in a doubly linked list.
type symbol struct {
	id         int32
	prev, next int32 // indexes in the word, -1 at the ends
	dead       bool  // merged into the symbol on its left
}

// candidate is a possible merge of the symbol at pos with its right neighbour.
type candidate struct {
	rank, pos, id int32
}

// bpeScratch is reused between words to avoid allocating per word.
type bpeScratch struct {
	syms []symbol
	heap []candidate
}

var scratchPool = sync.Pool{New: func() any { return new(bpeScratch) }}

// encode appends the IDs of word to dst.
func (m *bpe) encode(word string, dst []int) []int {
	if word == "" {
		return dst
	}
	if ids, ok := m.cache.get(word); ok {
		for _, id := range ids {
			dst = append(dst, int(id))
		}
		return dst
	}
	if m.ignoreMerges {
		if id, ok := m.vocab[word]; ok {
			m.cache.put(word, []int32{id})
			return append(dst, int(id))
		}
	}
	sc := scratchPool.Get().(*bpeScratch)
	syms := m.initial(word, sc.syms[:0])
	sc.heap = m.mergeAll(syms, sc.heap[:0])
	ids := make([]int32, 0, len(syms))
	for i := 0; i >= 0 && i < len(syms); i = int(syms[i].next) {
		ids = append(ids, syms[i].id)
	}
	sc.syms = syms
	scratchPool.Put(sc)
	m.cache.put(word, ids)
	for _, id := range ids {
		dst = append(dst, int(id))
	}
	return dst
}

// initial splits word into its first symbols: bytes for a byte-level model,
// characters otherwise, with byte fallback and the unknown token for
// characters outside the vocabulary. Characters with no ID at all are
// dropped, as Hugging Face does.
func (m *bpe) initial(word string, syms []symbol) []symbol {
	push := func(id int32) {
		syms = append(syms, symbol{id: id, prev: int32(len(syms)) - 1, next: int32(len(syms)) + 1})
	}
	if m.byteLevel {
		for i := 0; i < len(word); i++ {
			if id := m.byteIDs[word[i]]; id >= 0 {
				push(id)
			} else {
				syms = m.unknown(syms, push)
			}
		}
	} else {
		for i := 0; i < len(word); {
			_, n := utf8.DecodeRuneInString(word[i:])
			ch := word[i : i+n]
			i += n
			if id, ok := m.vocab[ch]; ok {
				push(id)
				continue
			}
			if m.byteFallback && m.hasFallback(ch) {
				for j := 0; j < len(ch); j++ {
					push(m.fallbackIDs[ch[j]])
				}
				continue
			}
			syms = m.unknown(syms, push)
		}
	}
	if len(syms) > 0 {
		syms[len(syms)-1].next = -1
	}
	return syms
}

func (m *bpe) hasFallback(ch string) bool {
	for j := 0; j < len(ch); j++ {
		if m.fallbackIDs[ch[j]] < 0 {
			return false
		}
	}
	return true
}

// unknown adds the unknown token, fused with a preceding one if so configured.
func (m *bpe) unknown(syms []symbol, push func(int32)) []symbol {
	if m.unk < 0 {
		return syms
	}
	if m.fuseUnk && len(syms) > 0 && syms[len(syms)-1].id == m.unk {
		return syms
	}
	push(m.unk)
	return syms
}

// mergeAll applies merges to syms until none applies: always the merge of
// lowest rank, the leftmost one among equals. A heap of candidates keeps
// this O(n log n) for long words (a SentencePiece-style vocabulary merges a
// whole line at once); candidates made stale by an earlier merge are
// recognised and skipped when they come up.
func (m *bpe) mergeAll(syms []symbol, h []candidate) []candidate {
	for i := 0; i+1 < len(syms); i++ {
		if mg, ok := m.merges[pairKey(syms[i].id, syms[i+1].id)]; ok {
			h = heapPush(h, candidate{mg.rank, int32(i), mg.id})
		}
	}
	for len(h) > 0 {
		var c candidate
		c, h = heapPop(h)
		s := &syms[c.pos]
		if s.dead || s.next < 0 {
			continue
		}
		right := &syms[s.next]
		// The candidate is stale if either symbol has changed since it was
		// made: the pair then no longer makes the same token (the left
		// symbol only ever grows to the right, and the pair's text is the
		// token's text).
		if mg, ok := m.merges[pairKey(s.id, right.id)]; !ok || mg.id != c.id {
			continue
		}
		s.id = c.id
		right.dead = true
		s.next = right.next
		if s.next >= 0 {
			syms[s.next].prev = c.pos
		}
		if s.prev >= 0 {
			if mg, ok := m.merges[pairKey(syms[s.prev].id, s.id)]; ok {
				h = heapPush(h, candidate{mg.rank, s.prev, mg.id})
			}
		}
		if s.next >= 0 {
			if mg, ok := m.merges[pairKey(s.id, syms[s.next].id)]; ok {
				h = heapPush(h, candidate{mg.rank, c.pos, mg.id})
			}
		}
	}
	return h
}

func candidateLess(a, b candidate) bool {
	return a.rank < b.rank || a.rank == b.rank && a.pos < b.pos
}

func heapPush(h []candidate, c candidate) []candidate {
	h = append(h, c)
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !candidateLess(h[i], h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	return h
}

func heapPop(h []candidate) (candidate, []candidate) {
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for i := 0; ; {
		l, r, min := 2*i+1, 2*i+2, i
		if l < n && candidateLess(h[l], h[min]) {
			min = l
		}
		if r < n && candidateLess(h[r], h[min]) {
			min = r
		}
		if min == i {
			break
		}
		h[i], h[min] = h[min], h[i]
		i = min
	}
	return top, h
}

// tokenID returns the ID of the model token that text is, looking it up as
// the vocabulary spells it.
func (m *bpe) tokenID(key string) (int32, bool) {
	if id, ok := m.vocab[key]; ok {
		return id, true
	}
	id, ok := m.literal[key]
	return id, ok
}

// token returns the token of id as written in the file.
func (m *bpe) token(id int) (string, bool) {
	if id < 0 || id >= len(m.tokens) || m.tokens[id] == "" {
		return "", false
	}
	return m.tokens[id], true
}

// bpeConfig is the "model" object of a tokenizer.json.
type bpeConfig struct {
	Type                    string           `json:"type"`
	Vocab                   map[string]int32 `json:"vocab"`
	Merges                  mergeList        `json:"merges"`
	UnkToken                *string          `json:"unk_token"`
	ContinuingSubwordPrefix *string          `json:"continuing_subword_prefix"`
	EndOfWordSuffix         *string          `json:"end_of_word_suffix"`
	FuseUnk                 bool             `json:"fuse_unk"`
	ByteFallback            bool             `json:"byte_fallback"`
	IgnoreMerges            bool             `json:"ignore_merges"`
	Dropout                 *float64         `json:"dropout"`
}

// newBPE builds the model from its configuration. byteLevel says whether the
// pre-tokenizer spells bytes as characters.
func newBPE(c *bpeConfig, byteLevel bool) (*bpe, error) {
	switch {
	case c.Type != "BPE" && c.Type != "":
		return nil, unsupportedf("unsupported model %q", c.Type)
	case c.Vocab == nil:
		return nil, fmt.Errorf("model: no vocab")
	case c.Dropout != nil && *c.Dropout > 0:
		return nil, unsupportedf("unsupported model option dropout %v (encodings would be random)", *c.Dropout)
	case c.ContinuingSubwordPrefix != nil && *c.ContinuingSubwordPrefix != "":
		return nil, unsupportedf("unsupported model option continuing_subword_prefix %q", *c.ContinuingSubwordPrefix)
	case c.EndOfWordSuffix != nil && *c.EndOfWordSuffix != "":
		return nil, unsupportedf("unsupported model option end_of_word_suffix %q", *c.EndOfWordSuffix)
	}
	m := &bpe{
		byteLevel:    byteLevel,
		byteFallback: c.ByteFallback,
		fuseUnk:      c.FuseUnk,
		ignoreMerges: c.IgnoreMerges,
		unk:          -1,
		cache:        newWordCache(),
	}
	maxID := int32(-1)
	for tok, id := range c.Vocab {
		if id < 0 {
			return nil, fmt.Errorf("model: token %q has negative id %d", tok, id)
		}
		maxID = max(maxID, id)
	}
	m.tokens = make([]string, maxID+1)
	m.vocab = make(map[string]int32, len(c.Vocab))
	for tok, id := range c.Vocab {
		m.tokens[id] = tok
		if !byteLevel {
			m.vocab[tok] = id
			continue
		}
		if raw, ok := byteLevelDecode(tok); ok {
			m.vocab[raw] = id
		} else {
			if m.literal == nil {
				m.literal = make(map[string]int32)
			}
			m.literal[tok] = id
		}
	}
	for b := range 256 {
		m.byteIDs[b], m.fallbackIDs[b] = -1, -1
		if id, ok := c.Vocab[string(byteToRune[b])]; ok && byteLevel {
			m.byteIDs[b] = id
		}
		if id, ok := c.Vocab[fmt.Sprintf("<0x%02X>", b)]; ok {
			m.fallbackIDs[b] = id
		}
	}
	if c.UnkToken != nil {
		id, ok := c.Vocab[*c.UnkToken]
		if !ok {
			return nil, fmt.Errorf("model: unk_token %q is not in the vocab", *c.UnkToken)
		}
		m.unk = id
	}
	m.merges = make(map[uint64]merge, len(c.Merges))
	for rank, pair := range c.Merges {
		a, okA := c.Vocab[pair[0]]
		b, okB := c.Vocab[pair[1]]
		ab, okAB := c.Vocab[pair[0]+pair[1]]
		if !okA || !okB || !okAB {
			return nil, fmt.Errorf("model: merge %d %q: token not in the vocab", rank, pair[0]+" "+pair[1])
		}
		// A pair listed twice keeps its later rank, as in Hugging Face.
		m.merges[pairKey(a, b)] = merge{rank: int32(rank), id: ab}
	}
	return m, nil
}
