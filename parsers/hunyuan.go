package parsers

import (
	"fmt"
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/marker"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// This file holds the Tencent Hunyuan families: hunyuan_a13b, whose output
// is <think>\n…\n</think>\n<answer>\n…\n</answer>, parsed by a phase machine
// of its own, and hy_v3 and hy_v4, think-tag families whose markers carry a
// suffix taken from the tokenizer.

// Hunyuan A13B's markers besides <think> and </think> (which ends reasoning
// only when <answer> follows). The newlines around the markers are
// whitespace the machine drops (see newHunyuanA13B); the markers themselves
// hold none, so that no marker can end where another begins.
const (
	hyAnswerOpen = "<answer>"    // after </think>: the answer begins
	hyAnswerEnd  = "</answer>"   // the answer ends
	hyTurnEnd    = "<|extra_0|>" // end of the user's turn: the ID-level checks start again after it
)

// hyMarkers are the markers in the order the scanner watches them.
var hyMarkers = []string{thinkOpen, thinkClose, hyAnswerOpen, hyAnswerEnd}

// Indices into hyMarkers.
const (
	hyOpenTag = iota
	hyCloseTag
	hyAnswerTag
	hyEndTag
)

// hyPhase is where a Hunyuan A13B parser stands in one response. vLLM's
// machine has three states (idle, think, response); ours splits idle into
// before and after a block, and holds a closing </think> in hyClosing until
// <answer> confirms it.
type hyPhase uint8

const (
	hyBefore  hyPhase = iota // no block yet: content; <think> opens one
	hyThink                  // inside reasoning: <think> consumed
	hyClosing                // </think> consumed and held: <answer> ends reasoning, anything else makes it reasoning text
	hyAnswer                 // inside the answer: content; </answer> ends it
	hyAfter                  // </answer> consumed: content; <think> opens another block
)

func (p hyPhase) String() string {
	return [...]string{"before", "think", "closing", "answer", "after"}[p]
}

// ended reports whether reasoning is over in phase p.
func (p hyPhase) ended() bool { return p == hyAnswer || p == hyAfter }

// hyStart is where a response starts.
type hyStart struct {
	phase  hyPhase
	due    bool // hyThink: a leading <think> is the block's own opener; hyAnswer: a leading <answer> is the answer's
	skipNL int  // hyThink, hyAnswer: newlines still to drop at the start
}

// hyMachine runs Hunyuan A13B's grammar over text fed piece by piece: the
// part that Extract, ExtractStreaming and the ID methods share. Besides what
// the scanner holds, it holds one newline at the end of reasoning or of the
// answer (it belongs to the marker if one follows) and, in hyClosing, the
// </think> and the newline after it.
type hyMachine struct {
	phase   hyPhase
	due     bool // see hyStart
	skipNL  int  // see hyStart
	nlAt    int  // hyThink, hyClosing, hyAnswer: offset of a held trailing newline, else -1
	closeAt int  // hyClosing: offset of the held </think>
	afterAt int  // hyClosing: offset of a held newline after </think>, else -1
	sc      marker.Scanner
	pos     int    // offset of the next byte the scanner returns
	opened  func() // called when a block opens (the ID methods' hook), or nil
}

func (m *hyMachine) reset(s hyStart) {
	m.phase, m.due, m.skipNL = s.phase, s.due, s.skipNL
	m.nlAt, m.afterAt, m.closeAt, m.pos = -1, -1, 0, 0
	m.sc.Reset(hyMarkers)
	m.sync()
}

// sync tells the scanner which markers mean something now.
func (m *hyMachine) sync() {
	var a uint64
	switch m.phase {
	case hyBefore, hyAfter:
		a = 1 << hyOpenTag
	case hyThink:
		a = 1 << hyCloseTag
		if m.due {
			a |= 1 << hyOpenTag
		}
	case hyClosing:
		a = 1<<hyCloseTag | 1<<hyAnswerTag
	case hyAnswer:
		a = 1 << hyEndTag
		if m.due {
			a |= 1 << hyAnswerTag
		}
	}
	m.sc.SetActive(a)
}

// feed runs text through the machine; out receives each piece of reasoning
// or content with its offset in all the text fed.
func (m *hyMachine) feed(text string, out emitter) {
	m.sc.Feed(text)
	for {
		held, before, k := m.sc.Next()
		m.text(held, out)
		m.text(before, out)
		if k < 0 {
			return
		}
		at := m.pos
		m.pos += len(hyMarkers[k])
		// The text just emitted may have made the marker mean nothing (a
		// <think> or <answer> that counts only first, a broken </think>).
		if m.sc.Active()&(1<<k) == 0 {
			m.emit(hyMarkers[k], at, out)
			continue
		}
		m.step(k, at, out)
	}
}

// step applies marker k, found at offset at and active in the current phase.
func (m *hyMachine) step(k, at int, out emitter) {
	m.due = false // whatever it is, it comes first no more
	switch k {
	case hyOpenTag:
		if m.phase != hyThink && m.opened != nil {
			m.opened()
		}
		// From hyThink this is the block's own opener (the response
		// started inside reasoning): dropped all the same.
		m.phase, m.skipNL, m.nlAt = hyThink, 2, -1
	case hyCloseTag:
		if m.phase == hyClosing {
			m.reopen(out) // "</think></think>": the first was reasoning text
		}
		m.phase, m.closeAt, m.afterAt, m.skipNL = hyClosing, at, -1, 0
	case hyAnswerTag:
		// From hyClosing: reasoning is over, and the held newline and
		// </think> belong to the marker. From hyAnswer: the answer's own
		// opening tag after a prompt that closed the block.
		m.phase, m.skipNL, m.nlAt = hyAnswer, 1, -1
	case hyEndTag:
		m.phase, m.nlAt = hyAfter, -1
	}
	m.sync()
}

// text emits s, the next bytes of the output.
func (m *hyMachine) text(s string, out emitter) {
	if s == "" {
		return
	}
	at := m.pos
	m.pos += len(s)
	m.emit(s, at, out)
}

// emit sends s, text of the output at offset at, to the current section.
func (m *hyMachine) emit(s string, at int, out emitter) {
	switch m.phase {
	case hyBefore, hyAfter:
		out(phaseContent, s, at)
	case hyClosing:
		if m.afterAt < 0 && s[0] == '\n' {
			m.afterAt, s, at = at, s[1:], at+1
			if s == "" {
				return
			}
		}
		m.reopen(out)
		m.wrapped(phaseReasoning, s, at, out)
	default: // hyThink, hyAnswer
		if m.due {
			m.due = false
			m.sync()
		}
		ph := phaseContent
		if m.phase == hyThink {
			ph = phaseReasoning
		}
		m.wrapped(ph, s, at, out)
	}
}

// reopen returns from hyClosing to reasoning: the held </think> (and the
// newline after it) turned out to be reasoning text.
func (m *hyMachine) reopen(out emitter) {
	m.phase = hyThink
	m.sync()
	m.wrapped(phaseReasoning, thinkClose, m.closeAt, out)
	if m.afterAt >= 0 {
		m.wrapped(phaseReasoning, "\n", m.afterAt, out)
		m.afterAt = -1
	}
}

// wrapped emits s inside a block (reasoning or the answer): newlines still
// to skip after the opening marker are dropped, and a trailing newline is
// held until more text shows it is not the one before the closing marker.
func (m *hyMachine) wrapped(ph phase, s string, at int, out emitter) {
	for m.skipNL > 0 && s != "" && s[0] == '\n' {
		s, at, m.skipNL = s[1:], at+1, m.skipNL-1
	}
	if s == "" {
		return
	}
	m.skipNL = 0
	if m.nlAt >= 0 {
		out(ph, "\n", m.nlAt)
		m.nlAt = -1
	}
	if n := len(s) - 1; s[n] == '\n' {
		if n > 0 {
			out(ph, s[:n], at)
		}
		m.nlAt = at + n
		return
	}
	out(ph, s, at)
}

// finish ends the text: whatever is held goes to the section it belongs to.
func (m *hyMachine) finish(out emitter) {
	rest := m.sc.Flush()
	if m.phase == hyClosing {
		m.reopen(out)
	}
	m.text(rest, out)
	if m.nlAt >= 0 {
		ph := phaseContent
		if m.phase == hyThink {
			ph = phaseReasoning
		}
		out(ph, "\n", m.nlAt)
		m.nlAt = -1
	}
}

// hunyuanEntry describes hunyuan_a13b for the registry-wide tests.
var hunyuanEntry = catalog.Entry{Markers: hyMarkers, Boundaries: []string{hyTurnEnd}, StripsSpace: true}

// newHunyuanA13B builds the "hunyuan_a13b" parser (vLLM
// HunyuanA13BReasoningParser), also registered as "hunyuan", SGLang's name.
//
// Markers: <think>\n opens reasoning; \n</think>\n<answer>\n ends it and
// opens the answer; \n</answer> ends the answer. The newlines are part of
// the markers but each may be missing: up to two newlines after <think> are
// dropped (vLLM's "<think>\n\n" form), and one before </think>, between
// </think> and <answer>, after <answer> and before </answer>. </think> ends
// reasoning only when <answer> follows; otherwise it, and all that was held
// with it, is reasoning text. In Hunyuan's vocabulary every marker is several
// ordinary tokens, so the split is decided on the text, even when deltas
// carry IDs: it is the same whatever the tokens, however many a delta
// carries (speculative decoding).
// Starts in: content, before any block. A prompt that ends in <think>
// (WithPrompt) starts the response in reasoning; one that ends in </think>
// (the thinking-disabled template) starts it in the answer, where a leading
// <answer> is dropped; one that ends in <answer> in the answer, and one
// that ends in </answer> after it. Prompt IDs,
// given a tokenizer, are read as their decoded text. WithForceReasoning(true)
// starts in reasoning, where a leading <think> is dropped; false starts
// before any block whatever the prompt.
// Thinking switch: none (enable_thinking changes the prompt only).
// Truncation: an unclosed block is reasoning, and an unclosed answer
// content.
// Repeats: after </answer> the output is content again and another <think>
// opens another block; a <think> inside reasoning and an <answer> or
// </answer> outside the answer are text.
// Streaming: holds back fewer bytes than the longest marker while they may
// start one, a trailing newline of reasoning or of the answer, and a
// </think> until the next marker or text decides it; Finish returns what is
// held to the section it belongs to.
// Upstream: spec vllm-channels-and-state §5, tests/reasoning/
// test_hunyuan_reasoning_parser.py and test_hunyuan_a13b_reasoning_parser.py.
// vLLM matches hard-coded token IDs of one tokenizer and never checks it;
// ours follows the text, and New checks that the tokenizer can spell every
// marker. vLLM's main and side ID sequences are the two tokenisations of
// the same markers, so its odd mixtures (§5.8 trap 5) are not reproduced,
// and a marker that starts on the token that broke another is still found.
// vLLM loses a partial marker held at the end of the stream (trap 1); ours
// is returned. vLLM's extract leaks the markers into content when text
// precedes <think> (§15.5 #4) and keeps a truncated block in content; ours
// split as streaming does (spec policy 2). vLLM's end check is the state of
// the instance that streamed, true only inside the answer; ours replays the
// IDs: true once <answer> has followed </think> (or the prompt closed the
// block) until another <think>, false with no block at all, as vLLM's idle
// state. It starts again after <|extra_0|>, the end of the user's turn, so
// ids may hold the prompt. ExtractContentIDs returns the answer's tokens
// and what follows (vLLM returns none), CountReasoningTokens the tokens
// whose text falls in reasoning (vLLM counts none). SGLang's "hunyuan" is
// its base detector on <think> and </think> (a suffixed spelling when the
// tokenizer has one), starting in content, with <tool_calls> ending
// reasoning, and it keeps the newlines and the <answer> tags in the content.
func newHunyuanA13B(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	p := &hunyuan{tok: tok, turn: -1, start: hunyuanStart(tok, cfg)}
	for _, s := range hyMarkers {
		if _, err := tokenizer.Resolve(tok, s); err != nil {
			return nil, fmt.Errorf("delimiter %q: %w", s, err)
		}
	}
	if tok != nil {
		if id, ok := tok.TokenID(hyTurnEnd); ok {
			p.turn = id
		}
	}
	p.m.reset(p.start)
	return p, nil
}

// hunyuanStart applies spec policy 4 and WithForceReasoning.
func hunyuanStart(tok tokenizer.Tokenizer, cfg reasoning.Config) hyStart {
	if f := cfg.ForceReasoning; f != nil {
		if *f {
			return hyStart{phase: hyThink, due: true}
		}
		return hyStart{phase: hyBefore}
	}
	tail := cfg.PromptText
	if tok != nil && len(cfg.PromptIDs) > 0 {
		ids := cfg.PromptIDs
		tail = tok.Decode(ids[max(0, len(ids)-32):]) // enough tokens for any marker and its newlines
	}
	trimmed := strings.TrimRight(tail, " \t\r\n")
	// skip returns how many of want newlines after a marker at the end of
	// the prompt are still to come: none if other whitespace follows it.
	skip := func(want int) int {
		rest := tail[len(trimmed):]
		if strings.Trim(rest, "\n") != "" {
			return 0
		}
		return max(0, want-len(rest))
	}
	switch {
	case strings.HasSuffix(trimmed, thinkOpen):
		return hyStart{phase: hyThink, skipNL: skip(2)}
	case strings.HasSuffix(trimmed, thinkClose):
		return hyStart{phase: hyAnswer, due: true}
	case strings.HasSuffix(trimmed, hyAnswerOpen):
		return hyStart{phase: hyAnswer, skipNL: skip(1)}
	case strings.HasSuffix(trimmed, hyAnswerEnd):
		return hyStart{phase: hyAfter}
	}
	return hyStart{phase: hyBefore}
}

// hunyuan is one response's hunyuan_a13b parser.
type hunyuan struct {
	m        hyMachine
	end      endReplay // IsReasoningEndStreaming's memory
	start    hyStart
	tok      tokenizer.Tokenizer // nil: text only; the ID methods see no marker
	turn     int                 // ID of <|extra_0|> when it is one token, else -1
	finished bool
	slab     marker.Slab // joins the pieces of one delta's message
	r, c     pieces      // one delta's pieces, reused
}

func (p *hunyuan) Extract(output string) reasoning.Message {
	var m hyMachine
	m.reset(p.start)
	var r, c pieces
	out := func(ph phase, s string, _ int) { r.addTo(&c, ph, s) }
	m.feed(output, out)
	m.finish(out)
	return reasoning.Message{Reasoning: r.String(), Content: c.String()}
}

// ExtractStreaming splits the delta's text; its IDs are not needed, since
// Hunyuan's markers are ordinary text.
func (p *hunyuan) ExtractStreaming(d reasoning.Delta) reasoning.Message {
	if p.finished {
		return reasoning.Message{}
	}
	r, c := &p.r, &p.c
	r.reset()
	c.reset()
	p.m.feed(d.Text, func(ph phase, s string, _ int) { r.addTo(c, ph, s) })
	return reasoning.Message{Reasoning: r.join(&p.slab), Content: c.join(&p.slab)}
}

func (p *hunyuan) Finish() reasoning.Message {
	if p.finished {
		return reasoning.Message{}
	}
	p.finished = true
	var r, c pieces
	p.m.finish(func(ph phase, s string, _ int) { r.addTo(&c, ph, s) })
	return reasoning.Message{Reasoning: r.String(), Content: c.String()}
}

// IsReasoningEnd replays ids: reasoning has ended once <answer> has followed
// </think> and no <think> has come since. With no block at all it has not
// (vLLM's idle state), unless the prompt closed one. Without a tokenizer
// only the prompt can tell.
func (p *hunyuan) IsReasoningEnd(ids []int) bool {
	if p.tok == nil {
		return p.start.phase.ended()
	}
	return p.replay(ids, nil, nil).ended()
}

// IsReasoningEndStreaming answers as IsReasoningEnd(ids) does, where delta
// is the newest part of ids. Called for the consecutive deltas of one
// sequence, it decodes only the newest delta: it keeps the machine that
// replayed the IDs before it.
func (p *hunyuan) IsReasoningEndStreaming(ids, delta []int) bool {
	if p.tok == nil {
		return p.start.phase.ended()
	}
	from := len(ids) - min(len(delta), len(ids))
	if !p.end.valid || p.end.n != from {
		p.end.m.reset(p.start)
		p.end.n, p.end.valid = 0, true
		for _, id := range ids[:from] {
			p.feedID(&p.end.m, id, discard)
		}
	}
	for _, id := range ids[from:] {
		p.feedID(&p.end.m, id, discard)
	}
	p.end.n = len(ids)
	return p.end.m.phase.ended()
}

// endReplay is what IsReasoningEndStreaming keeps of the IDs it saw: the
// machine that replayed them, and how many.
type endReplay struct {
	m     hyMachine
	n     int
	valid bool
}

// feedID runs one token through m and returns the length of the text fed:
// the token's decoded text, or, for <|extra_0|>, none: the turn ends, and m
// starts again before any block.
func (p *hunyuan) feedID(m *hyMachine, id int, out emitter) int {
	if p.turn >= 0 && id == p.turn {
		m.finish(out)
		pos, opened := m.pos, m.opened
		m.reset(hyStart{phase: hyBefore})
		m.pos, m.opened = pos, opened
		return 0
	}
	s := p.tok.Decode([]int{id})
	m.feed(s, out)
	return len(s)
}

// ExtractContentIDs returns the IDs of the content that follows the end of
// the last reasoning block, as the text split gives it: the answer and what
// comes after it; nil while reasoning has not ended.
func (p *hunyuan) ExtractContentIDs(ids []int) []int {
	if p.tok == nil {
		if p.start.phase.ended() {
			return ids
		}
		return nil
	}
	var content []int
	end := p.replay(ids, func(i int, ph phase, at hyPhase) {
		if ph == phaseContent && at.ended() {
			content = append(content, ids[i])
		}
	}, func() { content = content[:0] })
	if !end.ended() {
		return nil
	}
	if content == nil {
		content = []int{}
	}
	return content
}

// CountReasoningTokens counts the tokens of ids whose text falls in
// reasoning, starting where the response starts: pass the output's IDs.
func (p *hunyuan) CountReasoningTokens(ids []int) int {
	if p.tok == nil {
		return 0
	}
	n := 0
	p.replay(ids, func(_ int, ph phase, _ hyPhase) {
		if ph == phaseReasoning {
			n++
		}
	}, nil)
	return n
}

// replay runs the machine over the decoded text of ids, one token at a
// time, from where the response starts, and returns the phase it ends in.
// visit, when not nil, receives the index of each token with every section
// its text falls in (once per section) and the phase that text was emitted
// in. forget, when not nil, is called when a block opens or a turn ends, so
// that a caller can drop what came before. At <|extra_0|> the machine
// starts again before any block.
func (p *hunyuan) replay(ids []int, visit func(i int, ph phase, at hyPhase), forget func()) hyPhase {
	var m hyMachine
	starts := make([]int, 1, len(ids)+1) // starts[i]: offset of token i's text
	done := [2]int{-1, -1}               // by section: the last token visited for it
	out := discard
	if visit != nil {
		out = func(ph phase, s string, at int) {
			// The tokens whose text overlaps [at, at+len(s)); text is
			// emitted in order, so they are near the end.
			last := len(starts) - 2
			for last > 0 && starts[last] >= at+len(s) {
				last--
			}
			first := last
			for first > 0 && starts[first] > at {
				first--
			}
			for i := max(first, done[ph]+1); i <= last; i++ {
				visit(i, ph, m.phase)
			}
			done[ph] = max(done[ph], last)
		}
	}
	m.reset(p.start)
	m.opened = forget
	for i, id := range ids {
		// Token i's text begins where the last one's ended; what it emits
		// lies at or after that, so its end is needed only once it is fed.
		starts = append(starts, starts[i])
		starts[i+1] += p.feedID(&m, id, out)
		if p.turn >= 0 && id == p.turn {
			// The boundary's text belongs to no section, and what came
			// before it is forgotten.
			if forget != nil {
				forget()
			}
			done = [2]int{i, i}
		}
	}
	end := m.phase
	m.finish(out)
	return end
}
