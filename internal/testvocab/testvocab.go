// Package testvocab gives tests of this module the real model vocabularies.
//
// The vocabularies are third-party files and are not part of the
// repository. They are read from the folder named by the environment
// variable REASONING_VOCAB_DIR (a relative path is taken from the module
// root, where go.mod is), else from testdata/vocab at the module root, which
// `make vocab` fills. Each family has a folder of its own there ("qwen3",
// "kimi-k2", ...) that [tokenizer.Load] reads.
//
// A test that needs a missing vocabulary is skipped, unless the environment
// sets REASONING_REQUIRE_VOCAB=1, as CI does: then it fails.
package testvocab

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/reasoning-go/reasoning/tokenizer"
)

const (
	envDir     = "REASONING_VOCAB_DIR"
	envRequire = "REASONING_REQUIRE_VOCAB"
	howToGet   = "run `make vocab`, or set " + envDir + " to a folder of vocabularies (such as ../shared/vocab)"
)

// Dir returns the folder that holds the vocabularies, and whether it exists.
func Dir() (string, bool) {
	dir := os.Getenv(envDir)
	if dir == "" {
		dir = filepath.Join("testdata", "vocab")
	}
	if !filepath.IsAbs(dir) {
		root, err := moduleRoot()
		if err != nil {
			return dir, false
		}
		dir = filepath.Join(root, dir)
	}
	info, err := os.Stat(dir)
	return dir, err == nil && info.IsDir()
}

// moduleRoot returns the nearest folder at or above the working directory
// that holds a go.mod. Tests run in their package's folder, so this is the
// module root.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("testvocab: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Path returns the folder of the named vocabulary, or skips tb (fails it
// under REASONING_REQUIRE_VOCAB=1) when it is missing.
func Path(tb testing.TB, name string) string {
	tb.Helper()
	dir, ok := Dir()
	if !ok {
		missing(tb, "testvocab: no vocabulary folder at "+dir+"; "+howToGet)
		return ""
	}
	path := filepath.Join(dir, name)
	if info, err := os.Stat(path); err != nil || !info.IsDir() {
		missing(tb, "testvocab: no vocabulary "+name+" in "+dir+"; "+howToGet)
		return ""
	}
	return path
}

func missing(tb testing.TB, msg string) {
	tb.Helper()
	if os.Getenv(envRequire) == "1" {
		tb.Fatal(msg + " (" + envRequire + "=1)")
	}
	tb.Skip(msg)
}

// loaded caches one tokenizer per vocabulary folder for the whole test
// binary: loading a real vocabulary takes a good part of a second.
var (
	mu     sync.Mutex
	loaded = map[string]*entry{}
)

type entry struct {
	once sync.Once
	tok  tokenizer.Tokenizer
	err  error
}

// Load returns the tokenizer of the named vocabulary (a folder name such as
// "qwen3"), loaded once per process with [tokenizer.Load]. A missing
// vocabulary skips tb (see the package documentation); one that fails to
// load fails tb.
func Load(tb testing.TB, name string) tokenizer.Tokenizer {
	tb.Helper()
	path := Path(tb, name)
	mu.Lock()
	e, ok := loaded[path]
	if !ok {
		e = &entry{}
		loaded[path] = e
	}
	mu.Unlock()
	e.once.Do(func() { e.tok, e.err = tokenizer.Load(path) })
	if e.err != nil {
		tb.Fatalf("testvocab: %v", e.err)
	}
	return e.tok
}
