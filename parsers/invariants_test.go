package parsers_test

import (
	"sync"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// TestInvariants checks the guarantees of the design for every registered
// name, on a corpus built from the family's own markers, so that a family
// added later is covered without anyone remembering.
func TestInvariants(t *testing.T) {
	for _, name := range reasoning.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			conformance.CheckInvariants(t, name)
		})
	}
}

// TestSteadyStateAllocs is guarantee 3's allocation half: once a stream is
// under way, a delta that holds no marker costs no allocation, with text
// alone and with IDs, in reasoning and in content. (The time half is
// BenchmarkStream, whose ns/delta is the same at 1,000 and 100,000 deltas.)
// The delta begins with a space, as BPE tokens do: a family that drops the
// trailing whitespace of reasoning holds a delta's trailing whitespace, and
// joining it to the next delta's text costs the one string it returns.
func TestSteadyStateAllocs(t *testing.T) {
	for _, name := range reasoning.Names() {
		for _, start := range []bool{true, false} {
			p, err := reasoning.New(name, conformance.Tokenizer(name, nil), reasoning.WithForceReasoning(start))
			if err != nil {
				t.Fatal(err)
			}
			d := reasoning.Delta{Text: " just some words", IDs: []int{11, 12, 13}}
			p.ExtractStreaming(d)
			if n := testing.AllocsPerRun(1000, func() { p.ExtractStreaming(d) }); n != 0 {
				t.Errorf("%s (start in reasoning %v): %v allocations per delta, want 0", name, start, n)
			}
		}
	}
}

// TestConcurrentParsers is guarantee 4: parsers of every family, built from
// one shared tokenizer, run at once and share nothing mutable (run with
// -race), and each gets the answer it gets alone.
func TestConcurrentParsers(t *testing.T) {
	tok, err := tokenizer.NewVocab(map[string]int{"<think>": 1, "</think>": 2, "<tool_call>": 3, "<|im_start|>": 5, "<assistant>": 7})
	if err != nil {
		t.Fatal(err)
	}
	out := "\xffplan <think>step</th" + "ink> more</think>answer <tool_call>{}"
	ids := tok.Encode(out)
	var wg sync.WaitGroup
	for _, name := range reasoning.Names() {
		p, err := reasoning.New(name, conformance.Tokenizer(name, tok))
		if err != nil {
			t.Fatal(err)
		}
		want := p.Extract(out)
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p, err := reasoning.New(name, conformance.Tokenizer(name, tok))
				if err != nil {
					t.Error(err)
					return
				}
				var deltas []reasoning.Delta
				for i := range ids {
					deltas = append(deltas, reasoning.Delta{Text: tok.Decode(ids[i : i+1]), IDs: ids[i : i+1]})
				}
				if got := reasoning.Collect(p, deltas); got != want {
					t.Errorf("%s: concurrent Collect = %+v, want %+v", name, got, want)
				}
				p.IsReasoningEnd(ids)
				p.ExtractContentIDs(ids)
				p.CountReasoningTokens(ids)
				p.Extract(out)
			}()
		}
	}
	wg.Wait()
}
