package tokenizer

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// gzipMagic starts every gzip stream (RFC 1952).
var gzipMagic = []byte{0x1f, 0x8b}

// readFile returns the contents of path, decompressed when the file is
// gzip-compressed. Compression is recognised by content, and a name ending
// in ".gz" must hold gzip data. Errors do not name the file: callers add it.
func readFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(data, gzipMagic) && !strings.HasSuffix(path, ".gz") {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, gzipError(err)
	}
	defer zr.Close()
	// A compressed vocabulary inflates five to ten times; start there so the
	// buffer seldom has to grow.
	var out bytes.Buffer
	out.Grow(len(data) * 6)
	if _, err := io.Copy(&out, zr); err != nil {
		return nil, gzipError(err)
	}
	return out.Bytes(), nil
}

// gzipError makes sure a decompression error says it came from gzip:
// compress/gzip's own errors do, io.ErrUnexpectedEOF from a truncated file
// does not.
func gzipError(err error) error {
	if strings.HasPrefix(err.Error(), "gzip:") {
		return err
	}
	return fmt.Errorf("gzip: %w", err)
}

// loadError is the error of a loader: "tokenizer: load PATH: ..." wrapping
// err, and ErrMalformed unless err is the file system's (a missing file) or
// matches ErrUnsupported.
func loadError(path string, err error) error {
	var pathErr *fs.PathError
	if !errors.As(err, &pathErr) && !errors.Is(err, ErrUnsupported) {
		err = malformedError{err}
	}
	return fmt.Errorf("tokenizer: load %s: %w", path, err)
}

// ErrMalformed is wrapped by the errors of Load, LoadHF, LoadTiktoken and
// LoadTiktokenConfig for input that is not a tokenizer at all, or not a whole one:
// an empty, corrupt or truncated file (a .gz cut short, JSON that does not
// parse, a rank file with a bad line), one that contradicts itself (a
// merge of tokens missing from the vocab), or LoadTiktoken's special tokens
// or pattern that do not fit its ranks; for Load also a model folder that
// holds several files that could be its tokenizer. The message names the
// file (or folder) and what is wrong. A missing file matches fs.ErrNotExist instead, and a valid
// file this package cannot serve ErrUnsupported. Match it with [errors.Is].
var ErrMalformed = errors.New("tokenizer: malformed tokenizer file")

// malformedError is an error that matches ErrMalformed, with err's message.
type malformedError struct{ err error }

func (e malformedError) Error() string   { return e.err.Error() }
func (e malformedError) Unwrap() []error { return []error{e.err, ErrMalformed} }

// ErrUnsupported is wrapped by the errors of LoadHF, LoadTiktoken and Load
// for a tokenizer file that is valid but uses a component or option this
// package does not implement (a WordPiece model, a BertNormalizer, ...).
// The message names the file and the part. Such a model can still be
// served through the cgo adapter in tokenizer/hftokenizers, which
// implements every component of Hugging Face tokenizers. Match it with
// [errors.Is].
var ErrUnsupported = errors.New("tokenizer: unsupported tokenizer component")

// unsupportedf returns an error with the formatted message that matches
// ErrUnsupported.
func unsupportedf(format string, args ...any) error {
	return unsupportedError(fmt.Sprintf(format, args...))
}

type unsupportedError string

func (e unsupportedError) Error() string        { return string(e) }
func (e unsupportedError) Is(target error) bool { return target == ErrUnsupported }
