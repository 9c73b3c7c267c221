package conformance

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode/utf8"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// A Chunking is one way of cutting an output into deltas.
type Chunking struct {
	Name   string
	Deltas []reasoning.Delta
}

// TextChunkings returns the text-only ways the harness cuts output: whole,
// per byte with an empty delta between every two, per rune, fixed sizes,
// and random cuts seeded by seed. Every cut position inside a marker or a
// multi-byte rune is reached by one of them. (Per byte without the empty
// deltas is not among them: in every scanner bug injected to try the
// chunkings, it failed exactly when the per-byte cut with empties did.)
func TextChunkings(output string, seed uint64) []Chunking {
	cs := []Chunking{
		{"whole", texts(output)},
		{"per-byte-with-empties", withEmpties(sized(output, 1))},
		{"per-rune", perRune(output)},
	}
	for _, n := range []int{2, 3, 4, 7, 16} {
		cs = append(cs, Chunking{fmt.Sprintf("size-%d", n), sized(output, n)})
	}
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	for i := range 8 { // named with the seed, so that a failure says how to cut the same way again
		cs = append(cs, Chunking{fmt.Sprintf("random-%d(seed %d)", i, seed), Random(r, output)})
	}
	return cs
}

// TwoWaySplits returns every cut of output into two deltas.
func TwoWaySplits(output string) []Chunking {
	cs := make([]Chunking, 0, len(output)+1)
	for i := 0; i <= len(output); i++ {
		cs = append(cs, Chunking{fmt.Sprintf("split-at-%d", i), texts(output[:i], output[i:])})
	}
	return cs
}

// Random cuts output at random places into deltas of 0 to 12 bytes.
func Random(r *rand.Rand, output string) []reasoning.Delta {
	var ds []reasoning.Delta
	for i := 0; i < len(output); {
		n := min(len(output)-i, r.IntN(13))
		ds = append(ds, reasoning.Delta{Text: output[i : i+n]})
		i += n
	}
	return ds
}

// TokenChunkings encodes output with tok and returns the chunkings a serving
// stack produces: one token per delta with the token's own text, the same
// with text held back until it ends on a whole rune (as a detokenizer does),
// and three tokens per delta (speculative decoding). It is an error when the
// tokens' texts, decoded one by one, do not give output back.
func TokenChunkings(tok tokenizer.Tokenizer, output string) ([]Chunking, error) {
	ids := tok.Encode(output)
	one := perToken(tok, ids, 1)
	var got strings.Builder
	for _, d := range one {
		got.WriteString(d.Text)
	}
	if got.String() != output {
		return nil, fmt.Errorf("tokens decoded one by one give %q, not %q", got.String(), output)
	}
	return []Chunking{
		{"per-token", one},
		{"per-token-detokenized", detokenized(one)},
		{"three-tokens", perToken(tok, ids, 3)},
	}, nil
}

func texts(ss ...string) []reasoning.Delta {
	ds := make([]reasoning.Delta, len(ss))
	for i, s := range ss {
		ds[i] = reasoning.Delta{Text: s}
	}
	return ds
}

func sized(s string, n int) []reasoning.Delta {
	var ds []reasoning.Delta
	for i := 0; i < len(s); i += n {
		ds = append(ds, reasoning.Delta{Text: s[i:min(len(s), i+n)]})
	}
	return ds
}

func perRune(s string) []reasoning.Delta {
	var ds []reasoning.Delta
	for i := 0; i < len(s); {
		_, n := utf8.DecodeRuneInString(s[i:])
		ds = append(ds, reasoning.Delta{Text: s[i : i+n]})
		i += n
	}
	return ds
}

func withEmpties(ds []reasoning.Delta) []reasoning.Delta {
	out := []reasoning.Delta{{}}
	for _, d := range ds {
		out = append(out, d, reasoning.Delta{})
	}
	return out
}

func perToken(tok tokenizer.Tokenizer, ids []int, n int) []reasoning.Delta {
	var ds []reasoning.Delta
	for i := 0; i < len(ids); i += n {
		group := ids[i:min(len(ids), i+n)]
		ds = append(ds, reasoning.Delta{Text: tok.Decode(group), IDs: group})
	}
	return ds
}

// detokenized moves text between the one-token deltas of one so that each
// delta's text ends on a whole rune: a token's ID arrives at once, its text
// when the rune it ends inside is complete, the way vLLM's detokenizer holds
// back an incomplete UTF-8 sequence.
func detokenized(one []reasoning.Delta) []reasoning.Delta {
	ds := make([]reasoning.Delta, len(one))
	var pending string
	for i, d := range one {
		text := pending + d.Text
		cut := wholeRunes(text)
		if i == len(one)-1 {
			cut = len(text)
		}
		ds[i] = reasoning.Delta{Text: text[:cut], IDs: d.IDs}
		pending = text[cut:]
	}
	return ds
}

// wholeRunes returns the length of the longest prefix of s that does not end
// inside an incomplete multi-byte rune.
func wholeRunes(s string) int {
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			if utf8.FullRuneInString(s[i:]) {
				return len(s)
			}
			return i
		}
	}
	return len(s)
}
