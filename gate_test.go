package reasoning_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/internal/testvocab"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// shortSkip is why -short (make test's -race run) skips a test: it sweeps
// many inputs on one goroutine, where the race detector can find nothing,
// and the plain go test run has it.
const shortSkip = "a sweep on one goroutine: the plain go test run has it"

// newWith builds a parser of name, failing t on error.
func newWith(t testing.TB, name string, tok tokenizer.Tokenizer, opts ...reasoning.Option) reasoning.Parser {
	t.Helper()
	p, err := reasoning.New(name, tok, opts...)
	require.NoError(t, err)
	return p
}

// TestGateEveryFamily: for every registered name, on a corpus built from its
// markers, the Gate opens exactly when IsReasoningEnd says reasoning has
// ended for the prompt and tokens so far, and counts reasoning tokens as
// CountReasoningTokens does.
func TestGateEveryFamily(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	for _, name := range reasoning.Names() {
		t.Run(name, func(t *testing.T) {
			e, ok := catalog.Lookup(name)
			require.True(t, ok)
			markers := slices.Concat(e.Markers, e.Boundaries)
			tok := conformance.Tokenizer(name, conformance.ToyVocab(markers))
			prompts := [][]int{nil}
			for _, m := range markers {
				prompts = append(prompts, tok.Encode("<|im_start|>assistant\n"+m+"\n"))
			}
			for i, out := range conformance.Corpus(markers, 7) {
				if i%3 != 0 {
					continue
				}
				ids := tok.Encode(out)
				prompt := prompts[i%len(prompts)]
				ref := newWith(t, name, tok)
				g := reasoning.NewGate(newWith(t, name, tok))
				if prompt != nil {
					g.Prompt(prompt)
				}
				all := slices.Clone(prompt)
				if want := ref.IsReasoningEnd(all); g.Constrain() != want && prompt != nil {
					t.Fatalf("output %q: Constrain before any token = %v, IsReasoningEnd(prompt) = %v", out, g.Constrain(), want)
				}
				for j, id := range ids {
					g.Accept(id)
					all = append(all, id)
					if want := ref.IsReasoningEnd(all); g.Constrain() != want {
						t.Fatalf("output %q, prompt %v: after token %d Constrain = %v, IsReasoningEnd = %v", out, prompt, j, g.Constrain(), want)
					}
				}
				if got, want := g.ReasoningTokens(), ref.CountReasoningTokens(ids); got != want {
					t.Fatalf("output %q: ReasoningTokens = %d, CountReasoningTokens = %d", out, got, want)
				}
			}
		})
	}
}

// TestGateRollbackReplay: any sequence of accepts and rollbacks leaves a Gate
// where replaying only the surviving tokens would, budget and forcing
// included.
func TestGateRollbackReplay(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	tok, err := tokenizer.NewVocab(map[string]int{"<think>": 1, "</think>": 2, "<tool_call>": 3, "<|action_start|>": 4, "<|action_end|>": 5})
	require.NoError(t, err)
	alphabet := []int{1, 2, 3, 4, 5, tok.Base() + 'a', tok.Base() + 'b', tok.Base() + ' '}
	r := rand.New(rand.NewPCG(5, 6))
	for _, name := range []string{"qwen3", "deepseek_r1", "basic", "glm45", "intern_s1"} {
		for round := range 300 {
			budget := r.IntN(6)
			opts := []reasoning.GateOption{reasoning.WithThinkingBudget(budget, nil)}
			g := reasoning.NewGate(newWith(t, name, tok), opts...)
			var kept []int
			for range 40 {
				if r.IntN(3) == 0 {
					n := r.IntN(4)
					g.Rollback(n)
					kept = kept[:max(0, len(kept)-n)]
				} else if f := g.Force(); f != nil && r.IntN(2) == 0 {
					g.Accept(f...) // the sampler obeys the budget
					kept = append(kept, f...)
				} else {
					id := alphabet[r.IntN(len(alphabet))]
					g.Accept(id)
					kept = append(kept, id)
				}
				replay := reasoning.NewGate(newWith(t, name, tok), opts...)
				replay.Accept(kept...)
				msg := fmt.Sprintf("%s round %d budget %d tokens %v", name, round, budget, kept)
				require.Equal(t, replay.Constrain(), g.Constrain(), msg)
				require.Equal(t, replay.Force(), g.Force(), msg)
				require.Equal(t, replay.ReasoningTokens(), g.ReasoningTokens(), msg)
			}
		}
	}
}

func TestGatePromptAndEnableInReasoning(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	tok := testvocab.Load(t, "qwen3")
	closed := "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"
	g := reasoning.NewGate(newWith(t, "qwen3", tok))
	g.Prompt(tok.Encode(closed))
	assert.True(t, g.Constrain(), "a prompt that closed reasoning opens the gate before the first token")

	open := "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"
	g = reasoning.NewGate(newWith(t, "qwen3", tok))
	g.Prompt(tok.Encode(open))
	assert.False(t, g.Constrain())
	g.Accept(tok.Encode("<think>\nLet me think.\n")...)
	assert.False(t, g.Constrain())
	g.Accept(tok.Encode("</think>")...)
	assert.True(t, g.Constrain(), "on from the token after </think>")

	g = reasoning.NewGate(newWith(t, "qwen3", tok), reasoning.WithEnableInReasoning(true))
	g.Prompt(tok.Encode(open))
	assert.True(t, g.Constrain(), "WithEnableInReasoning constrains from the first token")
}

// TestGateRealVocabularies opens the gate at the token that completes the
// end of reasoning, implicit ends and multi-token markers included.
func TestGateRealVocabularies(t *testing.T) {
	if testing.Short() {
		t.Skip(shortSkip)
	}
	for _, tt := range []struct {
		vocab, parser, reasoning, end, content string
	}{
		{"qwen3", "qwen3", "<think>\nPlan.\n", "</think>", "\n\n{\"a\": 1}"},
		{"qwen3", "qwen3", "<think>\nI need a tool.\n", "<tool_call>", "\n{\"name\": \"f\"}"},
		{"deepseek-v3", "deepseek_r1", "Two and two make four.\n", "</think>", "\n\nThe answer is 4."},
		{"kimi-k2", "kimi_k2", "<think>Look it up.", "<|tool_calls_section_begin|>", "<|tool_call_begin|>functions.f:0"},
		{"gpt-oss", "openai_gptoss", "<|channel|>analysis<|message|>Think.<|end|>", "<|start|>assistant<|channel|>final<|message|>", "Done."},
	} {
		t.Run(tt.vocab+"/"+tt.parser, func(t *testing.T) {
			tok := testvocab.Load(t, tt.vocab)
			g := reasoning.NewGate(newWith(t, tt.parser, tok))
			all := tok.Encode(tt.reasoning + tt.end + tt.content)
			// The gate stays shut over the reasoning and opens once the end
			// marker is complete (BPE may fold the marker's last bytes into
			// the token after it, so the exact token is where the text of
			// the marker ends).
			reasoningBytes, endBytes := len(tt.reasoning), len(tt.reasoning+tt.end)
			at := 0
			for i, id := range all {
				g.Accept(id)
				at += len(tok.Decode(all[i : i+1]))
				switch {
				case at <= reasoningBytes && g.Constrain():
					t.Fatalf("after token %d (%q), inside the reasoning, Constrain = true", i, tok.Decode(all[i:i+1]))
				case at >= endBytes && !g.Constrain():
					t.Fatalf("after token %d (%q), past the end marker, Constrain = false", i, tok.Decode(all[i:i+1]))
				}
			}
			assert.True(t, g.Constrain())
			ref := newWith(t, tt.parser, tok)
			assert.Equal(t, ref.CountReasoningTokens(all), g.ReasoningTokens())
		})
	}
}

// TestGateThinkingBudget forces the end marker once the budget is spent, all
// of a multi-token marker and then the rest of one the model began, and the
// text split agrees with the Gate.
func TestGateThinkingBudget(t *testing.T) {
	t.Run("qwen3", func(t *testing.T) {
		tok := testvocab.Load(t, "qwen3")
		g := reasoning.NewGate(newWith(t, "qwen3", tok), reasoning.WithThinkingBudget(5, nil))
		thought := tok.Encode(" one two three four five six seven")
		for _, id := range thought[:4] {
			g.Accept(id)
			require.Nil(t, g.Force())
		}
		g.Accept(thought[4])
		end, _ := tok.TokenID("</think>")
		require.Equal(t, []int{end}, g.Force())
		g.Accept(g.Force()...)
		assert.Nil(t, g.Force())
		assert.True(t, g.Constrain())
		answer := tok.Encode("The answer.")
		g.Accept(answer...)
		text := tok.Decode(append(append(slices.Clone(thought[:5]), end), answer...))
		m := newWith(t, "qwen3", tok).Extract(text)
		assert.Equal(t, tok.Decode(thought[:5]), m.Reasoning)
		assert.Equal(t, "The answer.", m.Content)
		assert.Equal(t, 5, g.ReasoningTokens())
	})
	t.Run("deepseek-v3 multi-token end", func(t *testing.T) {
		tok := testvocab.Load(t, "deepseek-v3")
		end := tok.Encode("</think>")
		require.Greater(t, len(end), 1)
		g := reasoning.NewGate(newWith(t, "deepseek_r1", tok), reasoning.WithThinkingBudget(3, nil))
		g.Accept(tok.Encode("a b c d")...)
		require.Equal(t, end, g.Force(), "all of the marker")
		g.Accept(end[0])
		require.Equal(t, end[1:], g.Force(), "the rest of the marker")
		g.Rollback(1)
		require.Equal(t, end, g.Force(), "rolled back: all of it again")
		g.Accept(end...)
		assert.Nil(t, g.Force())
		assert.True(t, g.Constrain())
	})
	t.Run("no end marker known", func(t *testing.T) {
		g := reasoning.NewGate(newWith(t, "deepseek_r1", nil), reasoning.WithThinkingBudget(1, nil))
		g.Accept(1, 2, 3)
		assert.Nil(t, g.Force(), "a parser without a tokenizer names no end marker: the budget is inert")
		g = reasoning.NewGate(newWith(t, "deepseek_r1", nil), reasoning.WithThinkingBudget(1, []int{9}))
		g.Accept(1, 2)
		assert.Equal(t, []int{9}, g.Force(), "given end IDs are forced")
		g.Accept(9)
		assert.Nil(t, g.Force(), "a forced marker the parser does not read stops the forcing")
	})
}

// hoisting lists the families that hoist a tool-call block out of
// reasoning into content, with their closer and their tool-call block's
// markers.
var hoisting = []struct{ name, close, tool, toolClose string }{
	{"apertus2509", "<|inner_suffix|>", "<|tools_prefix|>[", "<|tools_suffix|>"},
	{"intern_s1", "</think>", "<|action_start|>", "<|action_end|>"},
	{"solar_open2", "<|think:end|>", "<|tool_call:start|>", "<|tool_call:end|>"},
}

// TestGateThinkingBudgetHoisting: a hoisting family's budget forces its
// closer (the rest of it once the model has begun it), which ends
// reasoning, and the text split agrees with the Gate.
func TestGateThinkingBudgetHoisting(t *testing.T) {
	tok := testvocab.Load(t, "qwen3")
	for _, tc := range hoisting {
		t.Run(tc.name, func(t *testing.T) {
			g := reasoning.NewGate(newWith(t, tc.name, tok, reasoning.WithForceReasoning(true)), reasoning.WithThinkingBudget(3, nil))
			thought := tok.Encode(" one two three four")
			for _, id := range thought[:2] {
				g.Accept(id)
				require.Nil(t, g.Force())
			}
			g.Accept(thought[2])
			end := g.Force()
			require.Equal(t, tc.close, tok.Decode(end), "the closer, all of it")
			if len(end) > 1 {
				g.Accept(end[0])
				require.Equal(t, end[1:], g.Force(), "the rest of the closer")
				g.Accept(end[1:]...)
			} else {
				g.Accept(end...)
			}
			assert.Nil(t, g.Force(), "reasoning has ended")
			assert.True(t, g.Constrain())
			answer := tok.Encode(" The answer.")
			g.Accept(answer...)
			assert.Nil(t, g.Force())
			m := newWith(t, tc.name, tok, reasoning.WithForceReasoning(true)).Extract(tok.Decode(slices.Concat(thought[:3], end, answer)))
			assert.Equal(t, tok.Decode(thought[:3]), m.Reasoning)
			assert.Equal(t, " The answer.", m.Content)
			assert.Equal(t, 3, g.ReasoningTokens())
		})
	}
}

// TestGateThinkingBudgetInToolBlock: a budget that runs out while a
// hoisting family's tool-call block is open inside reasoning forces nothing
// until the block has closed, then the closer. A closer the model writes
// inside the block, after the budget has run out, is text of the call: it
// does not stop the budget either.
func TestGateThinkingBudgetInToolBlock(t *testing.T) {
	tok := testvocab.Load(t, "qwen3")
	bodies := []struct {
		name string
		body func(close string) []int // encoded piece by piece, so the closer keeps its own IDs
	}{
		{"plain arguments", func(string) []int { return tok.Encode(` {"name": "f", "arguments": {"x": 1}}`) }},
		{"closer in the arguments", func(close string) []int {
			return slices.Concat(tok.Encode(` {"name": "f", "arguments": {"x": "`), tok.Encode(close), tok.Encode(`"}}`))
		}},
	}
	for _, tc := range hoisting {
		for _, b := range bodies {
			t.Run(tc.name+"/"+b.name, func(t *testing.T) {
				g := reasoning.NewGate(newWith(t, tc.name, tok, reasoning.WithForceReasoning(true)), reasoning.WithThinkingBudget(2, nil))
				thought := tok.Encode(" one")
				g.Accept(thought...)
				require.Nil(t, g.Force())
				open, closing := tok.Encode(tc.tool), tok.Encode(tc.toolClose)
				block := slices.Concat(open, b.body(tc.close), closing)
				for i, id := range block {
					g.Accept(id)
					if i >= len(open)-1 && i < len(block)-1 { // from the opener's last token to before the closer's
						require.Nil(t, g.Force(), "token %d (%q) of the block: the block is open", i, tok.Decode([]int{id}))
					}
				}
				assert.False(t, g.Constrain(), "reasoning goes on after the block")
				end := g.Force()
				require.Equal(t, tc.close, tok.Decode(end), "the block has closed: the closer")
				g.Accept(end...)
				assert.Nil(t, g.Force())
				assert.True(t, g.Constrain())
				m := newWith(t, tc.name, tok, reasoning.WithForceReasoning(true)).Extract(tok.Decode(slices.Concat(thought, block, end)))
				assert.Equal(t, tok.Decode(thought), m.Reasoning)
				assert.Equal(t, tok.Decode(block), m.Content, "the block is content, whole")
				assert.Equal(t, len(thought), g.ReasoningTokens(), "the block's tokens counted toward the budget but are content")
			})
		}
	}
}

func TestGateThroughOptionsWrapper(t *testing.T) {
	tok := testvocab.Load(t, "qwen3")
	p := newWith(t, "qwen3", tok, reasoning.WithStreamReasoning(false))
	g := reasoning.NewGate(p, reasoning.WithThinkingBudget(1, nil))
	g.Accept(tok.Encode("<think>x y")...)
	end, _ := tok.TokenID("</think>")
	assert.Equal(t, []int{end}, g.Force(), "the end marker is found under the options wrapper")
}

// BenchmarkGateAccept measures Accept per token with real Qwen3 IDs, in
// reasoning, where most tokens go.
func BenchmarkGateAccept(b *testing.B) {
	tok := testvocab.Load(b, "qwen3")
	ids := tok.Encode("<think>\n" + conformance.Filler(1<<16))
	p, err := reasoning.New("qwen3", tok)
	require.NoError(b, err)
	g := reasoning.NewGate(p)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i == len(ids) {
			b.StopTimer()
			p, _ = reasoning.New("qwen3", tok)
			g, i = reasoning.NewGate(p), 0
			b.StartTimer()
		}
		g.Accept(ids[i])
		i++
	}
}

func TestGateAcceptAllocs(t *testing.T) {
	tok := testvocab.Load(t, "qwen3")
	ids := tok.Encode("<think>\n" + conformance.Filler(4096))
	g := reasoning.NewGate(newWith(t, "qwen3", tok))
	g.Accept(ids[:len(ids)/2]...)
	i := len(ids) / 2
	if n := testing.AllocsPerRun(500, func() { g.Accept(ids[i]); i++ }); n > 0.05 {
		t.Errorf("Accept: %v allocations per token in steady state", n)
	}
}
