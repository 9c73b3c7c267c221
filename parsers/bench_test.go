package parsers_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
)

// sample returns the saved output of a family, repeated to at least n bytes.
func sample(b *testing.B, name string, n int) string {
	b.Helper()
	s, err := os.ReadFile("../testdata/samples/" + name + ".txt")
	if err != nil {
		b.Fatalf("no sample for %q: %v", name, err)
	}
	return strings.Repeat(string(s), n/len(s)+1)[:n]
}

// BenchmarkExtract splits a ~1 MiB output per family.
func BenchmarkExtract(b *testing.B) {
	for _, name := range reasoning.Names() {
		b.Run(name, func(b *testing.B) {
			out := sample(b, name, 1<<20)
			p, err := reasoning.New(name, conformance.Tokenizer(name, nil))
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(out)))
			b.ReportAllocs()
			for b.Loop() {
				p.Extract(out)
			}
		})
	}
}

// BenchmarkStream feeds ~4-byte deltas per family, at two stream lengths:
// the ns/delta figure must not grow with the length.
func BenchmarkStream(b *testing.B) {
	for _, name := range reasoning.Names() {
		for _, deltas := range []int{1000, 100000} {
			b.Run(fmt.Sprintf("%s/deltas=%d", name, deltas), func(b *testing.B) {
				out := sample(b, name, 4*deltas)
				b.SetBytes(int64(len(out)))
				b.ReportAllocs()
				tok := conformance.Tokenizer(name, nil) // a family that needs metadata gets it
				for b.Loop() {
					p, err := reasoning.New(name, tok)
					if err != nil {
						b.Fatal(err)
					}
					for i := 0; i < len(out); i += 4 {
						p.ExtractStreaming(reasoning.Delta{Text: out[i:min(len(out), i+4)]})
					}
					p.Finish()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*deltas), "ns/delta")
			})
		}
	}
}
