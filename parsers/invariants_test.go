package parsers_test

import (
	"errors"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/internal/testvocab"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// shortSkip is why -short (make test's -race run) skips a test: it sweeps
// many inputs on one goroutine, where the race detector can find nothing,
// and the plain go test run has it.
const shortSkip = "a sweep on one goroutine: the plain go test run has it"

// TestInvariants checks the guarantees of the design for every registered
// name, on a corpus built from the family's own markers, so that a family
// added later is covered without anyone remembering. make test checks a
// seeded third of the corpus, make check (REASONING_SWEEP=full) all of it.
func TestInvariants(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
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
// The delta begins with a space, as BPE tokens do. (TestAmortizedAllocs
// covers deltas that end in whitespace, and markers.)
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

// TestAmortizedAllocs is the rest of guarantee 3's allocation half: over
// a long stream of a family's own output, markers and all, in ~4-byte deltas
// and in deltas that end in whitespace (which families that trim it hold
// back and join to the next delta), allocations stay amortized at about
// zero per delta: joined text is carved from slabs of up to 16 KiB, not
// allocated delta by delta. The first 128 KiB warm the parser up; the next
// 128 KiB are measured.
func TestAmortizedAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 256 KiB per name")
	}
	const half = 128 << 10
	for _, name := range reasoning.Names() {
		raw, err := os.ReadFile("../testdata/samples/" + name + ".txt")
		if err != nil {
			t.Fatalf("no sample for %q: %v", name, err)
		}
		out := strings.Repeat(string(raw), 2*half/len(raw)+1)[:2*half]
		for _, chunking := range []string{"bytes4", "words"} {
			var deltas []reasoning.Delta
			for i := 0; i < len(out); {
				n := 4
				if chunking == "words" {
					n = strings.IndexAny(out[i:], " \n") + 1 // through the next whitespace
					if n == 0 {
						n = len(out) - i
					}
				}
				deltas = append(deltas, reasoning.Delta{Text: out[i:min(len(out), i+n)]})
				i += n
			}
			p, err := reasoning.New(name, conformance.Tokenizer(name, nil))
			if err != nil {
				t.Fatal(err)
			}
			warm := 0
			for fed := 0; fed < half; warm++ {
				p.ExtractStreaming(deltas[warm])
				fed += len(deltas[warm].Text)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for _, d := range deltas[warm:] {
				p.ExtractStreaming(d)
			}
			runtime.ReadMemStats(&after)
			perDelta := float64(after.Mallocs-before.Mallocs) / float64(len(deltas)-warm)
			if perDelta > 0.005 {
				t.Errorf("%s, %s deltas: %.4f allocations per delta over 128 KiB of its sample, want about 0 (at most 0.005)", name, chunking, perDelta)
			}
		}
	}
}

// TestConcurrentParsers is guarantee 4 under load: 64 parsers of every
// registered name (over 3,000 in all), built from one shared tokenizer,
// half of them with a prompt, start together and stream their family's
// sample token by token with IDs, asking for segments and the ID methods as
// they go. Run with -race, it shows that parsers share nothing mutable; each
// must get the answer a parser built alone gets.
func TestConcurrentParsers(t *testing.T) {
	tok, err := tokenizer.NewVocab(map[string]int{"<think>": 1, "</think>": 2, "<tool_call>": 3, "<|im_start|>": 5, "<assistant>": 7, "<|iquestcoder_assistant|>": 8})
	if err != nil {
		t.Fatal(err)
	}
	const perName = 64
	type job struct {
		name, out string
		opts      []reasoning.Option
		want      reasoning.Message
		wantSegs  []reasoning.Segment
		deltas    []reasoning.Delta
	}
	var jobs []job
	for _, name := range reasoning.Names() {
		raw, err := os.ReadFile("../testdata/samples/" + name + ".txt")
		if err != nil {
			t.Fatalf("no sample for %q: %v", name, err)
		}
		out := "\xffplan <think>step</th" + "ink> " + string(raw)
		ids := tok.Encode(out)
		var deltas []reasoning.Delta
		for i := range ids {
			deltas = append(deltas, reasoning.Delta{Text: tok.Decode(ids[i : i+1]), IDs: ids[i : i+1]})
		}
		const prompt = "<|im_start|>assistant\n<think>\n"
		for _, opts := range [][]reasoning.Option{nil, {reasoning.WithPrompt(prompt, tok.Encode(prompt))}} {
			p, err := reasoning.New(name, conformance.Tokenizer(name, tok), opts...)
			if err != nil {
				t.Fatal(err)
			}
			j := job{name: name, out: out, opts: opts, want: p.Extract(out), deltas: deltas}
			if sg, ok := p.(reasoning.Segmenter); ok {
				j.wantSegs = sg.ExtractSegments(out)
			}
			jobs = append(jobs, j)
		}
	}
	begin := make(chan struct{})
	var wg sync.WaitGroup
	for _, j := range jobs {
		for range perName / 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p, err := reasoning.New(j.name, conformance.Tokenizer(j.name, tok), j.opts...)
				if err != nil {
					t.Error(err)
					return
				}
				<-begin
				sg, _ := p.(reasoning.Segmenter)
				var got reasoning.Message
				var segs []reasoning.Segment
				var ids []int
				for _, d := range j.deltas {
					m := p.ExtractStreaming(d)
					got.Reasoning += m.Reasoning
					got.Content += m.Content
					ids = append(ids, d.IDs...)
					p.IsReasoningEndStreaming(ids, d.IDs)
					if sg != nil {
						segs = append(segs, sg.Segments()...)
					}
				}
				m := p.Finish()
				got.Reasoning += m.Reasoning
				got.Content += m.Content
				if got != j.want {
					t.Errorf("%s: concurrent stream = %+v, want %+v", j.name, got, j.want)
				}
				if sg != nil {
					segs = append(segs, sg.Segments()...)
					if merged := conformance.MergeSegments(segs); !reflect.DeepEqual(merged, j.wantSegs) {
						t.Errorf("%s: concurrent segments = %+v, want %+v", j.name, merged, j.wantSegs)
					}
				}
				p.IsReasoningEnd(ids)
				p.ExtractContentIDs(ids)
				p.CountReasoningTokens(ids)
				if p.Extract(j.out) != j.want {
					t.Errorf("%s: Extract after streaming differs", j.name)
				}
			}()
		}
	}
	close(begin)
	wg.Wait()
}

// TestInvariantsRealVocab runs the registry-wide invariants again through a
// real model vocabulary per name (the model's own where ../shared/vocab has
// it, else Qwen3's; see realVocab): real tokens split markers and text as
// a serving stack's deltas do, and the answer must not change.
func TestInvariantsRealVocab(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	for _, name := range reasoning.Names() {
		vocab := vocabName(name)
		t.Run(name+"/"+vocab, func(t *testing.T) {
			t.Parallel()
			tok := testvocab.Load(t, vocab)
			if err := conformance.CheckInvariantsVocab(t, name, tok); err != nil {
				if !errors.Is(err, tokenizer.ErrUnencodable) {
					t.Fatal(err)
				}
				t.Skipf("the %s vocabulary cannot serve %s: %v", vocab, name, err)
			}
		})
	}
}
