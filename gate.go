package reasoning

import (
	"slices"

	"github.com/reasoning-go/reasoning/tokenizer"
)

// Gate tells a constrained decoder, token by token, whether the grammar may constrain yet, for one response.
// It is the serving-side use of IsReasoningEnd: grammar held off while the model reasons, on once reasoning ends.
//
// A Gate drives its Parser's ID methods, so the Parser must have been built
// with the model's tokenizer; it keeps the response's token IDs and, for
// each, whether reasoning had ended by then, so that Rollback is exact. Call
// Prompt (optional) before the first Accept, then Accept and Rollback as the
// sampler goes, asking Constrain and Force before each sampling step. A
// Gate is not safe for concurrent use, and it uses its Parser's streaming
// end check: give it a Parser of its own.
type Gate struct {
	p      Parser
	cfg    GateConfig
	ids    []int   // the prompt's IDs, then the accepted ones
	prompt int     // how many of ids are the prompt's
	start  bool    // reasoning had ended before the first output token
	ended  []bool  // by output token: reasoning had ended once it was accepted
	counts []int32 // by output token: output tokens accepted while reasoning, it included
	end    *tokenizer.Matcher
	found  []int32  // by output token: end markers completed up to it (budget only)
	own    bool     // the budget forces the parser's own end marker (EndIDs)
	after  endAfter // own: the family's parser, when it answers Force's check from its streaming state
}

// endAfter is an optional interface of a family's parser (found as
// EndMarker is) that answers Force's check for the parser's own marker
// from what its streaming end check has built: at a cost that does not
// grow with the sequence, but for the first call after the sequence was
// cut back.
type endAfter interface {
	// IsReasoningEndAfter reports whether IsReasoningEnd would hold for ids
	// followed by more, where ids is the sequence IsReasoningEndStreaming
	// was last given or a prefix of it (a Gate's Rollback); ok is false
	// where it cannot tell.
	IsReasoningEndAfter(ids, more []int) (ends, ok bool)
}

// GateOption sets a GateConfig field.
type GateOption func(*GateConfig)

// GateConfig is how a Gate treats one response.
type GateConfig struct {
	EnableInReasoning bool  // constrain from the first token (vLLM --structured-outputs-config.enable_in_reasoning)
	ThinkingBudget    int   // > 0: after this many tokens accepted while reasoning, Force returns the end-marker IDs
	BudgetEnd         []int // IDs forced when the budget runs out; default: the parser's end marker
}

// WithEnableInReasoning makes the grammar constrain from the first token,
// reasoning included.
func WithEnableInReasoning(on bool) GateOption {
	return func(c *GateConfig) { c.EnableInReasoning = on }
}

// WithThinkingBudget ends reasoning after tokens reasoning tokens: Force then
// returns end, or, when end is nil, the parser's end marker (see
// EndMarker). A budget of 0 or less is no budget.
func WithThinkingBudget(tokens int, end []int) GateOption {
	return func(c *GateConfig) { c.ThinkingBudget, c.BudgetEnd = tokens, end }
}

// EndMarker is an optional interface of a Parser that names the token IDs
// of the marker that closes its reasoning, as the model writes it ("</think>"
// as one token, or the several of its encoding). A Gate's thinking budget
// forces them when WithThinkingBudget gives none. A Parser that does not
// implement it, or returns nil (it was built without a tokenizer, or it
// names no marker for a budget to force), leaves a budget without end IDs
// inert. The Gate forces the parser's marker only where it would end
// reasoning (see Force).
type EndMarker interface {
	// EndIDs returns the IDs of the marker that ends reasoning; nil when
	// the Parser has no tokenizer or names no such marker (its format has
	// none, or the Parser leaves it to WithThinkingBudget's IDs).
	EndIDs() []int
}

// NewGate returns a Gate over p, which must be a fresh Parser of its own
// built with the model's tokenizer.
func NewGate(p Parser, opts ...GateOption) *Gate {
	g := &Gate{p: p}
	for _, o := range opts {
		if o != nil {
			o(&g.cfg)
		}
	}
	if g.cfg.ThinkingBudget > 0 {
		end := g.cfg.BudgetEnd
		if end == nil {
			if m, ok := unwrap(p).(EndMarker); ok {
				end, g.own = m.EndIDs(), true
				g.after, _ = m.(endAfter)
			}
		}
		if len(end) > 0 {
			g.end = tokenizer.Delimiter{IDs: end}.NewMatcher()
		}
	}
	g.start = p.IsReasoningEndStreaming(nil, nil)
	return g
}

// unwrap returns the family's own parser under the options wrapper.
func unwrap(p Parser) Parser {
	for {
		u, ok := p.(interface{ Unwrap() Parser })
		if !ok {
			return p
		}
		p = u.Unwrap()
	}
}

// Prompt gives the prompt's IDs: a prompt that already closed reasoning (the
// thinking-disabled prefill "<think>\n\n</think>\n\n") opens the gate at
// once. Call it before the first Accept; a later call starts the response
// over.
func (g *Gate) Prompt(ids []int) {
	g.ids = append(g.ids[:0], ids...)
	g.prompt = len(ids)
	g.ended, g.counts = g.ended[:0], g.counts[:0]
	if g.end != nil {
		g.end.Rollback(g.end.Accepted())
	}
	g.found = g.found[:0]
	g.start = g.p.IsReasoningEndStreaming(g.ids, g.ids)
}

// Accept takes the tokens the sampler accepted, in order.
func (g *Gate) Accept(ids ...int) {
	for _, id := range ids {
		before := g.reasoningEnded()
		g.ids = append(g.ids, id)
		ended := g.p.IsReasoningEndStreaming(g.ids, g.ids[len(g.ids)-1:])
		n := g.count()
		if !before {
			n++
		}
		g.ended = append(g.ended, ended)
		g.counts = append(g.counts, n)
		if g.end != nil {
			g.end.Accept(id)
			g.found = append(g.found, int32(g.end.Found()))
		}
	}
}

// Rollback forgets the last n accepted tokens (speculative decoding rejected
// them); n beyond the accepted tokens forgets them all. It costs O(n).
func (g *Gate) Rollback(n int) {
	n = min(max(n, 0), len(g.ended))
	keep := len(g.ended) - n
	g.ids = g.ids[:g.prompt+keep]
	g.ended, g.counts = g.ended[:keep], g.counts[:keep]
	if g.end != nil {
		g.end.Rollback(n)
		g.found = g.found[:keep]
	}
}

// reasoningEnded reports whether reasoning has ended as of the last accepted
// token (or the prompt).
func (g *Gate) reasoningEnded() bool {
	if len(g.ended) == 0 {
		return g.start
	}
	return g.ended[len(g.ended)-1]
}

// count returns how many output tokens were accepted while reasoning.
func (g *Gate) count() int32 {
	if len(g.counts) == 0 {
		return 0
	}
	return g.counts[len(g.counts)-1]
}

// Constrain reports whether the grammar applies to the next token: once
// reasoning has ended, or from the start with WithEnableInReasoning.
func (g *Gate) Constrain() bool {
	return g.cfg.EnableInReasoning || g.reasoningEnded()
}

// Force returns the IDs the sampler must emit next, else nil: once the
// thinking budget has run out while reasoning goes on, the end marker's IDs
// (the rest of them when the model has begun writing it), until the marker
// is complete. The text split then ends reasoning through the parser's own
// markers, so it agrees with the Gate. The parser's own end marker (not
// WithThinkingBudget's IDs) is forced only where the parser would take it
// as the end of reasoning: inside a tool-call block that reasoning holds as
// content (the families that hoist tool calls, such as intern_s1) it would
// be text of the call, so Force waits until the block has closed, and a
// block that never closes is never cut. A block's tokens count toward the
// budget, though ReasoningTokens does not count them. Once the budget has
// run out, a call with the parser's own marker costs, for the families
// whose end check walks the IDs (the hoisting ones), only the marker's IDs:
// the first call after a Rollback reads the accepted IDs again, and the
// prompt's too unless the parser was given them (WithPrompt). For the
// others it costs IsReasoningEnd of the prompt and the accepted IDs, the
// prompt's part spared with WithPrompt likewise. The slice is shared: do
// not modify it.
func (g *Gate) Force() []int {
	if g.end == nil || g.reasoningEnded() || int(g.count()) < g.cfg.ThinkingBudget {
		return nil
	}
	rest := g.end.Remaining()
	if g.own { // the parser decides: a marker it took as text does not stop the budget
		if !g.endsAfter(rest) {
			return nil
		}
		return rest
	}
	// The token at which the budget ran out; a marker completed since then
	// that the parser did not take as the end is not forced again.
	spent, _ := slices.BinarySearch(g.counts, int32(g.cfg.ThinkingBudget))
	if g.found[len(g.found)-1] > g.found[spent] {
		return nil
	}
	return rest
}

// endsAfter reports whether IsReasoningEnd holds for the prompt, the
// accepted IDs and rest.
func (g *Gate) endsAfter(rest []int) bool {
	if g.after != nil {
		if ends, ok := g.after.IsReasoningEndAfter(g.ids, rest); ok {
			return ends
		}
	}
	n := len(g.ids)
	g.ids = append(g.ids, rest...)
	ends := g.p.IsReasoningEnd(g.ids)
	g.ids = g.ids[:n]
	return ends
}

// ReasoningTokens returns how many accepted tokens are reasoning, as
// CountReasoningTokens counts them (the text split's reasoning, markers
// excluded). It reads all accepted tokens: call it when needed, for usage.
func (g *Gate) ReasoningTokens() int {
	return g.p.CountReasoningTokens(g.ids[g.prompt:])
}
