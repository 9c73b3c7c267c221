// Package tokenizer resolves the delimiters of reasoning parsers against a
// model's vocabulary and finds them in sequences of token IDs.
//
// A reasoning parser works on text, and also on token IDs when the caller has
// them. Markers such as "<think>" are usually one special token, but not
// always: a vocabulary that lacks the entry encodes the marker as several
// ordinary tokens. [Resolve] turns a marker into a [Delimiter] that carries
// either its single ID or its encoding, and [Delimiter.Index] finds either
// kind in a sequence of IDs.
//
// Any type with the three methods of [Tokenizer] will do. [Vocab] is a small
// in-memory one for tests and for callers who only know their special tokens;
// the loaders read the real tokenizer files of a model: [Load] a model folder,
// [LoadHF] a Hugging Face tokenizer.json, [LoadTiktoken] a tiktoken rank file,
// each plain or gzip-compressed. Their tokenizers give the IDs the model's own
// tokenizer gives, without adding BOS or EOS, and are safe for concurrent use.
package tokenizer

import (
	"errors"
	"fmt"
)

// Tokenizer is the part of a model tokenizer that reasoning parsers use.
// Implementations must be safe for concurrent use: one tokenizer is shared by
// every parser of a model.
type Tokenizer interface {
	// TokenID returns the ID of a single vocabulary entry, added and special
	// tokens included. ok is false when token is not one entry.
	TokenID(token string) (id int, ok bool)
	// Encode returns the IDs of text. Special tokens written in text are
	// encoded as themselves.
	Encode(text string) []int
	// Decode returns the text of ids, special tokens included.
	Decode(ids []int) string
}

// ErrUnencodable is returned by [Resolve] when a tokenizer cannot express a
// delimiter. Errors wrap it; match it with [errors.Is].
var ErrUnencodable = errors.New("tokenizer: cannot encode delimiter")

// A Delimiter is a marker string together with the token IDs that spell it.
type Delimiter struct {
	Text string // the marker as it appears in text
	IDs  []int  // one ID when the vocabulary holds Text as one entry, else its encoding; nil without a tokenizer
}

// Resolve returns the delimiter for text in the vocabulary of tok.
//
// When text is one vocabulary entry its ID is used; otherwise text is encoded
// and the encoding must decode back to text exactly. A nil tok gives a
// Delimiter without IDs, which parsers match by text alone. An empty text, or
// one tok cannot encode and decode back, is an error wrapping [ErrUnencodable].
func Resolve(tok Tokenizer, text string) (Delimiter, error) {
	if text == "" {
		return Delimiter{}, fmt.Errorf("%w: the delimiter is empty", ErrUnencodable)
	}
	if tok == nil {
		return Delimiter{Text: text}, nil
	}
	if id, ok := tok.TokenID(text); ok {
		return Delimiter{Text: text, IDs: []int{id}}, nil
	}
	ids := tok.Encode(text)
	if len(ids) == 0 {
		return Delimiter{}, fmt.Errorf("%w: %q encodes to no tokens", ErrUnencodable, text)
	}
	if back := tok.Decode(ids); back != text {
		return Delimiter{}, fmt.Errorf("%w: %q encodes to %v, which decodes to %q", ErrUnencodable, text, ids, back)
	}
	return Delimiter{Text: text, IDs: ids}, nil
}

// Single reports whether the delimiter is one token.
func (d Delimiter) Single() bool { return len(d.IDs) == 1 }

// Index returns the index of the first occurrence of d's IDs as a contiguous
// subsequence of ids, or -1. A Delimiter without IDs is never found.
func (d Delimiter) Index(ids []int) int {
	n := len(d.IDs)
	if n == 0 {
		return -1
	}
	first := d.IDs[0]
	for i := 0; i+n <= len(ids); i++ {
		if ids[i] == first && equal(ids[i+1:i+n], d.IDs[1:]) {
			return i
		}
	}
	return -1
}

// LastIndex returns the index of the last occurrence of d's IDs as a
// contiguous subsequence of ids, or -1.
func (d Delimiter) LastIndex(ids []int) int {
	n := len(d.IDs)
	if n == 0 {
		return -1
	}
	first := d.IDs[0]
	for i := len(ids) - n; i >= 0; i-- {
		if ids[i] == first && equal(ids[i+1:i+n], d.IDs[1:]) {
			return i
		}
	}
	return -1
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
