package parsers

import (
	"slices"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// TestNewLazy checks that New makes neither Extract's driver nor the
// streaming end check's scanner (each holds a marker.Scanner, about 3.6 KB
// a parser that streams without them would pay for), and that Extract and
// IsReasoningEndStreaming make them at their first call and reuse them.
func TestNewLazy(t *testing.T) {
	checked := 0
	for _, name := range reasoning.Names() {
		markers, tok := toyOf(t, name)
		out := " plan\n" + strings.Join(markers, "\n a ") + " answer"
		p, err := reasoning.New(name, tok)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sh, ok := p.(*shell)
		if !ok {
			continue // a segmented family's wrapper
		}
		var r *tagIDs // whose end check reads the scanner (hf's rules have their own)
		switch rules := sh.rules.(type) {
		case *tagIDs:
			r = rules
		case *templateRules:
			if rules.end != nil {
				t.Errorf("%s: New made the end check's scanner", name)
			}
		}
		if sh.spare != nil || r != nil && r.end != nil {
			t.Errorf("%s: New made Extract's driver (%t) or the end check's scanner", name, sh.spare != nil)
		}
		p.Extract(out)
		d := sh.spare
		if p.Extract(out); d == nil || sh.spare != d {
			t.Errorf("%s: Extract's driver %p, then %p", name, d, sh.spare)
		}
		if r == nil || !r.textIDs {
			continue
		}
		ids := tok.Encode(out)
		for i := range ids {
			p.IsReasoningEndStreaming(ids[:i+1], ids[i:i+1])
		}
		e := r.end
		if p.IsReasoningEndStreaming(append(ids, ids...), ids); e == nil || r.end != e {
			t.Errorf("%s: the end check's scanner %p, then %p", name, e, r.end)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no think-tag family reads its IDs' text")
	}
}

// toyOf returns name's markers and boundaries, and a toy vocabulary in
// which each of them is one token, with the tokenizer metadata the name's
// catalog entry calls for (conformance.Tokenizer).
func toyOf(t *testing.T, name string) ([]string, tokenizer.Tokenizer) {
	t.Helper()
	e, ok := catalog.Lookup(name)
	if !ok {
		t.Fatalf("no catalog entry for %s", name)
	}
	markers := slices.Concat(e.Markers, e.Boundaries)
	return markers, conformance.Tokenizer(name, conformance.ToyVocab(markers))
}
