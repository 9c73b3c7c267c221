package conformance

import (
	"flag"
	"path/filepath"
	"slices"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/reasoningtest"
)

// fuzzee is what a fuzz target needs of one registered name.
type fuzzee struct {
	name string
	cfg  reasoningtest.Config
	sets []reasoningtest.Setting
}

// Fuzz runs the fuzz target of one family: the registered names that share
// its code. The fuzzer's pick selects the name (modulo len(names)). The
// seeds are the outputs of each name's case file in casesDir (when there is
// one) and its generated corpus. The property, for any output, is the
// conformance kit's on one output (reasoningtest.CheckOutput) under a
// setting and a random chunking derived from the fuzzer's seed: no panic;
// Collect equals Extract, with text alone and with every marker as one
// token; the split conserves the output (nothing lost or invented); IDs
// beat text; the ID methods agree with the text split. Under -short, unless
// fuzzing, the seeds are skipped: they are the cases and corpora other
// tests sweep, on one goroutine.
func Fuzz(f *testing.F, casesDir string, names ...string) {
	if testing.Short() && !fuzzing() {
		f.Skip("the seeds are a sweep on one goroutine: the plain go test run has them")
	}
	if len(names) == 0 || len(names) > 256 {
		f.Fatalf("a fuzz target takes 1 to 256 names, not %d", len(names))
	}
	var fs []fuzzee
	for i, name := range names {
		e := entry(f, name)
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
		fs = append(fs, fuzzee{name, KitConfig(name, e), reasoningtest.DefaultSettings(markers)})
	}
	off := reasoningtest.Setting{Name: "thinking off", Options: []reasoning.Option{reasoning.WithThinking(false)}}
	f.Fuzz(func(t *testing.T, out string, chunkSeed uint64, thinkingOff bool, pick uint8) {
		z := fs[int(pick)%len(fs)]
		set := z.sets[chunkSeed%uint64(len(z.sets))]
		if thinkingOff {
			set = off
		}
		if err := reasoningtest.CheckOutput(Factory(z.name), z.cfg, set, out, chunkSeed); err != nil {
			t.Fatalf("%s: %v", z.name, err)
		}
	})
}

// fuzzing reports whether go test was asked to fuzz (-test.fuzz), not only
// to run the seeds.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}
