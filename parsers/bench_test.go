package parsers_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/tokenizer"
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

// thinkingOn is the request every BenchmarkTable parser serves: thinking
// switched on by each family's switch, so that names whose default is off
// (deepseek_v3, poolside_v1, hy_v3, exaone4, gigachat35 with its
// "reasoning" key) parse rather than pass text through.
var thinkingOn = reasoning.WithChatTemplateKwargs(map[string]any{
	"enable_thinking": true, "thinking": true, "reasoning_effort": "high", "reasoning": true,
})

// BenchmarkTable measures, for every registered name, what the README's
// performance table publishes (make bench prints it): Extract of a ~1 MiB
// output (MB/s), and streaming the name's sample (~64 KiB) in ~4-byte deltas
// and in deltas of one real token with its ID (ns/delta, allocs/delta and
// B/delta while streaming; New and Finish, once per stream, are left out).
// Every parser has thinking on.
func BenchmarkTable(b *testing.B) {
	for _, name := range reasoning.Names() {
		b.Run(name+"/extract", func(b *testing.B) {
			out := sample(b, name, 1<<20)
			p, err := reasoning.New(name, conformance.Tokenizer(name, nil), thinkingOn)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(out)))
			b.ReportAllocs()
			for b.Loop() {
				p.Extract(out)
			}
		})
		b.Run(name+"/bytes4", func(b *testing.B) {
			out := sample(b, name, 64<<10)
			var deltas []reasoning.Delta
			for i := 0; i < len(out); i += 4 {
				deltas = append(deltas, reasoning.Delta{Text: out[i:min(len(out), i+4)]})
			}
			benchStream(b, name, conformance.Tokenizer(name, nil), deltas)
		})
		b.Run(name+"/token="+vocabName(name), func(b *testing.B) {
			tok, _ := vocabFor(b, name) // loaded once per process
			if _, err := reasoning.New(name, tok, thinkingOn); err != nil {
				b.Skipf("no real vocabulary serves %s: %v", name, err)
			}
			chs, err := conformance.TokenChunkings(tok, sample(b, name, 64<<10))
			if err != nil {
				b.Fatal(err)
			}
			benchStream(b, name, tok, chs[0].Deltas)
		})
	}
}

// benchStream streams deltas through a new parser per iteration and reports
// per-delta figures of the ExtractStreaming calls alone.
func benchStream(b *testing.B, name string, tok tokenizer.Tokenizer, deltas []reasoning.Delta) {
	var before, after runtime.MemStats
	var mallocs, bytes uint64
	for b.Loop() {
		b.StopTimer()
		p, err := reasoning.New(name, tok, thinkingOn)
		if err != nil {
			b.Fatal(err)
		}
		runtime.ReadMemStats(&before)
		b.StartTimer()
		for _, d := range deltas {
			p.ExtractStreaming(d)
		}
		b.StopTimer()
		runtime.ReadMemStats(&after)
		mallocs += after.Mallocs - before.Mallocs
		bytes += after.TotalAlloc - before.TotalAlloc
		p.Finish()
		b.StartTimer()
	}
	n := float64(b.N * len(deltas))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/delta")
	b.ReportMetric(float64(mallocs)/n, "allocs/delta")
	b.ReportMetric(float64(bytes)/n, "B/delta")
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
