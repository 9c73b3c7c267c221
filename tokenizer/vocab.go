package tokenizer

import (
	"fmt"
	"sort"
	"strings"
)

// Vocab is a small in-memory [Tokenizer]: a set of named tokens with the IDs
// the caller gives, and one token per byte for all other text. It suits tests
// and callers who know a model's special tokens but not its whole vocabulary.
//
// Byte b has ID Base()+b, where Base is one more than the largest named ID.
// Encode matches named tokens greedily, longest first, at every position.
// A Vocab is immutable and safe for concurrent use.
type Vocab struct {
	ids    map[string]int // named token → ID
	names  map[int]string // ID → named token
	byName []string       // named tokens, longest first, for Encode
	base   int            // ID of byte 0
}

// NewVocab returns a Vocab with the named tokens. Names must be non-empty,
// IDs non-negative and distinct.
func NewVocab(tokens map[string]int) (*Vocab, error) {
	v := &Vocab{ids: make(map[string]int, len(tokens)), names: make(map[int]string, len(tokens))}
	for name, id := range tokens {
		if name == "" {
			return nil, fmt.Errorf("tokenizer: vocab: empty token name (id %d)", id)
		}
		if id < 0 {
			return nil, fmt.Errorf("tokenizer: vocab: token %q has negative id %d", name, id)
		}
		if other, dup := v.names[id]; dup {
			return nil, fmt.Errorf("tokenizer: vocab: tokens %q and %q share id %d", other, name, id)
		}
		v.ids[name] = id
		v.names[id] = name
		v.byName = append(v.byName, name)
		v.base = max(v.base, id+1)
	}
	sort.Slice(v.byName, func(i, j int) bool {
		a, b := v.byName[i], v.byName[j]
		if len(a) != len(b) {
			return len(a) > len(b)
		}
		return a < b
	})
	return v, nil
}

// Base returns the ID of byte 0; byte b is Base()+b.
func (v *Vocab) Base() int { return v.base }

// TokenID returns the ID of a named token, or of a one-byte string.
func (v *Vocab) TokenID(token string) (int, bool) {
	if id, ok := v.ids[token]; ok {
		return id, true
	}
	if len(token) == 1 {
		return v.base + int(token[0]), true
	}
	return 0, false
}

// Encode returns the IDs of text: named tokens where they occur, longest
// first, and one ID per byte elsewhere.
func (v *Vocab) Encode(text string) []int {
	ids := make([]int, 0, len(text))
	for i := 0; i < len(text); {
		if name, ok := v.match(text[i:]); ok {
			ids = append(ids, v.ids[name])
			i += len(name)
			continue
		}
		ids = append(ids, v.base+int(text[i]))
		i++
	}
	return ids
}

func (v *Vocab) match(s string) (string, bool) {
	for _, name := range v.byName {
		if strings.HasPrefix(s, name) {
			return name, true
		}
	}
	return "", false
}

// Decode returns the text of ids. IDs that are neither named nor bytes decode
// to nothing.
func (v *Vocab) Decode(ids []int) string {
	var b strings.Builder
	for _, id := range ids {
		if name, ok := v.names[id]; ok {
			b.WriteString(name)
		} else if id >= v.base && id < v.base+256 {
			b.WriteByte(byte(id - v.base))
		}
	}
	return b.String()
}
