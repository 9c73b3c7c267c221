package parsers_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// sample returns the saved output of a family repeated and cut to n bytes,
// or as it is for n 0.
func sample(b *testing.B, name string, n int) string {
	b.Helper()
	s, err := os.ReadFile("../testdata/samples/" + name + ".txt")
	if err != nil {
		b.Fatalf("no sample for %q: %v", name, err)
	}
	if n == 0 {
		return string(s)
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
		b.Run(name+"/extract", func(b *testing.B) { benchExtract(b, name, sample(b, name, 1<<20)) })
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

// BenchmarkExtractVsScan holds Extract to its yardstick, for every
// registered name: a scan of the same ~1 MiB text BenchmarkTable/<name>/extract
// splits that finds every occurrence of the family's markers with
// strings.Index (markerScan), so that a sample dense in markers costs the
// scan per marker too. Each iteration collects garbage (untimed), then runs
// the scan and Extract; it reports the least time of each over the
// iterations (scan-ns, extract-ns) and their ratio (extract/scan), which a
// collection, or a neighbour on a shared machine, does not move the way it
// moves a mean. A name without markers (identity) reports no ratio. It
// reports too the least time one copy of the text into a new string takes
// (copy-ns), the least an Extract that must join its sections from pieces
// pays besides its scan.
func BenchmarkExtractVsScan(b *testing.B) {
	for _, name := range reasoning.Names() {
		b.Run(name, func(b *testing.B) {
			out := sample(b, name, 1<<20)
			markers := familyMarkers(b, name)
			p, err := reasoning.New(name, conformance.Tokenizer(name, nil), thinkingOn)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(out)))
			b.ReportAllocs()
			least := func(d *time.Duration, t time.Duration) {
				if *d == 0 || t < *d {
					*d = t
				}
			}
			var scanned, extracted, copied time.Duration
			for b.Loop() {
				b.StopTimer()
				runtime.GC()
				b.StartTimer()
				t0 := time.Now()
				markerScan(out, markers)
				t1 := time.Now()
				p.Extract(out)
				t2 := time.Now()
				copySink = strings.Clone(out)
				least(&copied, time.Since(t2))
				least(&extracted, t2.Sub(t1))
				least(&scanned, t1.Sub(t0))
			}
			copySink = ""
			b.ReportMetric(float64(scanned.Nanoseconds()), "scan-ns")
			b.ReportMetric(float64(extracted.Nanoseconds()), "extract-ns")
			b.ReportMetric(float64(copied.Nanoseconds()), "copy-ns")
			if len(markers) > 0 {
				b.ReportMetric(float64(extracted)/float64(scanned), "extract/scan")
			}
		})
	}
}

// BenchmarkExtractSample measures Extract of each name's sample as it is,
// one response of a few hundred bytes, on one parser: what a gateway pays
// for a response that is not streamed, where the per-call cost shows
// (ns/op, allocs/op), which BenchmarkExtractVsScan's 1 MiB hides.
func BenchmarkExtractSample(b *testing.B) {
	for _, name := range reasoning.Names() {
		b.Run(name, func(b *testing.B) { benchExtract(b, name, sample(b, name, 0)) })
	}
}

// benchExtract measures Extract of out on one parser of name, with
// thinking on.
func benchExtract(b *testing.B, name, out string) {
	p, err := reasoning.New(name, conformance.Tokenizer(name, nil), thinkingOn)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(out)))
	b.ReportAllocs()
	for b.Loop() {
		p.Extract(out)
	}
}

// copySink keeps BenchmarkExtractVsScan's copy from being optimized away.
var copySink string

// familyMarkers returns the markers name recognises in text, as its
// registered description lists them (reasoning.Info), or its catalog entry
// where they come from the model's files (hf).
func familyMarkers(b *testing.B, name string) []string {
	b.Helper()
	info, ok := reasoning.Default.Info(name)
	if !ok {
		b.Fatalf("no description for %q", name)
	}
	if len(info.Markers) > 0 {
		return info.Markers
	}
	e, _ := catalog.Lookup(name)
	return e.Markers
}

// markerScan finds every occurrence of every marker in text, one
// strings.Index call per occurrence (and one more per marker), and returns
// how many it found: the least work a splitter that must see every marker
// does.
func markerScan(text string, markers []string) int {
	n := 0
	for _, mk := range markers {
		for rest := text; ; n++ {
			i := strings.Index(rest, mk)
			if i < 0 {
				break
			}
			rest = rest[i+len(mk):]
		}
	}
	return n
}

// benchStream streams deltas through a new parser per iteration and reports
// per-delta figures of the ExtractStreaming calls alone.
func benchStream(b *testing.B, name string, tok tokenizer.Tokenizer, deltas []reasoning.Delta) {
	benchCalls(b, name, tok, len(deltas), "delta", func(p reasoning.Parser) {
		for _, d := range deltas {
			p.ExtractStreaming(d)
		}
	})
}

// benchCalls runs calls, n units of work, on a new parser per iteration and
// reports per-unit figures of calls alone (ns, allocs and B per unit); New
// and Finish are left out.
func benchCalls(b *testing.B, name string, tok tokenizer.Tokenizer, n int, unit string, calls func(p reasoning.Parser)) {
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
		calls(p)
		b.StopTimer()
		runtime.ReadMemStats(&after)
		mallocs += after.Mallocs - before.Mallocs
		bytes += after.TotalAlloc - before.TotalAlloc
		p.Finish()
		b.StartTimer()
	}
	units := float64(b.N * n)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/units, "ns/"+unit)
	b.ReportMetric(float64(mallocs)/units, "allocs/"+unit)
	b.ReportMetric(float64(bytes)/units, "B/"+unit)
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

// idBenchNames are the families BenchmarkIDs measures: think-tag families
// with single-token markers (qwen3, deepseek_r1, kimi_k2), with tool-call
// blocks (cohere_command3) and with a channel label (gemma4), and channel
// families for comparison.
var idBenchNames = []string{"qwen3", "deepseek_r1", "cohere_command3", "gemma4", "kimi_k2", "plamo3", "openai_gptoss", "hunyuan_a13b", "muse_spark"}

// BenchmarkIDs measures the ID methods on the name's sample (~64 KiB),
// encoded in its model's vocabulary (Qwen3's where that is not available):
// IsReasoningEndStreaming called once per token as a Gate calls it
// (ns/token, allocs/token), and ExtractContentIDs and CountReasoningTokens
// of the whole sequence (ns/token).
func BenchmarkIDs(b *testing.B) {
	for _, name := range idBenchNames {
		b.Run(name+"/end-streaming", func(b *testing.B) {
			tok, ids := idSample(b, name)
			benchCalls(b, name, tok, len(ids), "token", func(p reasoning.Parser) {
				for i := 1; i <= len(ids); i++ {
					p.IsReasoningEndStreaming(ids[:i], ids[i-1:i])
				}
			})
		})
		for _, method := range []string{"content-ids", "count"} {
			b.Run(name+"/"+method, func(b *testing.B) {
				tok, ids := idSample(b, name)
				p, err := reasoning.New(name, tok, thinkingOn)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if method == "count" {
						p.CountReasoningTokens(ids)
					} else {
						p.ExtractContentIDs(ids)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ids)), "ns/token")
			})
		}
	}
}

// idSample returns the real vocabulary of name and the IDs of its sample
// (~64 KiB) in it.
func idSample(b *testing.B, name string) (tokenizer.Tokenizer, []int) {
	tok, _ := vocabFor(b, name) // loaded once per process
	return tok, tok.Encode(sample(b, name, 64<<10))
}

// BenchmarkTableFloor measures the floor of BenchmarkTable's streaming
// columns, on qwen3's deltas as it streams them: a call and
// strings.IndexByte per delta, the least a parser can do (make bench prints
// each name's ratio to it).
func BenchmarkTableFloor(b *testing.B) {
	out := sample(b, "qwen3", 64<<10)
	var deltas []reasoning.Delta
	for i := 0; i < len(out); i += 4 {
		deltas = append(deltas, reasoning.Delta{Text: out[i:min(len(out), i+4)]})
	}
	b.Run("bytes4", func(b *testing.B) { benchFloor(b, deltas) })
	b.Run("token="+vocabName("qwen3"), func(b *testing.B) {
		tok, _ := vocabFor(b, "qwen3") // loaded once per process
		chs, err := conformance.TokenChunkings(tok, out)
		if err != nil {
			b.Fatal(err)
		}
		benchFloor(b, chs[0].Deltas)
	})
}

// benchFloor reports the ns/delta of floorDelta over deltas.
func benchFloor(b *testing.B, deltas []reasoning.Delta) {
	n := 0
	for b.Loop() {
		for _, d := range deltas {
			n += floorDelta(d.Text)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(deltas)), "ns/delta")
	b.ReportMetric(0, "allocs/delta")
	if n == 42 { // never: keeps the loop
		b.Log(n)
	}
}

// floorDelta is the least a parser does with a delta: a call that looks
// for a marker's first byte in it.
//
//go:noinline
func floorDelta(s string) int { return strings.IndexByte(s, '<') }
