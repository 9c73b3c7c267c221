package conformance

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Fuzz runs the fuzz target of one registered name. The seeds are the
// outputs of the name's case file in casesDir (when there is one) and its
// generated corpus. The property, for any output and any chunking derived
// from the fuzzer's seed: no panic; Collect equals Extract, with text alone
// and with every marker as one token; the split conserves the output
// (nothing lost or invented).
func Fuzz(f *testing.F, name, casesDir string) {
	e, ok := catalog.Lookup(name)
	if !ok {
		f.Fatalf("parser %q has no catalog entry", name)
	}
	if file, err := Load(filepath.Join(casesDir, name+".json")); err == nil {
		for _, c := range file.Cases {
			f.Add(c.Output, uint64(len(c.Output)), false)
		}
	}
	markers := slices.Concat(e.Markers, e.Boundaries)
	for i, out := range Corpus(markers, seed(name)) {
		f.Add(out, uint64(i), i%3 == 0)
	}
	tok := ToyVocab(markers)
	bytes := ToyVocab(e.Boundaries)
	sets := Settings(markers)
	f.Fuzz(func(t *testing.T, out string, chunkSeed uint64, thinkingOff bool) {
		set := sets[chunkSeed%uint64(len(sets))]
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
			t.Fatalf("output %q: %v", out, err)
		}
		r := rand.New(rand.NewPCG(chunkSeed, 1))
		deltas := Random(r, out)
		if got, segs := collect(newParser(), deltas); !cmp.Equal(want, got) || !cmp.Equal(wantSegs, segs) {
			t.Fatalf("Collect of %s differs from Extract (-want +got):\n%s%s", quoted(deltas), cmp.Diff(want, got), cmp.Diff(wantSegs, segs))
		}
		tcs, err := TokenChunkings(tok, out)
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range tcs {
			if got, segs := collect(newParser(), ch.Deltas); !cmp.Equal(want, got) || !cmp.Equal(wantSegs, segs) {
				t.Fatalf("Collect of %s %s differs from Extract (-want +got):\n%s%s", ch.Name, quoted(ch.Deltas), cmp.Diff(want, got), cmp.Diff(wantSegs, segs))
			}
		}
		fresh := func(v tokenizer.Tokenizer) reasoning.Parser {
			p, err := reasoning.New(name, Tokenizer(name, v), set.opts(v)...)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		checkIDMethods(t, fresh, tok, bytes, out, want, e.Boundaries)
	})
}
