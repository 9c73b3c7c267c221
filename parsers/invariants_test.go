package parsers_test

import (
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
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
func TestSteadyStateAllocs(t *testing.T) {
	for _, name := range reasoning.Names() {
		for _, start := range []bool{true, false} {
			p, err := reasoning.New(name, nil, reasoning.WithForceReasoning(start))
			if err != nil {
				t.Fatal(err)
			}
			d := reasoning.Delta{Text: "just some words ", IDs: []int{11, 12, 13}}
			p.ExtractStreaming(d)
			if n := testing.AllocsPerRun(1000, func() { p.ExtractStreaming(d) }); n != 0 {
				t.Errorf("%s (start in reasoning %v): %v allocations per delta, want 0", name, start, n)
			}
		}
	}
}
