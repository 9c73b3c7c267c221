package testvocab

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/reasoning-go/reasoning/tokenizer"
)

// recorder stands in for a testing.TB to see whether Skip or Fatal was
// called; both end the calling goroutine, as they do in a test.
type recorder struct {
	testing.TB
	skipped, fatal string
}

func (r *recorder) Helper()           {}
func (r *recorder) Skip(args ...any)  { r.skipped = fmt.Sprint(args...); runtime.Goexit() }
func (r *recorder) Fatal(args ...any) { r.fatal = fmt.Sprint(args...); runtime.Goexit() }
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func run(f func(tb testing.TB)) *recorder {
	r := &recorder{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		f(r)
	}()
	wg.Wait()
	return r
}

func TestDirRelativeToModuleRoot(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("moduleRoot() = %s without go.mod", root)
	}
	t.Setenv(envDir, "internal")
	dir, ok := Dir()
	if want := filepath.Join(root, "internal"); dir != want || !ok {
		t.Errorf("Dir() = %s, %v; want %s, true", dir, ok, want)
	}
	abs := t.TempDir()
	t.Setenv(envDir, abs)
	if dir, ok := Dir(); dir != abs || !ok {
		t.Errorf("Dir() = %s, %v; want %s, true", dir, ok, abs)
	}
	t.Setenv(envDir, "")
	if dir, _ := Dir(); dir != filepath.Join(root, "testdata", "vocab") {
		t.Errorf("Dir() = %s, want testdata/vocab at the module root", dir)
	}
}

func TestMissingSkipsOrFails(t *testing.T) {
	t.Setenv(envDir, filepath.Join(t.TempDir(), "nowhere"))
	t.Setenv(envRequire, "")
	r := run(func(tb testing.TB) { Load(tb, "qwen3") })
	if r.fatal != "" || !strings.Contains(r.skipped, "make vocab") {
		t.Errorf("missing folder: skipped %q, fatal %q; want a skip that says how to get the files", r.skipped, r.fatal)
	}
	t.Setenv(envRequire, "1")
	r = run(func(tb testing.TB) { Load(tb, "qwen3") })
	if r.fatal == "" || r.skipped != "" {
		t.Errorf("missing folder with %s=1: skipped %q, fatal %q; want a failure", envRequire, r.skipped, r.fatal)
	}

	t.Setenv(envDir, t.TempDir())
	t.Setenv(envRequire, "")
	r = run(func(tb testing.TB) { Path(tb, "qwen3") })
	if !strings.Contains(r.skipped, "no vocabulary qwen3") {
		t.Errorf("missing vocabulary: skipped %q, fatal %q", r.skipped, r.fatal)
	}
}

func TestLoadBrokenFails(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "broken"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "broken", "tokenizer.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(envDir, dir)
	for range 2 { // the second call answers from the cache, with the same error
		r := run(func(tb testing.TB) { Load(tb, "broken") })
		if !strings.Contains(r.fatal, "parse JSON") {
			t.Errorf("broken vocabulary: fatal %q, skipped %q; want a failure naming the error", r.fatal, r.skipped)
		}
	}
}

// TestLoadCaches checks that a real vocabulary is loaded once per process,
// however many tests ask for it at once (parallel subtests do).
func TestLoadCaches(t *testing.T) {
	Path(t, "qwen3") // skips or fails here, on the test's goroutine, when it is missing
	const n = 4
	var got [n]tokenizer.Tokenizer
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { got[i] = Load(t, "qwen3") })
	}
	wg.Wait()
	for i := range n {
		if got[i] != got[0] {
			t.Fatal("Load returned two tokenizers for one vocabulary")
		}
	}
	if Load(t, "qwen3") != got[0] {
		t.Error("a later Load returned another tokenizer")
	}
}
