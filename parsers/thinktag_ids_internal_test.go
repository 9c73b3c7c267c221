package parsers

import (
	"slices"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/internal/testvocab"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// TestTagExtractContentIDsOneScan holds the think-tag rules'
// extractContentIDs, which reads the text once for the end check and the
// last opener, to what the end check (ended) and contentIDs answer each by
// its own scan, for every name whose ID rules are the think-tag family's
// (tagIDs), on the conformance corpus of its markers: through a vocabulary
// where its markers are single tokens, one of byte tokens, and Qwen3's,
// with the starts the options give and those of a prompt that ends in
// each marker.
func TestTagExtractContentIDsOneScan(t *testing.T) {
	bytes, err := tokenizer.NewVocab(map[string]int{})
	if err != nil {
		t.Fatal(err)
	}
	optSets := [][]reasoning.Option{nil, {thinkingOn}, {reasoning.WithForceReasoning(false)}, {reasoning.WithForceReasoning(true)}}
	checked := 0
	for _, name := range reasoning.Names() {
		e, ok := catalog.Lookup(name)
		if !ok {
			t.Fatalf("no catalog entry for %s", name)
		}
		markers := slices.Concat(e.Markers, e.Boundaries)
		toks := []tokenizer.Tokenizer{conformance.ToyVocab(markers), bytes}
		if !testing.Short() {
			toks = append(toks, testvocab.Load(t, "qwen3"))
		}
		corpus := conformance.Corpus(markers, uint64(len(name)))
		for ti, base := range toks {
			tok := conformance.Tokenizer(name, base)
			sets := slices.Clone(optSets)
			for _, m := range markers { // a prompt that ends in each marker: a start in reasoning, in content, in a tool block
				sets = append(sets, []reasoning.Option{reasoning.WithPrompt(m, tok.Encode(m))})
			}
			for oi, opts := range sets {
				p, err := reasoning.New(name, tok, opts...)
				if err != nil {
					continue // a vocabulary that cannot serve the family
				}
				sh, ok := p.(*shell)
				if !ok {
					continue
				}
				r, ok := sh.rules.(*tagIDs)
				if !ok {
					continue
				}
				checked++
				for _, out := range corpus {
					ids := tok.Encode(out)
					var want []int
					if r.ended(ids) {
						want = r.contentIDs(ids)
					}
					got := r.extractContentIDs(ids)
					if (got == nil) != (want == nil) || !slices.Equal(got, want) {
						t.Fatalf("%s, vocabulary %d, options %d, output %q: extractContentIDs = %v (nil %v), ended and contentIDs %v (nil %v)",
							name, ti, oi, out, got, got == nil, want, want == nil)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no name has the think-tag ID rules")
	}
}
