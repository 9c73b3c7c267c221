package parsers

import (
	"errors"
	"fmt"
	"slices"

	"github.com/reasoning-go/reasoning"
)

// ThinkTag declares a <think>-style family: reasoning between an opening and
// a closing marker, content around it. Every in-tree think-tag family is a
// ThinkTag value; a third party writes one for its own model and registers
// its Factory:
//
//	f, err := parsers.ThinkTag{
//		Name:     "reasoner",
//		Open:     []string{"<reason>"},
//		Close:    []string{"</reason>"},
//		Tools:    []string{"<tool>"},
//		Thinking: parsers.Switch{Keys: []string{"enable_reasoning"}, Default: true},
//	}.Factory()
//	if err != nil { ... }
//	reasoning.Register("reasoner", f)
//
// The parser it yields behaves as every in-tree family does: streaming equals
// Extract, nothing is lost, markers may be single tokens or several (a single
// token's ID beats the same characters typed as text), and the ID methods and
// a Gate agree with the text split. The zero value of each field is the
// common case.
type ThinkTag struct {
	Name  string   // the registered name, for errors and Info
	Open  []string // the markers that open reasoning, every spelling; none when the model never writes one
	Close []string // the markers that close it, every spelling; at least one
	// Tools are tool-call openers that end reasoning implicitly: the marker
	// and what follows are content, verbatim, for the tool parser.
	Tools   []string
	Start   Start   // where a response starts
	Repeats Repeats // what markers do after the first block, and inside it
	// Thinking is the request's thinking switch, read from
	// chat_template_kwargs; the zero Switch is none (always thinking).
	Thinking Switch
	// TrimReasoning drops the trailing whitespace of each reasoning block.
	TrimReasoning bool
	// TrimContent lists the characters dropped from the start of content
	// right after a closing marker ("\n" for templates that write
	// "</think>\n\n").
	TrimContent string
	// TrimOpen lists the characters dropped from the start of a block right
	// after its opening marker.
	TrimOpen string
	// Boundaries are the turn markers (single tokens) at which the ID-level
	// end check stops looking back: a prompt's earlier turns do not decide
	// where this response's reasoning stands.
	Boundaries []string

	rules []rule // the rare moves of one in-tree family, as rows
}

// Start says where a response starts when neither the prompt, the thinking
// switch nor WithForceReasoning decides. Whatever Start says, a prompt that
// ends in an opening marker starts the response in reasoning, one that ends
// in a closing marker starts it in content.
type Start uint8

const (
	// StartReasoning: the response starts inside reasoning (chat templates
	// that put the opener in the prompt). The block's first opener is
	// dropped wherever it comes; text before it is reasoning.
	StartReasoning Start = iota
	// StartContent: the response starts in content; an opener opens a block.
	StartContent
	// StartOpened: the response starts inside reasoning whose opener has
	// been had, so a leading opener is text.
	StartOpened
	starts
)

// Repeats says what markers do besides opening and closing the first block:
// an opener inside a block, a stray closer in content, an opener after the
// block.
type Repeats uint8

const (
	// RepeatsOnce: one block. After it everything is content, verbatim;
	// an opener inside the block, after its first, is reasoning text.
	RepeatsOnce Repeats = iota
	// RepeatsAbsorbOpens: one block, every opener inside it dropped; after
	// it everything is content, verbatim.
	RepeatsAbsorbOpens
	// RepeatsDropStray: one block, every opener inside it dropped; a closer
	// in content is dropped, an opener in content is text.
	RepeatsDropStray
	// RepeatsReopen: every opener in content opens another block; an opener
	// inside a block is text; a stray closer in content is dropped.
	RepeatsReopen
	// RepeatsReopenVerbatim: every opener in content opens another block;
	// an opener inside a block and a stray closer in content are text.
	RepeatsReopenVerbatim
	// RepeatsInterleave: blocks interleave with content (reasoning between
	// tool calls); every opener inside a block and every stray closer are
	// dropped.
	RepeatsInterleave
	repeats
)

// moves are what a Repeats means for the machine: an opener in content opens
// a block (reenter), every opener inside a block is dropped (absorbOpens), a
// closer in content is dropped (dropCloses).
func (r Repeats) moves() (reenter, absorbOpens, dropCloses bool) {
	switch r {
	case RepeatsAbsorbOpens:
		return false, true, false
	case RepeatsDropStray:
		return false, true, true
	case RepeatsReopen:
		return true, false, true
	case RepeatsReopenVerbatim:
		return true, false, false
	case RepeatsInterleave:
		return true, true, true
	}
	return false, false, false
}

func (s Start) String() string {
	if s < starts {
		return [...]string{"reasoning", "content", "opened"}[s]
	}
	return fmt.Sprintf("Start(%d)", s)
}

func (r Repeats) String() string {
	if r < repeats {
		return [...]string{"once", "absorb-opens", "drop-stray", "reopen", "reopen-verbatim", "interleave"}[r]
	}
	return fmt.Sprintf("Repeats(%d)", r)
}

// Switch is a family's thinking switch.
type Switch struct {
	// Keys are the chat_template_kwargs keys that switch thinking, read as
	// aliases: on when any is true, off when one is set and none is true.
	// ResolveThinking writes its decision into each of them.
	Keys    []string
	Default bool // thinking when no key is set
	Off     Off  // what a response is with thinking off

	// decide, for an in-tree family, replaces reading Keys as booleans
	// (reasoning_effort, thinking_mode); Keys still name what it reads.
	decide func(reasoning.Config) bool
}

// on reports whether cfg thinks; a switch without keys always does.
func (s Switch) on(cfg reasoning.Config) bool {
	switch {
	case s.decide != nil:
		return s.decide(cfg)
	case len(s.Keys) == 0:
		return true
	}
	if on, set := cfg.Thinking(s.Keys...); set {
		return on
	}
	return s.Default
}

// Off is what a family does when its thinking switch is off.
type Off uint8

const (
	// OffIdentity: no reasoning at all. The output is content, markers and
	// all, and the ID-level end check is always true.
	OffIdentity Off = iota
	// OffContent: the response starts in content, where an opener still
	// opens a block.
	OffContent
	// OffClosed: the response starts in content as if a block had been had,
	// so an opener opens one only where Repeats reopens.
	OffClosed
	offs
)

// ErrSpec is wrapped by the error of a ThinkTag that cannot be compiled.
var ErrSpec = errors.New("invalid family spec")

// Factory compiles the spec into a reasoning.Factory, for reasoning.Register.
// It fails, wrapping ErrSpec and naming the family, when the spec has no
// name or closing marker, an empty or duplicate marker, a marker that is a
// prefix of another, more markers than the scanner watches, or an
// enumeration out of range.
func (s ThinkTag) Factory() (reasoning.Factory, error) {
	f, err := compileTag(s)
	if err != nil {
		return nil, err
	}
	return f.newParser, nil
}

// Info describes the family for a Registry (reasoning.RegisterInfo): its
// name, markers and thinking switch keys, so that ResolveThinking writes its
// decision into the family's keys too. Summary and Engine are left for the
// caller to fill.
func (s ThinkTag) Info() reasoning.Info {
	info := reasoning.Info{Name: s.Name, Opens: slices.Clone(s.Open), Closes: slices.Clone(s.Close),
		Tools: slices.Clone(s.Tools), SwitchKeys: slices.Clone(s.Thinking.Keys)}
	if f, err := compileTag(s); err == nil {
		info.Markers = slices.Clone(f.markers)
	} else {
		info.Markers = slices.Concat(s.Open, s.Close, s.Tools)
	}
	return info
}

// A rule is one rare move of an in-tree family, beyond ThinkTag's fields:
// a named row that sets what the machine does.
type rule struct {
	name  string // what the row says, for the golden table
	apply func(*tagSpec)
}

// endsAt: these markers end reasoning and are dropped wherever they come
// (PLaMo's end of turn).
func endsAt(markers ...string) rule {
	return rule{"ends reasoning, dropped: " + quoted(markers), func(t *tagSpec) { t.ends = append(t.ends, markers...) }}
}

// dropped: these markers are dropped wherever they come (reserved tokens,
// answer wrappers).
func dropped(markers ...string) rule {
	return rule{"dropped: " + quoted(markers), func(t *tagSpec) { t.drops = append(t.drops, markers...) }}
}

// droppedInContentOnly: the dropped markers are text inside reasoning.
func droppedInContentOnly() rule {
	return rule{"dropped only in content", func(t *tagSpec) { t.dropsInContent = true }}
}

// answerWrapper: in content, open and close wrap the answer and are
// dropped; the newlines between a closer and an open right after it are
// dropped, so is one newline after close; elsewhere they are text (ERNIE
// 4.5's <response>…</response>). The markers are dropped markers too, text
// inside reasoning.
func answerWrapper(open, close string) rule {
	return rule{fmt.Sprintf("answer wrapper %q…%q in content", open, close), func(t *tagSpec) {
		t.drops = append(t.drops, open, close)
		t.dropsInContent = true
		t.wrap = [2]string{open, close}
	}}
}

// toolBlocks: a tool-call opener, in reasoning or content, starts a block
// that is content, verbatim, up to one of closers, inside which no other
// marker counts.
func toolBlocks(closers ...string) rule {
	return rule{"tool blocks closed by " + quoted(closers), func(t *tagSpec) {
		t.toolBlocks = true
		t.toolCloses = append(t.toolCloses, closers...)
	}}
}

// tails: these markers are dropped with the tail that follows them.
func tails(tail tailSpec, markers ...string) rule {
	return rule{fmt.Sprintf("dropped with a tail of %q and %q: %s", tail.chars, tail.end, quoted(markers)), func(t *tagSpec) {
		t.tails = append(t.tails, markers...)
		t.tail = tail
	}}
}

// newlineEachSide: one newline before a closer and one after it are
// dropped, not every whitespace (Step-3.5's template writes them around
// </think>). A block cut off by the end of the output drops its trailing
// newline too.
func newlineEachSide() rule {
	return rule{"one newline dropped on each side of a closer", func(t *tagSpec) {
		t.trimNewline = true
		t.trimContent, t.trimOnce = "\n", true
	}}
}

// dropLeadSpace: in a response that starts in reasoning, a whitespace-only
// start of the output is dropped when the block's opener follows it; any
// other text before the opener stays reasoning (vLLM's R1-style parsers,
// whose extract drops everything before the first opener).
func dropLeadSpace() rule {
	return rule{"whitespace before the first opener dropped", func(t *tagSpec) { t.dropLeadSpace = true }}
}

// openAtStart: an opener counts only as the very first bytes of the output.
func openAtStart() rule {
	return rule{"opener only at the start", func(t *tagSpec) { t.openAtStart = true }}
}

// trimsStart: a response that starts in reasoning drops TrimOpen's
// characters from its start, as a block does after its opener (templates
// that write the opener, and the whitespace after it, in the prompt).
func trimsStart() rule {
	return rule{"start of a response in reasoning trimmed as after an opener", func(t *tagSpec) { t.trimStart = true }}
}

// closeForecloses: in content before any block, a closer is text and ends
// the chance of one: a later opener is text too (Granite: a response
// phrase before any thought phrase means the model answered).
func closeForecloses() rule {
	return rule{"a closer before any block is text and forecloses one", func(t *tagSpec) { t.closeForecloses = true }}
}

// trimsContentEnd: the trailing whitespace of content is dropped at the
// end of the output; until then it is held, and goes out when more content
// comes (templates that write the answer's wrapper after a newline).
func trimsContentEnd() rule {
	return rule{"trailing whitespace of content dropped at the end", func(t *tagSpec) { t.trimContentEnd = true }}
}

// trimsContentStart: a response that starts in content drops TrimContent's
// characters from its start, as content does after a closer (templates
// whose generation prompt leaves the newline that ends the role line to the
// model).
func trimsContentStart() rule {
	return rule{"start of a response in content trimmed as after a closer", func(t *tagSpec) { t.trimContentStart = true }}
}

// markersAreText: markers count by their text even where a vocabulary has
// one as a single token and deltas carry IDs (markers no real vocabulary
// has as special tokens).
func markersAreText() rule {
	return rule{"markers matched by their text, IDs or not", func(t *tagSpec) { t.textOnly = true }}
}

// dropLeadingClose: starting in content, a closer before any text is
// dropped, and the response is content to the end: no block opens after
// it (MiniMax M3).
func dropLeadingClose() rule {
	return rule{"leading closer dropped, no block after it", func(t *tagSpec) { t.dropLeadingClose = true }}
}

// dropEarlyClose: in content, a closer before any block is dropped
// (RWKV's, where upstream splits at it); a closer after a block follows
// Repeats.
func dropEarlyClose() rule {
	return rule{"closer before any block dropped", func(t *tagSpec) { t.dropEarlyClose = true }}
}

// labeled: a block may begin with a channel label, dropped (Gemma 4).
func labeled(label string) rule {
	return rule{fmt.Sprintf("label %q dropped", label), func(t *tagSpec) { t.label = label }}
}

// labelOpens: the label as an output's first bytes opens a block (Gemma 4).
func labelOpens() rule {
	return rule{"label at the output's start opens a block", func(t *tagSpec) { t.labelOpens = true }}
}

// boundaryAnswer: the ID-level end check's answer at a turn boundary.
func boundaryAnswer(fn func(reasoning.Config) bool) rule {
	return rule{"end check at a boundary: by the switch", func(t *tagSpec) { t.boundaryEnds = fn }}
}

// sealed: inside a block only a closer counts.
func sealed() rule {
	return rule{"blocks sealed: only a closer counts inside", func(t *tagSpec) { t.sealed = true }}
}

// endNeedsMarker: the ID-level end check needs a marker to say ended.
func endNeedsMarker() rule {
	return rule{"end check needs a marker", func(t *tagSpec) { t.endNeedsMarker = true }}
}

// responseIn: the part of a prompt that belongs to the response.
func responseIn(fn func(prompt string) string) rule {
	return rule{"prompt replayed from its response part", func(t *tagSpec) { t.responseIn = fn }}
}

func quoted(ss []string) string {
	return fmt.Sprintf("%q", ss)
}

// compileTag checks s and compiles it into a family.
func compileTag(s ThinkTag) (*tagFamily, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("parsers: family %q: %w: %s", s.Name, ErrSpec, fmt.Sprintf(format, args...))
	}
	switch {
	case s.Name == "":
		return nil, bad("no name")
	case len(s.Close) == 0:
		return nil, bad("no closing marker")
	case s.Start >= starts:
		return nil, bad("%v", s.Start)
	case s.Repeats >= repeats:
		return nil, bad("%v", s.Repeats)
	case s.Thinking.Off >= offs:
		return nil, bad("Off(%d)", s.Thinking.Off)
	}
	t := tagSpec{
		name:          s.Name,
		close:         s.Close[0],
		closes:        slices.Clone(s.Close[1:]),
		tools:         slices.Clone(s.Tools),
		boundaries:    slices.Clone(s.Boundaries),
		startContent:  s.Start == StartContent,
		startOpened:   s.Start == StartOpened,
		trimReasoning: s.TrimReasoning,
		trimContent:   s.TrimContent,
		trimOpen:      s.TrimOpen,
		off:           offMode(s.Thinking.Off),
		spec:          s,
	}
	if len(s.Open) > 0 {
		t.open, t.opens = s.Open[0], slices.Clone(s.Open[1:])
	}
	t.reenter, t.absorbOpens, t.dropCloses = s.Repeats.moves()
	if s.Thinking.decide != nil || len(s.Thinking.Keys) > 0 {
		t.thinking = s.Thinking.on
	}
	for _, r := range s.rules {
		r.apply(&t)
	}
	f, err := newTagFamilyErr(t)
	if err != nil {
		return nil, bad("%v", err)
	}
	return f, nil
}

// newTagFamily compiles an in-tree spec. A bad one is a programming error:
// it panics.
func newTagFamily(s ThinkTag) *tagFamily {
	f, err := compileTag(s)
	if err != nil {
		panic(err)
	}
	return f
}

// renamed returns spec under another name, for a second registered name of
// the same behaviour.
func renamed(f *tagFamily, name string) ThinkTag {
	s := f.spec
	s.Name = name
	return s
}
