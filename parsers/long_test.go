package parsers_test

import (
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/internal/testvocab"
	"github.com/reasoning-go/reasoning/internal/work"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// TestLongOutput is guarantee 3 (constant work per delta) measured in
// numbers a busy machine cannot change: for every name, a stream of ten
// times the deltas may do at most longRatio times the work (bytes the
// marker scanner examines, bytes joined into slabs, token IDs compared: see
// package internal/work) and make at most longRatio times the allocations,
// of at most twice that in bytes (memory that grows with the output, such
// as segments nobody took, grows by doubling). Linear work gives ten
// times; a parser that rescanned what it holds, or what came before, a
// hundred.
//
// The streams are the name's sample, repeated: 10,000, 100,000 then
// 1,000,000 deltas of 4 bytes of text; as many deltas of one real token
// with its ID (the model's own vocabulary, else Qwen3's); and
// IsReasoningEndStreaming token by token, as a grammar gate asks it, over
// a twentieth as many. Work is counted only in builds with the tag
// reasoning_work (make test runs this test so); timings are the
// benchmarks' business (make bench).
func TestLongOutput(t *testing.T) {
	if !work.Counting {
		t.Skip("work is counted only with -tags reasoning_work; make test runs this test so")
	}
	const shortest, longest = 10_000, 1_000_000
	for _, name := range reasoning.Names() {
		raw := readSample(t, name)
		t.Run(name+"/text", func(t *testing.T) {
			text := strings.Repeat(raw, 4*longest/len(raw)+1)[:4*longest]
			s := newStream(t, name, conformance.Tokenizer(name, nil))
			s.step = func(p reasoning.Parser, i int) {
				p.ExtractStreaming(reasoning.Delta{Text: text[4*i : 4*i+4]})
			}
			checkLinear(t, shortest, maxHeld, s)
		})
	}
	// With IDs, after every text stream: the vocabularies loaded for these
	// make each collection that measures what a parser holds slower.
	for _, name := range reasoning.Names() {
		raw := readSample(t, name)
		t.Run(name+"/tokens", func(t *testing.T) {
			tok, vocab := vocabFor(t, name)
			if _, err := reasoning.New(name, tok); err != nil {
				t.Skipf("the %s vocabulary cannot serve %s: %v", vocab, name, err)
			}
			chs, err := conformance.TokenChunkings(tok, raw)
			if err != nil {
				t.Fatal(err)
			}
			one := chs[0].Deltas // one token per delta, with its ID
			ids := make([]int, longest)
			for i := range ids {
				ids[i] = one[i%len(one)].IDs[0]
			}
			s := newStream(t, name, tok)
			s.step = func(p reasoning.Parser, i int) {
				p.ExtractStreaming(reasoning.Delta{Text: one[i%len(one)].Text, IDs: ids[i : i+1]})
			}
			checkLinear(t, shortest, maxHeld, s)
			// The end check a grammar gate asks per token costs more per
			// call (some families decode the last tokens again): a
			// twentieth of the length tells linear from quadratic as well.
			// It remembers its answer for every length (Gate.Rollback
			// goes back to any), so what it holds is not bounded.
			s.step = func(p reasoning.Parser, i int) {
				p.IsReasoningEndStreaming(ids[:i+1], ids[i:i+1])
			}
			checkLinear(t, shortest/20, 0, s)
		})
	}
}

// readSample returns the saved output of a family.
func readSample(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile("../testdata/samples/" + name + ".txt")
	if err != nil {
		t.Fatalf("no sample for %q: %v", name, err)
	}
	return string(raw)
}

// A longStream is what checkLinear streams: a new parser, then step for
// each delta i.
type longStream struct {
	new  func() reasoning.Parser
	step func(p reasoning.Parser, i int)
}

// newStream returns a longStream of parsers of name built with tok; its
// step is the caller's to set.
func newStream(t *testing.T, name string, tok tokenizer.Tokenizer) longStream {
	return longStream{new: func() reasoning.Parser {
		p, err := reasoning.New(name, tok)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}}
}

// run streams n deltas through a new parser, taking the segments of one
// that has them as a client that shows tool calls does, and returns the
// parser before Finish. It stops early once over reports true (asked every
// 256 deltas).
func (s longStream) run(n int, over func() bool) reasoning.Parser {
	p := s.new()
	sg, _ := p.(reasoning.Segmenter)
	for i := 0; i < n && (i%256 != 0 || !over()); i++ {
		s.step(p, i)
		if sg != nil {
			sg.Segments()
		}
	}
	return p
}

// longRatio bounds what ten times the deltas may cost: ten times, and room
// for the tail of the sample a shorter stream stops in.
const longRatio = 11

// workFloor is the work below which a stream's count cannot tell growth
// from where in its sample a shorter stream stopped. The end check counts
// work only at marker IDs, a few per sample: telechat's three streams
// count about 2, 24 and 240, and one marker more or less in the shorter
// stream decides the first ratio. A parser whose work grows with the output
// passes the floor long before the longest stream, which is then held to
// longRatio.
const workFloor = 1 << 8

// maxHeld bounds the memory a parser may hold after the longest stream:
// partial markers, held whitespace, a header, a slab's buffer. A parser
// that kept what it had seen, to look through it again, would hold
// megabytes.
const maxHeld = 256 << 10

// checkLinear streams shortest deltas, then ten and a hundred times as
// many, and checks that each stream's work and allocations are at most
// longRatio times the one before (bytes twice that), and, unless held is
// 0, that the parser holds at most held bytes of memory after each of the
// longer streams. A stream stops as soon as its work passes the bound, so
// that a parser whose work grows with the output fails in seconds, not
// hours.
func checkLinear(t *testing.T, shortest, held int, s longStream) {
	t.Helper()
	never := func() bool { return false }
	prev, _ := measure(false, func() reasoning.Parser { return s.run(shortest, never) }) // warms caches up too: an upper bound for the next
	for n := 10 * shortest; n <= 100*shortest; n *= 10 {
		start, limit := work.Total(), max(longRatio*prev.work, workFloor)
		stopped := false
		over := func() bool {
			stopped = stopped || work.Total()-start > limit
			return stopped
		}
		c, kept := measure(held > 0, func() reasoning.Parser { return s.run(n, over) })
		t.Logf("%d deltas: work %d, allocations %d (%d B); %d deltas: work %d, allocations %d (%d B), %d B held", n/10, prev.work, prev.mallocs, prev.bytes, n, c.work, c.mallocs, c.bytes, kept)
		if stopped {
			t.Fatalf("%d deltas: stopped once the work passed %d, %dx that of %d deltas (%d)", n, limit, longRatio, n/10, prev.work)
		}
		for _, m := range []struct {
			what   string
			c1, c2 uint64
			bound  uint64
			floor  uint64 // below this, the longer stream's count is start-up cost, not growth
		}{
			{"work", prev.work, c.work, longRatio, workFloor},
			{"allocations", prev.mallocs, c.mallocs, longRatio, 1 << 10},
			{"bytes allocated", prev.bytes, c.bytes, 2 * longRatio, 1 << 20}, // a slice grown by doubling holds up to twice what it must
		} {
			if m.c2 > m.floor && m.c2 > m.bound*m.c1 {
				t.Errorf("%d deltas cost %.1fx the %s of %d (%d, then %d), want at most %dx", n, float64(m.c2)/float64(max(m.c1, 1)), m.what, n/10, m.c1, m.c2, m.bound)
			}
		}
		if held > 0 && kept > int64(held) {
			t.Fatalf("after %d deltas the parser holds %d bytes, want at most %d", n, kept, held)
		}
		prev = c
	}
}

// cost is what one stream took: work counted, allocations and bytes.
type cost struct{ work, mallocs, bytes uint64 }

// measure runs stream and returns what it cost, and, when asked to, the
// memory the parser it returns holds before Finish: the live heap after a
// collection, compared with before the stream.
func measure(held bool, stream func() reasoning.Parser) (c cost, kept int64) {
	var before, after runtime.MemStats
	if held {
		runtime.GC()
	}
	runtime.ReadMemStats(&before)
	w := work.Total()
	p := stream()
	w = work.Total() - w
	runtime.ReadMemStats(&after)
	c = cost{w, after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc}
	if held {
		runtime.GC()
		runtime.ReadMemStats(&after)
		kept = int64(after.HeapAlloc) - int64(before.HeapAlloc)
	}
	p.Finish()
	return c, kept
}

// TestEndCheckWork checks that IsReasoningEndStreaming, called once per
// token as a grammar gate calls it, does work per token that does not grow
// with the output so far: for every name, with thinking as the family
// defaults and switched on, the last endCheckWindow tokens of a stream of
// about 32k tokens of the name's sample (in its real vocabulary, and in the
// toy one where every marker is one token) may do at most twice the work of
// the same tokens at the end of a stream of about 4k. The two streams end
// at the same point of the sample, so the windows read the same IDs. Work
// is counted as for TestLongOutput (tag reasoning_work), and every ID
// decoded counts one: a check that decodes the output again does work
// that grows with it.
func TestEndCheckWork(t *testing.T) {
	if !work.Counting {
		t.Skip("work is counted only with -tags reasoning_work; make test runs this test so")
	}
	for _, name := range reasoning.Names() {
		raw := readSample(t, name)
		e, _ := catalog.Lookup(name)
		real := countDecodes(testvocab.Load(t, vocabName(name)))
		toy := countDecodes(conformance.ToyVocab(slices.Concat(e.Markers, e.Boundaries)))
		if e.Config != nil {
			real, toy = tokenizer.WithConfig(real, e.Config), tokenizer.WithConfig(toy, e.Config)
		}
		for _, v := range []struct {
			vocab string
			tok   tokenizer.Tokenizer
		}{{"real", real}, {"toy", toy}} {
			for _, s := range []struct {
				setting string
				opts    []reasoning.Option
			}{{"default", nil}, {"on", []reasoning.Option{thinkingOn}}} {
				t.Run(name+"/"+v.vocab+"/"+s.setting, func(t *testing.T) {
					if _, err := reasoning.New(name, v.tok, s.opts...); err != nil {
						t.Skipf("the vocabulary cannot serve %s: %v", name, err)
					}
					period := v.tok.Encode(raw)
					short, long := roundUp(4<<10, len(period)), roundUp(32<<10, len(period))
					ids := make([]int, long)
					for i := range ids {
						ids[i] = period[i%len(period)]
					}
					w1, all1 := endCheckWork(t, name, v.tok, s.opts, ids[:short], 0)
					w2, all2 := endCheckWork(t, name, v.tok, s.opts, ids, 2*uint64(long/short)*all1)
					switch {
					case w2 == stoppedEarly:
						t.Errorf("%d tokens: stopped once the work passed %d, twice what linear work would do (%d at %d tokens)", long, 2*uint64(long/short)*all1, all1, short)
					case w2 > 2*w1+endCheckWindow:
						t.Errorf("the last %d end checks of %d tokens did %d work, %.1fx that at %d tokens (%d); %d in all", endCheckWindow, long, w2, float64(w2)/float64(max(w1, 1)), short, w1, all2)
					}
				})
			}
		}
	}
}

// endCheckWindow is how many of a stream's last end checks TestEndCheckWork
// counts.
const endCheckWindow = 1000

// endCheckWork calls IsReasoningEndStreaming once per token of ids on a new
// parser, and returns the work of the last endCheckWindow calls and of all.
// Past limit work in all (0: none) it stops, and returns stoppedEarly as
// the last calls' work: a check whose work grows with the output fails in
// seconds, not hours.
func endCheckWork(t *testing.T, name string, tok tokenizer.Tokenizer, opts []reasoning.Option, ids []int, limit uint64) (last, all uint64) {
	t.Helper()
	p, err := reasoning.New(name, tok, opts...)
	if err != nil {
		t.Fatal(err)
	}
	first := work.Total()
	start := first
	for i := 1; i <= len(ids); i++ {
		if i == len(ids)-endCheckWindow+1 {
			start = work.Total()
		}
		if limit > 0 && i%256 == 0 && work.Total()-first > limit {
			return stoppedEarly, work.Total() - first
		}
		p.IsReasoningEndStreaming(ids[:i], ids[i-1:i])
	}
	return work.Total() - start, work.Total() - first
}

// stoppedEarly is what endCheckWork returns for a stream it stopped.
const stoppedEarly = ^uint64(0)

// roundUp returns the least multiple of m that is at least n.
func roundUp(n, m int) int { return (n + m - 1) / m * m }

// countDecodes returns tok, counting each ID it decodes as one unit of work
// (package internal/work); it keeps a vocabulary size tok reports.
func countDecodes(tok tokenizer.Tokenizer) tokenizer.Tokenizer {
	c := decodeCounter{tok}
	if s, ok := tok.(interface{ VocabSize() int }); ok {
		return sizedDecodeCounter{c, s}
	}
	return c
}

// decodeCounter counts the IDs its tokenizer decodes (see countDecodes).
type decodeCounter struct{ tokenizer.Tokenizer }

func (c decodeCounter) Decode(ids []int) string {
	work.Add(len(ids))
	return c.Tokenizer.Decode(ids)
}

// sizedDecodeCounter is a decodeCounter of a tokenizer that reports its
// vocabulary size.
type sizedDecodeCounter struct {
	decodeCounter
	sized interface{ VocabSize() int }
}

func (c sizedDecodeCounter) VocabSize() int { return c.sized.VocabSize() }
