package conformance

import (
	"flag"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// fuzzee is what a fuzz target needs of one registered name.
type fuzzee struct {
	name  string
	entry catalog.Entry
	tok   tokenizer.Tokenizer // every marker one token, the rest bytes
	bytes tokenizer.Tokenizer // only the boundaries as tokens
	sets  []Options
}

// Fuzz runs the fuzz target of one family: the registered names that share
// its code. The fuzzer's pick selects the name (modulo len(names)). The
// seeds are the outputs of each name's case file in casesDir (when there is
// one) and its generated corpus. The property, for any output and any
// chunking derived from the fuzzer's seed: no panic; Collect equals Extract,
// with text alone and with every marker as one token; the split conserves
// the output (nothing lost or invented); the ID methods agree with the text
// split. Under -short, unless fuzzing, the seeds are skipped: they are the
// cases and corpora other tests sweep, on one goroutine.
func Fuzz(f *testing.F, casesDir string, names ...string) {
	if testing.Short() && !fuzzing() {
		f.Skip("the seeds are a sweep on one goroutine: the plain go test run has them")
	}
	if len(names) == 0 || len(names) > 256 {
		f.Fatalf("a fuzz target takes 1 to 256 names, not %d", len(names))
	}
	var fs []fuzzee
	for i, name := range names {
		e, ok := catalog.Lookup(name)
		if !ok {
			f.Fatalf("parser %q has no catalog entry", name)
		}
		pick := uint8(i)
		if file, err := Load(filepath.Join(casesDir, name+".json")); err == nil {
			for _, c := range file.Cases {
				f.Add(c.Output, uint64(len(c.Output)), false, pick)
			}
		}
		markers := slices.Concat(e.Markers, e.Boundaries)
		for j, out := range Corpus(markers, seed(name)) {
			f.Add(out, uint64(j), j%3 == 0, pick)
		}
		fs = append(fs, fuzzee{name, e, ToyVocab(markers), ToyVocab(e.Boundaries), Settings(markers)})
	}
	f.Fuzz(func(t *testing.T, out string, chunkSeed uint64, thinkingOff bool, pick uint8) {
		z := fs[int(pick)%len(fs)]
		name, e, tok := z.name, z.entry, z.tok
		set := z.sets[chunkSeed%uint64(len(z.sets))]
		if thinkingOff {
			set = Options{Kwargs: map[string]any{"enable_thinking": false, "thinking": false}}
		}
		newParser := func() reasoning.Parser {
			p, err := reasoning.New(name, Tokenizer(name, tok), set.opts(tok)...)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		want := newParser().Extract(out)
		wantSegs := segmentsOf(newParser(), out)
		if err := Conserves(out, want, wantSegs, e); err != nil {
			t.Fatalf("%s: output %q: %v", name, out, err)
		}
		r := rand.New(rand.NewPCG(chunkSeed, 1))
		deltas := Random(r, out)
		if got, segs := collect(newParser(), deltas); !cmp.Equal(want, got) || !cmp.Equal(wantSegs, segs) {
			t.Fatalf("%s: Collect of %s differs from Extract (-want +got):\n%s%s", name, quoted(deltas), cmp.Diff(want, got), cmp.Diff(wantSegs, segs))
		}
		tcs, err := TokenChunkings(tok, out)
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range tcs {
			if got, segs := collect(newParser(), ch.Deltas); !cmp.Equal(want, got) || !cmp.Equal(wantSegs, segs) {
				t.Fatalf("%s: Collect of %s %s differs from Extract (-want +got):\n%s%s", name, ch.Name, quoted(ch.Deltas), cmp.Diff(want, got), cmp.Diff(wantSegs, segs))
			}
		}
		fresh := func(v tokenizer.Tokenizer) reasoning.Parser {
			p, err := reasoning.New(name, Tokenizer(name, v), set.opts(v)...)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		// The harness reads the IDs a bounded number of times, but the
		// streaming end check of Harmony rereads the whole prefix
		// per delta when a marker is several tokens (the byte vocabulary):
		// past maxIDCheck bytes that makes one input outlast the fuzzer's
		// hang timeout (a 3.8 KB run of "<" did, on a loaded machine).
		if len(out) <= maxIDCheck {
			checkIDMethods(t, fresh, tok, z.bytes, out, want, slices.Concat(e.Markers, e.Boundaries), e.Boundaries)
		}
	})
}

// maxIDCheck is the longest fuzz input whose ID methods are checked; longer
// ones get every other check.
const maxIDCheck = 1 << 10

// fuzzing reports whether go test was asked to fuzz (-test.fuzz), not only
// to run the seeds.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}
