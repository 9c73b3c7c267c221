package parsers_test

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
)

// TestLongOutput streams a million deltas through every family and checks
// that time and allocation grow linearly with the length of the stream: ten
// times the deltas may cost at most twenty times as much (a parser that
// rescanned what it had seen would cost a hundred times). The stream is the
// family's sample, repeated, in 4-byte deltas; a ratio over the bound is
// measured twice more, and the fastest runs count.
func TestLongOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("a million deltas per family")
	}
	for _, name := range reasoning.Names() {
		t.Run(name, func(t *testing.T) {
			s, err := os.ReadFile("../testdata/samples/" + name + ".txt")
			if err != nil {
				t.Fatal(err)
			}
			tok := conformance.Tokenizer(name, nil)
			run := func(deltas int) (time.Duration, uint64) {
				text := strings.Repeat(string(s), 4*deltas/len(s)+1)[:4*deltas]
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				start := time.Now()
				p, err := reasoning.New(name, tok)
				if err != nil {
					t.Fatal(err)
				}
				for i := 0; i < len(text); i += 4 {
					p.ExtractStreaming(reasoning.Delta{Text: text[i : i+4]})
				}
				p.Finish()
				elapsed := time.Since(start)
				runtime.ReadMemStats(&after)
				return elapsed, after.TotalAlloc - before.TotalAlloc
			}
			run(10000) // warm up
			t1, m1 := run(100000)
			t2, m2 := run(1000000)
			// A run the scheduler or the collector interrupted says nothing
			// about the parser: over the bound, the fastest of three counts.
			for range 2 {
				if float64(t2)/float64(t1) <= 20 {
					break
				}
				if t, m := run(100000); t < t1 {
					t1, m1 = t, m
				}
				if t, m := run(1000000); t < t2 {
					t2, m2 = t, m
				}
			}
			if ratio := float64(t2) / float64(t1); ratio > 20 {
				t.Errorf("10x the deltas took %.1fx the time (%v, then %v)", ratio, t1, t2)
			}
			if ratio := float64(m2) / float64(max(m1, 1)); m2 > 1<<20 && ratio > 20 {
				t.Errorf("10x the deltas allocated %.1fx the bytes (%d, then %d)", ratio, m1, m2)
			}
		})
	}
}
