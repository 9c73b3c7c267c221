package reasoning_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/internal/testvocab"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// forceOracle is what Force returned, after each prefix of an output, when
// it asked IsReasoningEnd of the whole sequence and the rest of the end
// marker, computed from a parser no Gate drives.
type forceOracle struct {
	ended  []bool  // by prefix length: reasoning had ended
	counts []int   // by prefix length: tokens accepted while reasoning
	rest   [][]int // by prefix length: the end marker's IDs still to come
	ends   []bool  // by prefix length: reasoning ends with rest after it
}

func newForceOracle(ref reasoning.Parser, end, prompt, out []int) *forceOracle {
	o := &forceOracle{}
	m := tokenizer.Delimiter{IDs: end}.NewMatcher()
	all, count := slices.Clone(prompt), 0
	for j := 0; ; j++ {
		ended := ref.IsReasoningEnd(all)
		rest := slices.Clone(m.Remaining())
		o.ended, o.counts, o.rest = append(o.ended, ended), append(o.counts, count), append(o.rest, rest)
		o.ends = append(o.ends, ref.IsReasoningEnd(slices.Concat(all, rest)))
		if j == len(out) {
			return o
		}
		if !ended {
			count++
		}
		all = append(all, out[j])
		m.Accept(out[j])
	}
}

// force returns what Force returned after the first n IDs, with budget.
func (o *forceOracle) force(n, budget int) []int {
	if o.ended[n] || o.counts[n] < budget || !o.ends[n] {
		return nil
	}
	return o.rest[n]
}

// TestGateForceEquivalence: for every family that names its end marker,
// with budgets 1 to 3, after every token of a corpus built from its
// markers, and after rollbacks, Force returns what asking IsReasoningEnd
// of the whole sequence and the rest of the marker gives, with the parser
// given the Gate's prompt, a longer one or none, and after a response to
// another prompt. make test checks every third output of the corpus, make
// check (REASONING_SWEEP=full) all.
func TestGateForceEquivalence(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	for _, f := range endFamilies(t) {
		name, markers, tok, end := f.name, f.markers, f.tok, f.end
		t.Run(name, func(t *testing.T) {
			prompts := [][]int{nil}
			for _, m := range markers {
				prompts = append(prompts, tok.Encode("<|im_start|>assistant\n"+m+"\n"))
			}
			seed := uint64(len(name))
			r := rand.New(rand.NewPCG(27, seed))
			for i, text := range conformance.Corpus(markers, 7) {
				if !conformance.FullSweep() && i%3 != int(seed%3) {
					continue
				}
				ids := tok.Encode(text)
				prompt := prompts[i%len(prompts)]
				var opts []reasoning.Option
				switch {
				case prompt == nil:
				case i%4 == 2: // the parser is given the prompt too
					opts = append(opts, reasoning.WithPrompt("", prompt))
				case i%4 == 3: // a longer one, which the sequence may begin with or not
					opts = append(opts, reasoning.WithPrompt("", slices.Concat(prompt, ids[:min(2, len(ids))])))
				}
				o := newForceOracle(newWith(t, name, tok, opts...), end, prompt, ids)
				for budget := 1; budget <= 3; budget++ {
					g := reasoning.NewGate(newWith(t, name, tok, opts...), reasoning.WithThinkingBudget(budget, nil))
					if i%5 == 1 { // a response to another prompt first, then this one
						g.Prompt(prompts[(i+1)%len(prompts)])
						g.Accept(ids[len(ids)/2:]...)
						g.Force()
					}
					if prompt != nil || i%5 == 1 {
						g.Prompt(prompt)
					}
					check := func(n int) {
						t.Helper()
						if got, want := g.Force(), o.force(n, budget); !slices.Equal(got, want) {
							t.Fatalf("rollback seed (27, %d), output %q, prompt %v, budget %d, after %v: Force = %v, IsReasoningEnd gives %v", seed, text, prompt, budget, ids[:n], got, want)
						}
					}
					check(0)
					for j := 0; j < len(ids); j++ {
						g.Accept(ids[j])
						check(j + 1)
						if r.IntN(5) == 0 { // speculative decoding rejects some tokens, which come again
							n := 1 + r.IntN(min(j+1, 3))
							g.Rollback(n)
							j -= n
							check(j + 1)
						}
					}
				}
			}
		})
	}
}

// endFamily is a registered name whose parser names its end marker, with
// its markers (boundaries included), a toy vocabulary in which each is
// one token, and the end marker's IDs there.
type endFamily struct {
	name    string
	markers []string
	tok     tokenizer.Tokenizer
	end     []int
}

// endFamilies returns every endFamily; it fails t if there is none.
func endFamilies(t *testing.T) []endFamily {
	var fs []endFamily
	for _, name := range reasoning.Names() {
		e, ok := catalog.Lookup(name)
		require.True(t, ok)
		markers := slices.Concat(e.Markers, e.Boundaries)
		tok := conformance.Tokenizer(name, conformance.ToyVocab(markers))
		if em, ok := newWith(t, name, tok).(reasoning.EndMarker); ok && len(em.EndIDs()) > 0 {
			fs = append(fs, endFamily{name, markers, tok, em.EndIDs()})
		}
	}
	require.NotEmpty(t, fs, "no family names its end marker")
	return fs
}

// forceInToolBlock returns a Gate over intern_s1 whose budget has run out
// inside a tool-call block open in reasoning, after a prompt of about n
// bytes that the parser was not given (Gate.Prompt alone), and the IDs
// that go on with the block.
func forceInToolBlock(tb testing.TB, n int) (*reasoning.Gate, []int) {
	tok := testvocab.Load(tb, "qwen3")
	prompt := tok.Encode(conformance.Filler(n) + "<|im_start|>assistant\n<think>\n")
	p, err := reasoning.New("intern_s1", tok)
	require.NoError(tb, err)
	g := reasoning.NewGate(p, reasoning.WithThinkingBudget(2, nil))
	g.Prompt(prompt)
	g.Accept(tok.Encode(" one two")...)
	g.Accept(tok.Encode(`<|action_start|> {"name": "f", "arguments": {"x": 1`)...)
	require.False(tb, g.Constrain())
	require.Nil(tb, g.Force(), "the block is open")
	return g, tok.Encode(conformance.Filler(4096))
}

// TestGateForceInToolBlockAllocs: inside an open tool-call block, after a
// long prompt the parser was not given, Force allocates nothing: it does
// not read the sequence again.
func TestGateForceInToolBlockAllocs(t *testing.T) {
	g, more := forceInToolBlock(t, 40000)
	if n := testing.AllocsPerRun(200, func() { _ = g.Force() }); n != 0 {
		t.Errorf("Force: %v allocations per call in an open block", n)
	}
	i := 0
	if n := testing.AllocsPerRun(200, func() { g.Accept(more[i]); i++; _ = g.Force() }); n > 0.05 {
		t.Errorf("Accept and Force: %v allocations per token in an open block", n)
	}
}

// BenchmarkGateForceInToolBlock measures Force at a sampling step inside a
// tool-call block open in reasoning once the budget has run out, after a
// prompt of about 10k tokens the parser was not given.
func BenchmarkGateForceInToolBlock(b *testing.B) {
	g, _ := forceInToolBlock(b, 40000)
	b.ReportAllocs()
	for b.Loop() {
		if g.Force() != nil {
			b.Fatal("forced inside the block")
		}
	}
}

// TestGateForceRandom drives a Gate over each family that names its end
// marker with random IDs (its markers' and text's), random rollbacks and
// a parser given a longer prompt than the Gate's, so that the sequence
// begins with the parser's prompt at some steps and not at others. After
// every step Constrain must be IsReasoningEnd of the sequence and Force
// the end marker's rest (after the part the output ends with) exactly
// where the budget has run out and IsReasoningEnd of the sequence and the
// rest holds.
//
// Fixed bug: the parser's streaming end check kept what it had learnt
// across such a change of start, so that Constrain (and Force's fast path,
// which goes on from the check's walk) answered for other IDs.
func TestGateForceRandom(t *testing.T) {
	trials := 400
	if conformance.FullSweep() {
		trials = 4000
	}
	for _, f := range endFamilies(t) {
		name, tok, end := f.name, f.tok, f.end
		pool := conformance.MarkerIDs(tok, f.markers, " a b")
		t.Run(name, func(t *testing.T) {
			seed := uint64(len(name))
			r := rand.New(rand.NewPCG(3, seed))
			pick := func() int { return pool[r.IntN(len(pool))] }
			for trial := range trials {
				gp := make([]int, r.IntN(3))
				for i := range gp {
					gp[i] = pick()
				}
				wp := append(slices.Clone(gp), pick())
				g := reasoning.NewGate(newWith(t, name, tok, reasoning.WithPrompt("", wp)), reasoning.WithThinkingBudget(1, nil))
				ref := newWith(t, name, tok, reasoning.WithPrompt("", wp))
				g.Prompt(gp)
				seq, counts := slices.Clone(gp), []int{0}
				for range 20 {
					if out := len(seq) - len(gp); out > 0 && r.IntN(3) == 0 {
						n := 1 + r.IntN(out)
						g.Rollback(n)
						seq, counts = seq[:len(seq)-n], counts[:len(counts)-n]
					} else {
						c := counts[len(counts)-1]
						if !ref.IsReasoningEnd(seq) {
							c++
						}
						id := pick()
						g.Accept(id)
						seq, counts = append(seq, id), append(counts, c)
					}
					ended := ref.IsReasoningEnd(seq)
					require.Equal(t, ended, g.Constrain(), "seed (3, %d), trial %d: Constrain after %v (the Gate's prompt %v, the parser's %v)", seed, trial, seq, gp, wp)
					m := tokenizer.Delimiter{IDs: end}.NewMatcher()
					for _, id := range seq[len(gp):] {
						m.Accept(id)
					}
					var want []int
					if rest := m.Remaining(); !ended && counts[len(counts)-1] >= 1 && ref.IsReasoningEnd(slices.Concat(seq, rest)) {
						want = rest
					}
					if got := g.Force(); !slices.Equal(got, want) {
						t.Fatalf("seed (3, %d), trial %d: Force after %v (the Gate's prompt %v, the parser's %v) = %v, want %v", seed, trial, seq, gp, wp, got, want)
					}
				}
			}
		})
	}
}
