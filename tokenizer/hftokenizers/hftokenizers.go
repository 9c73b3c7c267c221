//go:build hftokenizers

// Package hftokenizers adapts github.com/daulet/tokenizers, the cgo binding
// of Hugging Face's Rust tokenizers library, to [tokenizer.Tokenizer].
//
// Most programs should use [tokenizer.Load], which is pure Go. This package
// is for callers who already link the Rust library, or want its exact
// behaviour for a tokenizer.json that [tokenizer.LoadHF] does not support.
// It is compiled only with the build tag hftokenizers and needs the native
// library libtokenizers.a at link time (see the daulet/tokenizers README):
//
//	go build -tags hftokenizers -ldflags="-extldflags '-L/path/to/lib'" ./...
package hftokenizers

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/daulet/tokenizers"

	"github.com/reasoning-go/reasoning/tokenizer"
)

// Tokenizer is a Rust tokenizer behind the [tokenizer.Tokenizer] interface.
// It is safe for concurrent use, as the Rust tokenizer is; Close must not
// run concurrently with other methods.
type Tokenizer struct {
	tk *tokenizers.Tokenizer
}

var _ tokenizer.Tokenizer = (*Tokenizer)(nil)

// Load reads a tokenizer.json, plain or gzip-compressed.
func Load(path string) (*Tokenizer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("hftokenizers: load %s: %w", path, err)
	}
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) || strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("hftokenizers: load %s: %w", path, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			return nil, fmt.Errorf("hftokenizers: load %s: gzip: %w", path, err)
		}
	}
	t, err := FromBytes(data)
	if err != nil {
		return nil, fmt.Errorf("hftokenizers: load %s: %w", path, err)
	}
	return t, nil
}

// FromBytes reads the contents of a tokenizer.json.
func FromBytes(data []byte) (*Tokenizer, error) {
	tk, err := tokenizers.FromBytes(data)
	if err != nil {
		return nil, err
	}
	return &Tokenizer{tk: tk}, nil
}

// FromTiktoken reads a tiktoken rank file with its tokenizer_config.json and
// word pattern, as the Rust library does (uncompressed files only).
func FromTiktoken(modelPath, configPath, pattern string) (*Tokenizer, error) {
	tk, err := tokenizers.FromTiktoken(modelPath, configPath, pattern)
	if err != nil {
		return nil, fmt.Errorf("hftokenizers: load %s: %w", modelPath, err)
	}
	return &Tokenizer{tk: tk}, nil
}

// TokenID returns the ID of token when it is a single vocabulary entry.
// The binding has no direct lookup, so token is encoded: it is an entry when
// it encodes to one ID that decodes back to it, which holds for every added
// and special token.
func (t *Tokenizer) TokenID(token string) (int, bool) {
	ids, _ := t.tk.Encode(token, false)
	if len(ids) != 1 || t.tk.Decode(ids, false) != token {
		return 0, false
	}
	return int(ids[0]), true
}

// Encode returns the IDs of text, without BOS or EOS. Text is passed as a C
// string: it ends at its first NUL byte.
func (t *Tokenizer) Encode(text string) []int {
	ids, _ := t.tk.Encode(text, false)
	out := make([]int, len(ids))
	for i, id := range ids {
		out[i] = int(id)
	}
	return out
}

// Decode returns the text of ids, special tokens included. Negative IDs and
// IDs beyond 32 bits are skipped.
func (t *Tokenizer) Decode(ids []int) string {
	in := make([]uint32, 0, len(ids))
	for _, id := range ids {
		if id >= 0 && id <= 1<<32-1 {
			in = append(in, uint32(id))
		}
	}
	return t.tk.Decode(in, false)
}

// Close frees the Rust tokenizer. The Tokenizer must not be used afterwards.
func (t *Tokenizer) Close() error {
	return t.tk.Close()
}
