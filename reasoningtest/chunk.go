package reasoningtest

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
	Name   string // how failures name it: "per-rune", "random(seed 7)", ...
	Deltas []reasoning.Delta
}

// A chunker cuts any output one fixed way; ok is false when it cannot cut
// this one (its tokens do not decode back to it).
type chunker struct {
	name string
	cut  func(output string) (ds []reasoning.Delta, ok bool)
}

// textChunkers are the text-only ways the kit cuts outputs: whole, per byte
// with an empty delta between every two, per rune, fixed sizes, and eight
// random cuts seeded from seed. Every cut position inside a marker or a
// multi-byte rune is reached by one of them. (Per byte without the empty
// deltas is not among them: in every scanner bug injected to try the
// chunkings, it failed exactly when the per-byte cut with empties did.)
func textChunkers(seed uint64) []chunker {
	always := func(f func(string) []reasoning.Delta) func(string) ([]reasoning.Delta, bool) {
		return func(s string) ([]reasoning.Delta, bool) { return f(s), true }
	}
	cs := []chunker{
		{"whole", always(func(s string) []reasoning.Delta { return texts(s) })},
		{"per-byte-with-empties", always(func(s string) []reasoning.Delta { return withEmpties(sized(s, 1)) })},
		{"per-rune", always(perRune)},
	}
	for _, n := range []int{2, 3, 4, 7, 16} {
		cs = append(cs, chunker{fmt.Sprintf("size-%d", n), always(func(s string) []reasoning.Delta { return sized(s, n) })})
	}
	for i := range uint64(8) {
		s := seed + i
		cs = append(cs, chunker{fmt.Sprintf("random(seed %d)", s), always(func(out string) []reasoning.Delta { return Random(out, s) })})
	}
	return cs
}

// Chunkings returns the text-only ways the kit cuts output: whole, per byte
// with an empty delta between every two, per rune, fixed sizes of 2 to 16
// bytes, and eight random cuts seeded from seed (each named with its seed,
// for Random).
func Chunkings(output string, seed uint64) []Chunking {
	var cs []Chunking
	for _, c := range textChunkers(seed) {
		ds, _ := c.cut(output)
		cs = append(cs, Chunking{c.name, ds})
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

// Random cuts output at random places, seeded by seed, into deltas of 0 to
// 12 bytes. The same seed cuts the same output the same way.
func Random(output string, seed uint64) []reasoning.Delta {
	return randomCut(rand.New(rand.NewPCG(seed, 0x5eed)), output)
}

func randomCut(r *rand.Rand, output string) []reasoning.Delta {
	var ds []reasoning.Delta
	for i := 0; i < len(output); {
		n := min(len(output)-i, r.IntN(13))
		ds = append(ds, reasoning.Delta{Text: output[i : i+n]})
		i += n
	}
	return ds
}

// tokenKinds name the chunkings of TokenChunkings, in its order.
var tokenKinds = []string{"per-token", "per-token-detokenized", "three-tokens"}

// tokenChunkers are TokenChunkings as chunkers, one per kind.
func tokenChunkers(tok tokenizer.Tokenizer) []chunker {
	cs := make([]chunker, len(tokenKinds))
	for k, name := range tokenKinds {
		cs[k] = chunker{name, func(out string) ([]reasoning.Delta, bool) {
			tcs, err := TokenChunkings(tok, out)
			if err != nil {
				return nil, false
			}
			return tcs[k].Deltas, true
		}}
	}
	return cs
}

// TokenChunkings encodes output with tok and returns the chunkings a serving
// stack produces: one token per delta with the token's own text and ID, the
// same with text held back until it ends on a whole rune (as a detokenizer
// does), and three tokens per delta (speculative decoding). It is an error
// when the tokens' texts, decoded one by one, do not give output back.
func TokenChunkings(tok tokenizer.Tokenizer, output string) ([]Chunking, error) {
	ids := tok.Encode(output)
	one := perToken(tok, ids, 1)
	var got strings.Builder
	for _, d := range one {
		got.WriteString(d.Text)
	}
	if got.String() != output {
		return nil, fmt.Errorf("reasoningtest: tokens decoded one by one give %q, not %q", got.String(), output)
	}
	return []Chunking{
		{tokenKinds[0], one},
		{tokenKinds[1], detokenized(one)},
		{tokenKinds[2], perToken(tok, ids, 3)},
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

// typedBytes spells output one byte token of v at a time, so that a marker
// in it is typed as ordinary tokens rather than as its own token.
func typedBytes(v *tokenizer.Vocab, output string) []reasoning.Delta {
	ds := make([]reasoning.Delta, len(output))
	for i := range len(output) {
		ds[i] = reasoning.Delta{Text: output[i : i+1], IDs: []int{v.Base() + int(output[i])}}
	}
	return ds
}

// quoted prints deltas so that a failure reproduces.
func quoted(ds []reasoning.Delta) string {
	if len(ds) > 64 {
		return fmt.Sprintf("(%d deltas)", len(ds))
	}
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = fmt.Sprintf("%q", d.Text)
		if d.IDs != nil {
			parts[i] += fmt.Sprint(d.IDs)
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}
