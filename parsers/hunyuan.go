package parsers

import (
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// This file holds Tencent's hunyuan_a13b, whose output is
// <think>\n…\n</think>\n<answer>\n…\n</answer>: a grammar on the machine
// driver (machine.go). hy_v3 and hy_v4, think-tag families, are in hy.go.

// Hunyuan A13B's markers besides <think> and </think>. The newlines around the markers are
// whitespace the grammar drops (see newHunyuanA13B); the markers themselves
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
// before and after a block, and stands in hyClosing after </think> until
// the next bytes say whether <answer> follows.
type hyPhase uint8

const (
	hyBefore  hyPhase = iota // no block yet: content; <think> opens one
	hyThink                  // inside reasoning: <think> consumed
	hyClosing                // </think> consumed: reasoning is over; <answer> opens the answer, anything else is content
	hyAnswer                 // inside the answer: content; </answer> ends it
	hyAfter                  // </answer> consumed: content; <think> opens another block
)

func (p hyPhase) String() string {
	return [...]string{"before", "think", "closing", "answer", "after"}[p]
}

// ended reports whether reasoning is over in phase p.
func (p hyPhase) ended() bool { return p >= hyClosing }

// hyStart is where a response starts.
type hyStart struct {
	phase  hyPhase
	due    bool // hyThink: a leading <think> is the block's own opener; hyAnswer: a leading <answer> is the answer's
	skipNL int  // hyThink, hyAnswer: newlines still to drop at the start
}

// hyGrammar is Hunyuan A13B's grammar. Besides what the scanner holds, it
// holds one newline at the end of reasoning or of the answer (it belongs to
// the marker if one follows) and, in hyClosing, drops the newline after
// </think>.
type hyGrammar struct {
	phase  hyPhase
	due    bool // see hyStart
	skipNL int  // see hyStart
	nlAt   int  // hyThink, hyAnswer: offset of a held trailing newline, else -1
	nlSeen bool // hyClosing: the newline after </think> has been dropped
	opens  int  // blocks opened and turns begun: the epochs of ExtractContentIDs
}

func newHYGrammar(s hyStart) *hyGrammar {
	return &hyGrammar{phase: s.phase, due: s.due, skipNL: s.skipNL, nlAt: -1}
}

func (g *hyGrammar) clone() grammar {
	c := *g
	return &c
}

func (g *hyGrammar) cloneInto(dst grammar) { *dst.(*hyGrammar) = *g }

func (g *hyGrammar) ended() bool { return g.phase.ended() }
func (g *hyGrammar) epoch() int  { return g.opens }

// newTurn starts again before any block, after <|extra_0|>.
func (g *hyGrammar) newTurn() {
	*g = hyGrammar{phase: hyBefore, nlAt: -1, opens: g.opens + 1}
}

// active returns the markers that mean something now. Text changes them
// while due (it ends due) and in hyClosing (it starts content).
func (g *hyGrammar) active() stance {
	var a uint64
	switch g.phase {
	case hyBefore, hyAfter:
		a = 1 << hyOpenTag
	case hyThink:
		a = 1 << hyCloseTag
		if g.due {
			a |= 1 << hyOpenTag
		}
	case hyClosing:
		a = 1<<hyOpenTag | 1<<hyAnswerTag
	case hyAnswer:
		a = 1 << hyEndTag
		if g.due {
			a |= 1 << hyAnswerTag
		}
	}
	// Text moves the stance while a marker is due, in hyClosing, and while
	// newlines are to be skipped or one is held; otherwise text goes to
	// its section as it comes, but for a trailing newline inside a block,
	// which may be the closing marker's.
	st := stance{mask: a, moves: g.due || g.phase == hyClosing || g.skipNL > 0 || g.nlAt >= 0, direct: -1}
	switch {
	case st.moves:
	case g.phase == hyBefore || g.phase == hyAfter:
		st.direct = int8(phaseContent)
	case g.phase == hyThink:
		st.direct, st.hold = int8(phaseReasoning), 1<<'\n'
	case g.phase == hyAnswer:
		st.direct, st.hold = int8(phaseContent), 1<<'\n'
	}
	return st
}

// marker applies marker k, found at offset at and active in the current phase.
func (g *hyGrammar) marker(k, at int, out emitter) {
	g.due = false // whatever it is, it comes first no more
	switch k {
	case hyOpenTag:
		if g.phase != hyThink {
			g.opens++
		}
		// From hyThink this is the block's own opener (the response
		// started inside reasoning): dropped all the same.
		g.phase, g.skipNL, g.nlAt = hyThink, 2, -1
	case hyCloseTag:
		// Reasoning is over, whatever follows; the held newline before
		// </think> is the marker's.
		g.phase, g.nlSeen, g.skipNL, g.nlAt = hyClosing, false, 0, -1
	case hyAnswerTag:
		// From hyClosing: the answer opens. From hyAnswer: the answer's
		// own opening tag after a prompt that closed the block.
		g.phase, g.skipNL, g.nlAt = hyAnswer, 1, -1
	case hyEndTag:
		g.phase, g.nlAt = hyAfter, -1
	}
}

// text sends s, text of the output at offset at, to the current section.
func (g *hyGrammar) text(s string, at int, out emitter) {
	switch g.phase {
	case hyBefore, hyAfter:
		out(phaseContent, s, at)
	case hyClosing:
		if !g.nlSeen && s[0] == '\n' { // the newline between </think> and <answer>
			g.nlSeen, s, at = true, s[1:], at+1
			if s == "" {
				return
			}
		}
		g.phase = hyAfter // no <answer>: the rest is content
		out(phaseContent, s, at)
	default: // hyThink, hyAnswer
		g.due = false
		ph := phaseContent
		if g.phase == hyThink {
			ph = phaseReasoning
		}
		g.wrapped(ph, s, at, out)
	}
}

// wrapped emits s inside a block (reasoning or the answer): newlines still
// to skip after the opening marker are dropped, and a trailing newline is
// held until more text shows it is not the one before the closing marker.
func (g *hyGrammar) wrapped(ph phase, s string, at int, out emitter) {
	for g.skipNL > 0 && s != "" && s[0] == '\n' {
		s, at, g.skipNL = s[1:], at+1, g.skipNL-1
	}
	if s == "" {
		return
	}
	g.skipNL = 0
	if g.nlAt >= 0 {
		out(ph, "\n", g.nlAt)
		g.nlAt = -1
	}
	if n := len(s) - 1; s[n] == '\n' {
		if n > 0 {
			out(ph, s[:n], at)
		}
		g.nlAt = at + n
		return
	}
	out(ph, s, at)
}

// end ends the text: whatever is held goes to the section it belongs to.
func (g *hyGrammar) end(out emitter) {
	if g.nlAt >= 0 {
		ph := phaseContent
		if g.phase == hyThink {
			ph = phaseReasoning
		}
		out(ph, "\n", g.nlAt)
		g.nlAt = -1
	}
}

// hunyuanSpec is what the shell needs of Hunyuan A13B: its markers, matched
// by their text (in Hunyuan's vocabulary each is several ordinary tokens),
// and the end of the user's turn, where the ID walks start again.
var hunyuanSpec = machineSpec{markers: hyMarkers, textOnly: true, turn: hyTurnEnd}

// hunyuanEntry describes hunyuan_a13b for the registry-wide tests.
var hunyuanEntry = catalog.Entry{Markers: hyMarkers, Boundaries: []string{hyTurnEnd}, StripsSpace: true, MarkersAreText: true}

// newHunyuanA13B builds the "hunyuan_a13b" parser (vLLM
// HunyuanA13BReasoningParser), also registered as "hunyuan", SGLang's name.
//
// Markers: <think>\n opens reasoning; \n</think>\n<answer>\n ends it and
// opens the answer; \n</answer> ends the answer. The newlines are part of
// the markers but each may be missing: up to two newlines after <think> are
// dropped (vLLM's "<think>\n\n" form), and one before </think>, between
// </think> and <answer>, after <answer> and before </answer>. </think> ends
// reasoning whatever follows it; when <answer> does not (after the optional
// newline), the rest is content, as after </answer>. In Hunyuan's vocabulary every marker is several
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
// Repeats: after </answer>, or after a </think> that <answer> does not
// follow, the output is content again and another <think> opens another
// block; a <think> inside reasoning and an <answer> or </answer> outside
// the answer are text.
// Streaming: holds back fewer bytes than the longest marker while they may
// start one, a trailing newline of reasoning or of the answer, and the
// newline after </think> until the next byte says whether <answer>
// follows; Finish returns what is held to the section it belongs to.
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
// split as streaming does (spec policy 2). A </think> that <answer> does
// not follow makes vLLM's extract return the whole output as content and
// its stream keep everything reasoning, so the user sees no answer; ours
// ends reasoning there (spec vllm-main §1.4 H4, at
// vllm/reasoning/hunyuan_a13b_reasoning_parser.py@0b19ebca). vLLM's end
// check is the state of the instance that streamed, true only inside the
// answer; ours replays the IDs: true once </think> has closed a block (or
// the prompt closed it) until another <think>, false with no block at all,
// as vLLM's idle state. It starts again after <|extra_0|>, the end of the user's turn, so
// ids may hold the prompt. ExtractContentIDs returns the answer's tokens
// and what follows (vLLM returns none), CountReasoningTokens the tokens
// whose text falls in reasoning (vLLM counts none). SGLang's "hunyuan" is
// its base detector on <think> and </think> (a suffixed spelling when the
// tokenizer has one), starting in content, with <tool_calls> ending
// reasoning, and it keeps the newlines and the <answer> tags in the content.
// Other engines: SGLang's hunyuan detector reads its think and tool tags from
// the tokenizer and normalises reasoning_effort (none/no_think → no_think,
// minimal/low → low, medium/high/xhigh/max → high; hunyuan_reasoning.py
// @84eb842e) (spec field-names §15 #13).
func newHunyuanA13B(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return newShell(&hunyuanSpec, tok, cfg, newHYGrammar(hunyuanStart(tok, cfg)))
}

func init() {
	register("hunyuan_a13b", newHunyuanA13B, hunyuanEntry, about{engine: vllm, models: []string{"hunyuan"},
		summary: "`<think>\\n`…`\\n</think>\\n<answer>\\n`…`\\n</answer>`, newlines optional, wrapper dropped, starts in content",
		opens:   []string{thinkOpen}, closes: []string{thinkClose}, aliases: []string{"hunyuan"}})
}

// hunyuanStart applies spec policy 4 and WithForceReasoning: the prompt's
// last marker, wherever it is, says where the response starts, unless the
// end of the user's turn follows it. A marker with only newlines after it
// leaves the rest of its newlines to drop; one with text after it leaves
// the response where that text stands.
func hunyuanStart(tok tokenizer.Tokenizer, cfg reasoning.Config) hyStart {
	if f := cfg.ForceReasoning; f != nil {
		if *f {
			return hyStart{phase: hyThink, due: true}
		}
		return hyStart{phase: hyBefore}
	}
	tail, k, _ := promptFrom(cfg, tok, hyPromptMarkers, nil, 1<<len(hyPromptMarkers)-1, nil)
	if k < 0 || k == len(hyMarkers) { // no marker, or the user's turn ended after it
		return hyStart{phase: hyBefore}
	}
	rest := tail[len(hyPromptMarkers[k]):]
	text := strings.TrimRight(rest, spaces) != ""
	// skip returns how many of want newlines after the marker are still
	// to come: none if other whitespace follows it.
	skip := func(want int) int {
		if strings.Trim(rest, "\n") != "" {
			return 0
		}
		return max(0, want-len(rest))
	}
	switch k {
	case hyOpenTag:
		return hyStart{phase: hyThink, skipNL: skip(2)}
	case hyCloseTag:
		if text { // </think> with text and no <answer> after it: content
			return hyStart{phase: hyAfter}
		}
		return hyStart{phase: hyAnswer, due: true}
	case hyAnswerTag:
		return hyStart{phase: hyAnswer, skipNL: skip(1)}
	}
	return hyStart{phase: hyAfter}
}

// hyPromptMarkers are the markers hunyuanStart looks for in a prompt: the
// family's, then the end of the user's turn.
var hyPromptMarkers = append(append([]string(nil), hyMarkers...), hyTurnEnd)
