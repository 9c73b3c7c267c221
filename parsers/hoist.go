package parsers

import (
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// This file holds the grammar of the families that hoist tool calls out of
// reasoning in place (apertus2509, intern_s1, solar_open2): a <think>-style
// block in which a tool-call block is content, verbatim, and reasoning goes
// on after it. Upstream cuts such blocks out of reasoning in its one-shot
// path and moves them after the content; a stream cannot move text it has
// sent, so here a block reaches content where it comes (spec policy 2).
// The think-tag machine has no state for "content inside reasoning", so
// these families run on the shared driver. Each names its closer as its
// end text (EndIDs): a Gate's thinking budget forces it once a tool-call
// block open inside reasoning has closed, not inside it, where it would be
// text of the call.

// Indexes into a hoisting family's markers: every family has these four,
// in this order.
const (
	hoOpen      = iota // opens reasoning; dropped
	hoClose            // closes reasoning; dropped
	hoTool             // opens a tool-call block; kept, in content
	hoToolClose        // closes it; kept, in content
)

// hoistSpec is one hoisting family: its markers and rules.
type hoistSpec struct {
	machineSpec
	startContent bool // a response starts in content, not in reasoning
	reopen       bool // an opener in content opens another block (else only the first does)
	dropLone     bool // a closer in content before any block is dropped (else text)
	trimNewline  bool // one "\n" at each end of the reasoning is dropped
	// thinking, when set, is the thinking switch: false means no reasoning, the
	// response starts in content (where an opener still opens the block).
	// identityOff makes thinking off the identity instead.
	thinking    func(reasoning.Config) bool
	identityOff bool
}

// entry describes the family for the registry-wide tests.
func (s *hoistSpec) entry(keys []string) catalog.Entry {
	m := s.markers
	return catalog.Entry{Markers: m, Opens: []string{m[hoOpen]}, Closes: []string{m[hoClose]}, SwitchKeys: keys,
		StripsSpace: s.trimNewline, ToolBlocks: [][2]string{{m[hoTool], m[hoToolClose]}}}
}

// hoistPhase is where a hoisting grammar stands.
type hoistPhase uint8

const (
	hpContent   hoistPhase = iota // outside reasoning
	hpReasoning                   // inside a block
	hpHoisted                     // a tool-call block inside reasoning: content, reasoning resumes after it
	hpTool                        // a tool-call block in content
)

// hoistGrammar is the grammar of a hoisting family.
type hoistGrammar struct {
	spec   *hoistSpec
	phase  hoistPhase
	opened bool // hpReasoning: the block's opener has been had (a later one is text)
	seen   bool // a block has begun
	begun  bool // some text or marker of the output has gone by
	lead   bool // trimNewline: the block's first reasoning byte is still to come
	held   bool // trimNewline: a trailing "\n" of reasoning is held back
	heldAt int
	blocks int // blocks opened from content: the epochs of ExtractContentIDs
}

func (g *hoistGrammar) clone() grammar        { c := *g; return &c }
func (g *hoistGrammar) cloneInto(dst grammar) { *dst.(*hoistGrammar) = *g }

func (g *hoistGrammar) active() stance {
	var m uint64
	switch g.phase {
	case hpHoisted, hpTool:
		m = 1 << hoToolClose
	case hpReasoning:
		m = 1<<hoClose | 1<<hoTool
		if !g.opened {
			m |= 1 << hoOpen
		}
	case hpContent:
		if g.spec.reopen || !g.seen {
			m |= 1<<hoOpen | 1<<hoTool
		}
		if g.spec.dropLone && !g.seen {
			m |= 1 << hoClose
		}
	}
	st := stance{mask: m, direct: -1}
	switch {
	case g.phase == hpReasoning && g.spec.trimNewline:
	case g.phase == hpReasoning:
		st.direct = int8(phaseReasoning)
	default:
		st.direct = int8(phaseContent)
	}
	return st
}

func (g *hoistGrammar) text(s string, at int, out emitter) {
	g.begun = true
	if g.phase != hpReasoning {
		out(phaseContent, s, at)
		return
	}
	if !g.spec.trimNewline {
		out(phaseReasoning, s, at)
		return
	}
	if g.lead {
		g.lead = false
		if s[0] == '\n' {
			s, at = s[1:], at+1
		}
		if s == "" {
			return
		}
	}
	if g.held {
		out(phaseReasoning, "\n", g.heldAt)
		g.held = false
	}
	if strings.HasSuffix(s, "\n") {
		g.held, g.heldAt = true, at+len(s)-1
		s = s[:len(s)-1]
	}
	if s != "" {
		out(phaseReasoning, s, at)
	}
}

func (g *hoistGrammar) marker(k, at int, out emitter) {
	g.begun = true
	switch k {
	case hoOpen:
		if g.phase == hpContent {
			g.blocks++
			g.lead, g.held = true, false
		}
		g.phase, g.opened, g.seen = hpReasoning, true, true
	case hoClose:
		if g.phase == hpReasoning {
			g.held = false // reasoning's trailing "\n" goes
			g.phase = hpContent
		}
		g.seen = true // a lone closer in content (dropLone) closes the block the prompt had
	default: // a tool-call block opens (in reasoning or content) or closes: kept, in content
		out(phaseContent, g.spec.markers[k], at)
		switch g.phase {
		case hpReasoning:
			g.phase = hpHoisted
		case hpHoisted:
			g.phase = hpReasoning // reasoning resumes after it
		case hpContent:
			g.phase = hpTool
		case hpTool:
			g.phase = hpContent
		}
	}
}

func (g *hoistGrammar) end(emitter) { g.held = false }

func (g *hoistGrammar) ended() bool { return g.phase == hpContent || g.phase == hpTool }

func (g *hoistGrammar) epoch() int { return g.blocks }

// hoistStart returns where a response of family s starts (spec policy 4),
// or nil when thinking is off and the family is then the identity. In
// order: WithForceReasoning(true) starts it in reasoning; a prompt whose
// last opener or closer is an opener, unless WithForceReasoning is false,
// too; thinking off, in content (or the identity); WithForceReasoning(false)
// in content; a prompt whose last is a closer, in content after a block;
// else the family's default.
func hoistStart(s *hoistSpec, cfg reasoning.Config, tok tokenizer.Tokenizer) *hoistGrammar {
	g := &hoistGrammar{spec: s, lead: true}
	reason := func() *hoistGrammar { g.phase, g.seen = hpReasoning, true; return g }
	force := cfg.ForceReasoning
	if force != nil && *force {
		return reason()
	}
	_, k, _ := promptFrom(cfg, tok, s.markers, nil, 1<<hoOpen|1<<hoClose, chatTurns)
	if force == nil && k == hoOpen {
		return reason() // a leading opener is still the block's own
	}
	if s.thinking != nil && !s.thinking(cfg) {
		if s.identityOff {
			return nil
		}
		return g
	}
	switch {
	case force != nil:
		return g
	case k == hoClose:
		g.seen = true
		return g
	case s.startContent:
		return g
	}
	return reason()
}

// newHoist builds a parser of family s.
func newHoist(s *hoistSpec, tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	g := hoistStart(s, cfg, tok)
	if g == nil {
		return newIdentity(), nil
	}
	return newShell(&s.machineSpec, tok, cfg, g)
}
