package parsers

import (
	"encoding/binary"
	"slices"
	"strings"
	"unsafe"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/marker"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// This file holds the think-tag base: one machine that every <think>-style
// family uses. A family is a ThinkTag value (spec.go), compiled into a
// tagSpec and then into a transition table; testdata/thinktag_tables.golden
// prints every family's table.

// phase is where a think-tag parser stands in one response.
type phase uint8

const (
	phaseContent   phase = iota // outside reasoning: text is content
	phaseReasoning              // inside a reasoning block: the closing marker has not been seen
)

func (p phase) String() string { return [...]string{"content", "reasoning"}[p] }

// tagState is the whole state of the machine between two markers, apart from
// text held back.
type tagState struct {
	phase    phase
	opened   bool // phaseReasoning: the block's opening marker has been consumed
	seen     bool // a reasoning block has begun (or the prompt held one): a non-re-entering family opens no other
	begun    bool // some text or marker of the output has gone by
	trimming bool // dropping leading characters: trimContent at the start of content, trimOpen at the start of a block
	inTool   bool // phaseContent: inside a tool-call block (toolBlocks), where only its closers count
	inTail   bool // dropping the tail of a tail marker (tails)
	labeling bool // the block's label (label) is not settled yet; in content, the output's start while it may be the bare label (labelOpens)
	gap      bool // phaseContent, right after a closer: newlines held while a wrapper (wrap) may follow
	answer   bool // phaseContent: inside the answer wrapper (wrap)
	wrapped  bool // phaseContent: the wrapper has just closed, so one newline after it is dropped
	leading  bool // phaseReasoning, unopened: the output so far is whitespace, held while the opener may come (dropLeadSpace)
}

// markerKind says what a marker does.
type markerKind uint8

const (
	kindOpen      markerKind = iota // opens reasoning; dropped
	kindClose                       // closes reasoning; dropped
	kindEnd                         // ends reasoning, and is dropped wherever it comes (PLaMo's end of turn)
	kindTool                        // ends reasoning implicitly; kept, in content, for the tool parser
	kindDrop                        // dropped wherever it comes (MiniCPM-V's reserved tokens)
	kindToolClose                   // ends a tool-call block (toolBlocks); kept, in content
	kindTail                        // dropped wherever it comes, with the tail that follows it (tails)
	kinds
)

// offMode is what a family does when its thinking switch is off.
type offMode uint8

const (
	offIdentity    offMode = iota // no reasoning: the identity parser, markers are text
	offContent                    // start in content; an opening marker still opens the one block
	offContentSeen                // start in content as if a block had been had: an opener opens one only in a re-entering family
)

// tagSpec is a ThinkTag compiled into what the machine reads: its enums as
// the booleans they mean, its rule rows applied. The zero value of each
// field is the common case.
type tagSpec struct {
	name       string   // registered name, for errors
	open       string   // opening marker; "" when the family has none
	close      string   // closing marker
	opens      []string // further opening markers, alike
	closes     []string // further closing markers, alike
	ends       []string // further markers that end reasoning and are dropped wherever they come
	tools      []string // tool-call openers that end reasoning and stay in content
	drops      []string // markers dropped wherever they come
	boundaries []string // turn markers at which the ID-level end check stops looking back
	toolCloses []string // closers of tool-call blocks (toolBlocks); kept in content
	tails      []string // markers dropped together with the tail after them (tail says what it is made of)
	tail       tailSpec // the tail of the tails markers

	startContent     bool   // a response starts in content, not in reasoning
	startOpened      bool   // a response that starts in reasoning has had its opener: a leading one is text
	reenter          bool   // an opening marker in content starts another reasoning block
	absorbOpens      bool   // every opening marker inside reasoning is dropped, not only the block's first
	dropCloses       bool   // a closing marker in content is dropped, not kept as text
	openAtStart      bool   // the opening marker counts only as the very first bytes of the output
	dropLeadingClose bool   // starting in content, a closing marker before any text is dropped, and no block opens after it
	dropEarlyClose   bool   // in content, a closing marker before any reasoning block is dropped
	closeForecloses  bool   // in content before any block, a closing marker is text and no block opens after it
	dropLeadSpace    bool   // in reasoning before the opener, a whitespace-only start of the output is dropped when the opener follows it
	dropsInContent   bool   // drops are dropped only in content; inside reasoning they are text
	trimReasoning    bool   // the trailing whitespace of a reasoning block is dropped
	trimNewline      bool   // one newline that ends a reasoning block is dropped (Step-3.5), not all whitespace
	trimContent      string // characters dropped from the start of content after a closing marker
	trimOnce         bool   // trimContent drops one character at most, not a run
	trimOpen         string // characters dropped from the start of a reasoning block after its opening marker
	trimStart        bool   // a response that starts in reasoning drops trimOpen characters from its start too
	trimContentEnd   bool   // the trailing whitespace of content, at the end of the output, is dropped
	trimContentStart bool   // a response that starts in content drops trimContent characters from its start too
	textOnly         bool   // markers count by their text even when deltas carry IDs

	// label is a channel name that may begin a reasoning block (Gemma 4's
	// "thought\n" after <|channel>): dropped when the block's text begins
	// with it, held back while that text is still a prefix of it. A block
	// (or output) that ends while its text is the label short of its
	// trailing whitespace drops that too; any other prefix is reasoning.
	label string
	// labelOpens makes the label, as the very first bytes of an output
	// that starts in content, open a block as the opener would, the label
	// dropped (Gemma 4's bare "thought\n"). Those bytes are held while they
	// may be it; an output that is only the label short of its trailing
	// whitespace gives nothing; any other start, or a marker first, is
	// content.
	labelOpens bool
	// wrap is an answer wrapper (ERNIE's <response>…</response>), both
	// markers among drops, read in content: wrap[0] opens an answer block
	// and wrap[1] closes the open one, both dropped; a run of newlines
	// between a closer and a wrap[0] right after it is dropped, other
	// newlines there are content; one newline right after wrap[1] is
	// dropped. A wrap[1] with no block open, and a wrap[0] inside one, is
	// text.
	wrap [2]string
	// boundaryEnds, when set, is the ID-level end check's answer at a turn
	// boundary, in place of where the response starts (Gemma 4: a new turn
	// has not ended reasoning while thinking is on, since it may still open
	// a thought channel).
	boundaryEnds func(reasoning.Config) bool

	// toolBlocks makes a tool-call opener start a block that is content,
	// verbatim, up to and including one of toolCloses (or to the end of the
	// output without one), inside which no other marker counts. An opener
	// in content starts one too, besides one that ends reasoning (Cohere's
	// <|START_ACTION|> JSON, hf's tool_calls region).
	toolBlocks bool
	// sealed makes a reasoning block a region that only a closing marker
	// ends: inside it every other marker (tool-call openers, ends, drops,
	// tails) is reasoning text. The opener that starts the block still
	// counts where it would (hf's response_template regions).
	sealed bool
	// endNeedsMarker makes the ID-level end check answer false, not "the
	// response started in content", when no marker after the last boundary
	// shows where reasoning stands, unless the prompt closed the block
	// (Cohere, whose end check looks for <|END_THINKING|> and nothing else).
	endNeedsMarker bool
	// responseIn, when set, returns the part of a prompt that belongs to the
	// response (hf: the text after the last start anchor). The machine is
	// run over it, from the family's default start, and the response starts
	// where that leaves it, a tool-call block or a trimmed opener included;
	// a marker cut in two by the end of the prompt is not joined with the
	// output. It replaces the check of the prompt's last marker.
	responseIn func(prompt string) string

	thinking func(reasoning.Config) bool // the thinking switch; nil: none
	off      offMode                     // what thinking off means

	spec ThinkTag // what the family was compiled from
}

// A tailSpec says what goes with a tail marker: the run of bytes from chars
// that follows it, then one end byte if that comes next. Cohere's citation
// closer "</co: 0:[1,2]>" is the marker "</co:", the run " 0:[1,2]" and ">".
// A byte that starts a marker must be in neither, so that a marker always
// ends a tail. chars are ASCII.
type tailSpec struct {
	chars string
	end   byte
}

// cutSet is a set of characters trimmed from the start of text
// (strings.TrimLeft's cutset), held as a set of bytes when all are ASCII.
type cutSet struct {
	chars string
	ascii bool      // every character of chars is ASCII: set holds them
	set   [4]uint64 // bit c%64 of set[c/64] for each character c
}

// newCutSet returns the set of the characters of chars.
func newCutSet(chars string) cutSet {
	c := cutSet{chars: chars, ascii: true}
	for i := 0; i < len(chars); i++ {
		b := chars[i]
		if b >= 0x80 {
			return cutSet{chars: chars}
		}
		c.set[b>>6] |= 1 << (b & 63)
	}
	return c
}

// trimLeft is strings.TrimLeft(s, c.chars).
func (c *cutSet) trimLeft(s string) string {
	if !c.ascii {
		return strings.TrimLeft(s, c.chars)
	}
	return s[c.span(s):]
}

// span returns how many bytes at the start of s are in the set, whose
// characters are ASCII.
func (c *cutSet) span(s string) int {
	i := 0
	for i < len(s) && c.set[s[i]>>6]&(1<<(s[i]&63)) != 0 {
		i++
	}
	return i
}

// tagFamily is a tagSpec made ready for parsers: its markers in the order the
// scanner watches them.
type tagFamily struct {
	tagSpec
	markers []string                // every marker, open first when present
	kinds   []markerKind            // kind of markers[i]
	bits    [kinds]uint64           // by kind: the markers of that kind, as a mask
	act     [structures]uint64      // by structure: the markers that count there
	moves   [structures][kinds]move // by structure and kind: what a marker does there
	stances [structures]stance      // by structure: the grammar's stance in a state of it that holds nothing
	shell   machineSpec             // what the shell needs: the markers, and the closer for EndIDs
	// The sets of trimContent, trimOpen and the tail's chars.
	cutContent, cutOpen, cutTail cutSet
}

// newTagFamilyErr prepares spec, or says why its markers cannot be watched.
func newTagFamilyErr(spec tagSpec) (*tagFamily, error) {
	f := &tagFamily{tagSpec: spec}
	add := func(k markerKind, ss ...string) {
		for _, s := range ss {
			f.bits[k] |= 1 << len(f.markers)
			f.markers = append(f.markers, s)
			f.kinds = append(f.kinds, k)
		}
	}
	if spec.open != "" {
		add(kindOpen, spec.open)
	}
	add(kindOpen, spec.opens...)
	add(kindClose, spec.close)
	add(kindClose, spec.closes...)
	add(kindEnd, spec.ends...)
	add(kindTool, spec.tools...)
	add(kindDrop, spec.drops...)
	add(kindToolClose, spec.toolCloses...)
	add(kindTail, spec.tails...)
	if err := marker.Check(f.markers); err != nil {
		return nil, err
	}
	f.shell = machineSpec{markers: f.markers, textOnly: spec.textOnly, endText: spec.close}
	f.cutContent, f.cutOpen, f.cutTail = newCutSet(spec.trimContent), newCutSet(spec.trimOpen), newCutSet(spec.tail.chars)
	if !f.cutTail.ascii {
		panic("parsers: family " + spec.name + ": a tail's chars must be ASCII") // tails are the package's own
	}
	f.compile()
	return f, nil
}

// The transition table. A state's structure (its phase, opened, seen, begun
// and inTool) decides which markers count and where each leads; the holds
// (trimming, labeling, inTail) only shape the text. compile works out, once
// per family, the markers that count in each of the 32 structures and the
// move each kind of marker makes there; the machine then looks them up.

// key is the index of s's structure in the table: phase, opened, seen,
// begun and inTool as its bits 0 to 4. It reads them as bytes 0 to 3 and 5
// of one word of s's first 8 bytes, each 0 or 1, which one multiply moves
// to bits 40 to 44 (no two products meet, so nothing carries).
func (s *tagState) key() uint8 {
	x := binary.LittleEndian.Uint64((*[8]byte)(unsafe.Pointer(s))[:])
	return uint8((x&structBytes)*structGather>>40) & (structures - 1)
}

// structBytes are the bytes of tagState's first 8 that key reads, and
// structGather the multiplier that moves byte 0, 1, 2, 3 and 5 to bit 40,
// 41, 42, 43 and 44.
const (
	structBytes  = 0x0000_0100_0101_0101
	structGather = 1<<40 | 1<<33 | 1<<26 | 1<<19 | 1<<4
)

// key reads 8 bytes of a tagState: it must have them (TestTagStateKey
// checks where its fields lie).
var _ [unsafe.Sizeof(tagState{}) - 8]struct{}

// holding reports whether s holds something back or drops text as it
// comes: the start of a section (trimming, labeling, leading, gap,
// wrapped) or the tail of a tail marker (inTail).
func (s *tagState) holding() bool {
	return s.trimming || s.labeling || s.inTail || s.gap || s.wrapped || s.leading
}

// bit is 1 for true.
func bit(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// fromKey is the state of structure k, with no holds.
func fromKey(k uint8) tagState {
	return tagState{phase: phase(k & 1), opened: k&2 != 0, seen: k&4 != 0, begun: k&8 != 0, inTool: k&16 != 0}
}

const structures = 32

// A move is what a marker does in one structure: the state it leads to,
// whether that state replaces the current one with its holds (fresh) or
// keeps the current holds, and whether the marker's text is content (keep).
type move struct {
	to     tagState
	fresh  bool
	keep   bool
	untrim bool      // not fresh: the marker ends a leading trim (trimming)
	key    uint8     // the structure of to
	plain  bool      // from a state that holds nothing, the state it leads to holds nothing either
	run    runEffect // what it does to a run the driver holds for a direct stance (tableMover.overRun)
}

// compile fills the family's table from the rules its spec sets.
func (f *tagFamily) compile() {
	for k := range uint8(structures) {
		s := fromKey(k)
		f.act[k] = f.rules(s)
		for kind := range kinds {
			mv := f.rule(s, kind)
			mv.key = mv.to.key()
			mv.plain = !mv.to.inTail && (!mv.fresh || !mv.to.holding())
			mv.run = f.overRun(s, kind, &mv)
			f.moves[k][kind] = mv
		}
		f.stances[k] = f.stanceIn(s)
	}
}

// stanceIn is the grammar's stance in state s, which holds nothing: text
// goes straight to its section once the output has begun, the trailing
// whitespace the family drops held back.
func (f *tagFamily) stanceIn(s tagState) stance {
	st := stance{mask: f.act[s.key()], direct: -1}
	if !s.begun {
		st.moves = true // text now may change what counts
		return st
	}
	switch s.phase {
	case phaseContent:
		st.direct = int8(phaseContent)
		if f.trimContentEnd {
			st.hold = spaceSet
		}
	case phaseReasoning:
		st.direct = int8(phaseReasoning)
		if f.trimReasoning {
			st.hold = spaceSet
		} else if f.trimNewline {
			st.hold = 1 << '\n'
		}
	}
	return st
}

// overRun is what a marker of kind, making move mv from structure s,
// does to the trailing text marker would find held (trailingSpace): the
// end of reasoning drops reasoning's; a move that keeps the structure,
// holds nothing after it and keeps no text leaves it held, to be released
// or added to by the text after it, as before the marker.
func (f *tagFamily) overRun(s tagState, kind markerKind, mv *move) runEffect {
	switch {
	case s.phase == phaseReasoning && mv.to.phase != phaseReasoning:
		return runEnds
	case kind == kindDrop && s.phase == phaseContent && f.wrap[0] != "":
		// The answer wrapper's marker (wrap) is the grammar's to read, not
		// the table's (tagGrammar.wrapper): it opens or closes the answer,
		// or is text that the held whitespace goes before.
		return runToGrammar
	case mv.key == s.key() && mv.plain && !mv.keep:
		return runStays
	}
	return runToGrammar
}

// active returns the markers that mean something in state s.
func (f *tagFamily) active(s tagState) uint64 { return f.act[s.key()] }

// step applies marker k, active in state s. keep reports whether the
// marker's text is content (a tool-call opener) rather than dropped.
func (f *tagFamily) step(s tagState, k int) (next tagState, keep bool) {
	mv := &f.moves[s.key()][f.kinds[k]]
	return mv.from(s), mv.keep
}

// from is the state mv leads to from s.
func (mv *move) from(s tagState) tagState {
	mv.apply(&s)
	return s
}

// apply makes *s the state mv leads to from it: from, in place.
func (mv *move) apply(s *tagState) {
	if mv.fresh {
		*s = mv.to
		return
	}
	s.phase, s.opened, s.seen, s.begun, s.inTool, s.inTail =
		mv.to.phase, mv.to.opened, mv.to.seen, mv.to.begun, mv.to.inTool, mv.to.inTail
	// A marker that leaves the state as it was ends the leading trim: the
	// text after a dropped wrapper (ERNIE's <response>) is kept verbatim.
	s.trimming = s.trimming && !mv.untrim
}

// rules are the markers that count in structure s, as the spec says.
func (f *tagFamily) rules(s tagState) uint64 {
	if s.inTool {
		return f.bits[kindToolClose] // a tool-call block: nothing else counts
	}
	m := f.bits[kindEnd] | f.bits[kindTail]
	if s.phase == phaseContent || !f.dropsInContent {
		m |= f.bits[kindDrop]
	}
	switch s.phase {
	case phaseReasoning:
		m |= f.bits[kindClose] | f.bits[kindTool]
		if (!s.opened || f.absorbOpens) && (!f.openAtStart || !s.begun) {
			m |= f.bits[kindOpen]
		}
		if f.sealed {
			m &= f.bits[kindOpen] | f.bits[kindClose]
		}
	case phaseContent:
		if (f.reenter || !s.seen) && (!f.openAtStart || !s.begun) {
			m |= f.bits[kindOpen]
		}
		if f.dropCloses || f.dropLeadingClose && !s.seen && !s.begun || f.dropEarlyClose && !s.seen || f.closeForecloses && !s.seen {
			m |= f.bits[kindClose]
		}
		if f.toolBlocks {
			m |= f.bits[kindTool]
		}
	}
	return m
}

// rule is the move a marker of kind makes in structure s, as the spec says.
func (f *tagFamily) rule(s tagState, kind markerKind) move {
	next := s
	next.begun = true
	mv := move{}
	switch kind {
	case kindOpen:
		next, mv.fresh = tagState{phase: phaseReasoning, opened: true, seen: true, begun: true, trimming: f.trimOpen != "", labeling: f.label != ""}, true
	case kindClose:
		switch {
		case s.phase == phaseReasoning:
			next, mv.fresh = tagState{phase: phaseContent, seen: true, begun: true, trimming: f.trimContent != "", gap: f.wrap[0] != ""}, true
		case f.dropLeadingClose && !s.seen && !s.begun:
			next.seen = true // a stray closer first: content to the end, no block opens now
		case f.closeForecloses && !s.seen:
			next.seen, mv.keep = true, true // the answer has begun: no block opens now
		}
	case kindEnd:
		if s.phase == phaseReasoning {
			next, mv.fresh = tagState{phase: phaseContent, seen: true, begun: true}, true
		}
	case kindTool:
		next, mv.fresh = tagState{phase: phaseContent, seen: s.seen || s.phase == phaseReasoning, begun: true, inTool: f.toolBlocks}, true
		mv.keep = true
	case kindToolClose:
		next.inTool = false
		mv.keep = true
	}
	next.inTail = kind == kindTail
	mv.untrim = kind == kindDrop
	mv.to = next
	return mv
}

// machine is a think-tag family's grammar on the shared driver, on the
// stack: what the prompt replay and hf's end check run. The driver's feed
// and finish are its own.
type machine struct {
	driver
	g tagGrammar
}

func (m *machine) reset(f *tagFamily, s tagState) {
	m.g.reset(f, s)
	m.driver.reset(&m.g, f.markers)
}

// tagGrammar is the think-tag grammar: where the response stands (tagState)
// and the text it holds. The family's compiled table says which markers
// count and where each leads; the holds shape the text:
//
//   - inTail: the tail after a tail marker is dropped, up to its end byte;
//   - labeling: the start of a block is held while it may be the label;
//   - trimming: trimContent (in content) or trimOpen (in a block)
//     characters are dropped from the start;
//   - trimReasoning: reasoning's trailing whitespace waits for more
//     reasoning, and is dropped when the block ends; trimNewline: so does
//     one trailing newline;
//   - trimContentEnd: content's trailing whitespace waits for more
//     content, and is dropped when the output ends.
//
// Text that meets none of them, once the output has begun, goes straight
// to its section: the driver sends it there itself (stance.direct).
type tagGrammar struct {
	fam   *tagFamily
	state tagState
	ws    trailingSpace // trailing reasoning whitespace held back (trimReasoning)
	cws   trailingSpace // trailing content whitespace held back (trimContentEnd)
	lab   heldText      // the start of a block held while it may be the label (label)
	gap   heldText      // the newlines after a closer, held while a wrapper may follow (wrap)
	lead  heldText      // the whitespace that starts the output, held while the opener may follow (dropLeadSpace)
	rules idRules       // the response's ID rules, shared by copies; nil where no parser asks
	key   uint8         // state's structure, as move last left it
}

func (g *tagGrammar) reset(f *tagFamily, s tagState) {
	g.fam, g.state = f, s
	g.ws.drop()
	g.cws.drop()
	g.lab.reset()
	g.gap.reset()
	g.lead.reset()
}

func (g *tagGrammar) active() stance {
	s := &g.state
	// Text held at the start or end of a section moves the stance: the
	// next text releases it. In a tail, once the output has begun, the
	// shell hands the grammar a delta itself (directHeld): one of the
	// tail's characters alone is dropped without the driver (takeHeld).
	if s.holding() || len(g.ws.ws) > 0 || len(g.cws.ws) > 0 {
		st := stance{mask: g.fam.act[s.key()], moves: true, direct: -1}
		if s.inTail && s.begun && !s.leading {
			st.direct = directHeld
		}
		return st
	}
	return g.fam.stances[s.key()]
}

// takeHeld takes s, text that holds no marker, where it is the tail's
// characters alone: the tail goes on, dropped, and the grammar stays where
// it is. It refuses any other text, which the grammar must see. Its stance
// is directHeld only in a tail (see active).
func (g *tagGrammar) takeHeld(s string, _ int) bool {
	return g.state.inTail && g.fam.cutTail.span(s) == len(s)
}

func (g *tagGrammar) text(s string, at int, out emitter) {
	st := &g.state
	if g.fam.dropLeadSpace && (st.leading || !st.begun && st.phase == phaseReasoning && !st.opened) {
		if strings.TrimLeft(s, spaces) == "" { // still only whitespace: the opener may follow
			st.leading, st.begun = true, true
			g.lead.add(s, at)
			return
		}
		g.releaseLead(out)
	}
	if !st.begun && st.phase == phaseContent && !st.inTool && g.fam.labelOpens {
		st.labeling = true // the output may begin with the bare label
	}
	st.begun = true // the output has begun, which may change what counts
	g.emit(s, at, out)
}

// releaseLead ends the hold of the output's leading whitespace: no opener
// came first, so it is text where it stands.
func (g *tagGrammar) releaseLead(out emitter) {
	if !g.state.leading {
		return
	}
	g.state.leading = false
	for _, p := range g.lead.ps {
		g.emit(p.s, p.at, out)
	}
	g.lead.reset()
}

func (g *tagGrammar) marker(k, at int, out emitter) {
	s := &g.state
	kind := g.fam.kinds[k]
	if s.leading || s.labeling {
		g.markerHeld(k, kind, at, out)
		return
	}
	mv := &g.fam.moves[s.key()][kind]
	if mv.to.phase != s.phase {
		g.ws.drop() // reasoning ended: its trailing whitespace goes
	}
	if mv.keep {
		g.cws.release(phaseContent, out) // content follows the held whitespace
		out(phaseContent, g.fam.markers[k], at)
	}
	mv.apply(s)
	if kind == kindDrop && s.phase == phaseContent && g.fam.wrap[0] != "" {
		g.wrapper(g.fam.markers[k], at, out)
	}
}

// markerHeld is marker where the output's leading whitespace or a possible
// label is held.
func (g *tagGrammar) markerHeld(k int, kind markerKind, at int, out emitter) {
	s := &g.state
	if s.leading {
		if kind == kindOpen { // the opener: the whitespace before it goes
			s.leading = false
			g.lead.reset()
		} else {
			g.releaseLead(out)
		}
	}
	if s.labeling && s.phase == phaseContent {
		g.releaseLabel(out) // a marker before the whole label: the start was content
	}
	mv := &g.fam.moves[s.key()][kind]
	next := mv.from(*s)
	if s.labeling && (next.phase != s.phase || next.labeling) {
		g.settleLabel(out) // the block ends, or another begins
	}
	if next.phase != s.phase {
		g.ws.drop() // reasoning ended: its trailing whitespace goes
	}
	if mv.keep {
		g.cws.release(phaseContent, out) // content follows the held whitespace
		out(phaseContent, g.fam.markers[k], at)
	}
	*s = next
	if kind == kindDrop && s.phase == phaseContent && g.fam.wrap[0] != "" {
		g.wrapper(g.fam.markers[k], at, out)
	}
}

// move is a tableMover's: marker k, at offset at, where the state holds
// nothing, moves the state by the table, as marker does there.
func (g *tagGrammar) move(k, at int, x *gather, known bool) *stance {
	f, s := g.fam, &g.state
	if !known {
		g.key = s.key()
	}
	kind := f.kinds[k]
	mv := &f.moves[g.key][kind]
	if mv.keep {
		x.own(gatherSection(phaseContent), at, len(f.markers[k]))
	}
	mv.apply(s)
	if kind == kindDrop && s.phase == phaseContent && f.wrap[0] != "" {
		g.wrapper(f.markers[k], at, x.emit)
		return nil
	}
	if !mv.plain {
		return nil
	}
	g.key = mv.key
	return &f.stances[mv.key]
}

// overRun is a tableMover's: what marker k does to the run the driver
// holds, by the table; where the run stays, the move it makes is the
// state's apply alone (see tagFamily.overRun).
func (g *tagGrammar) overRun(k int, known bool) runEffect {
	if !known {
		g.key = g.state.key()
	}
	mv := &g.fam.moves[g.key][g.fam.kinds[k]]
	if mv.run == runStays {
		mv.apply(&g.state)
	}
	return mv.run
}

// handRun is a tableMover's: where the state holds nothing but the
// trailing whitespace of its section (ws in reasoning, cws in content),
// that whitespace goes to run, and the stance is the state's, direct.
func (g *tagGrammar) handRun(run *[]piece) *stance {
	s := &g.state
	if s.holding() {
		return nil
	}
	g.key = s.key()
	st := &g.fam.stances[g.key]
	own, other := &g.cws, &g.ws
	if s.phase == phaseReasoning {
		own, other = &g.ws, &g.cws
	}
	if st.direct < 0 || st.hold == 0 || len(own.ws) == 0 || len(other.ws) > 0 {
		return nil
	}
	*run = append(*run, own.ws...)
	own.drop()
	return st
}

// wrapper takes mk, a marker of the answer wrapper (wrap) found in content:
// it opens or closes the answer block, or is text.
func (g *tagGrammar) wrapper(mk string, at int, out emitter) {
	s := &g.state
	switch open := mk == g.fam.wrap[0]; {
	case open && !s.answer:
		g.gap.reset() // the newlines before the wrapper go
		s.gap, s.answer, s.wrapped = false, true, false
	case !open && s.answer:
		s.answer, s.wrapped = false, true
	default:
		g.emit(mk, at, out)
	}
}

func (g *tagGrammar) end(out emitter) {
	g.releaseLead(out)
	g.settleLabel(out)
	g.ws.drop()
	g.gap.release(phaseContent, out) // no wrapper came: the newlines are content
	g.cws.drop()
}

func (g *tagGrammar) ended() bool { return g.state.phase == phaseContent }

// epoch is constant: the content IDs are those after the last block's
// opener, which the ID rules find (tagIDs.contentIDs).
func (g *tagGrammar) epoch() int { return 0 }

// idRules are the response's (tagIDs, or hf's): vLLM's rules, not a walk.
func (g *tagGrammar) idRules(*shell) idRules { return g.rules }

func (g *tagGrammar) clone() grammar {
	c := new(tagGrammar)
	g.cloneInto(c)
	return c
}

func (g *tagGrammar) cloneInto(dst grammar) {
	c := dst.(*tagGrammar)
	c.fam, c.state, c.rules = g.fam, g.state, g.rules
	g.ws.cloneInto(&c.ws)
	g.cws.cloneInto(&c.cws)
	g.lab.cloneInto(&c.lab)
	g.gap.cloneInto(&c.gap)
	g.lead.cloneInto(&c.lead)
}

// emit sends s to the current section, applying the family's rules: the
// tail of a tail marker is dropped; newlines after a closer wait for a
// wrapper, one newline after a wrapper goes (wrap); leading trimContent
// characters of content (one with trimOnce), and trimOpen characters of a
// block, are dropped; trailing whitespace of reasoning (a trailing newline
// with trimNewline) waits until more reasoning comes, and is dropped when
// the block ends, as, with trimContentEnd, content's does until more
// content comes (and is dropped when the output ends).
func (g *tagGrammar) emit(s string, at int, out emitter) {
	if g.state.inTail {
		t := s[g.fam.cutTail.span(s):] // the tail's chars are ASCII
		if t != "" {
			g.state.inTail = false
			if t[0] == g.fam.tail.end {
				t = t[1:]
			}
		}
		at, s = at+len(s)-len(t), t
		if s == "" {
			return
		}
	}
	if g.state.labeling {
		if s, at = g.label(s, at, out); s == "" {
			return
		}
	}
	if g.state.gap { // right after a closer: newlines wait for a wrapper
		if strings.Trim(s, "\n") == "" {
			g.gap.add(s, at)
			return
		}
		g.state.gap = false
		g.gap.release(phaseContent, out)
	}
	if g.state.wrapped { // one newline after the wrapper goes
		g.state.wrapped = false
		if s[0] == '\n' {
			if s, at = s[1:], at+1; s == "" {
				return
			}
		}
	}
	if g.state.trimming {
		cut := &g.fam.cutContent
		if g.state.phase == phaseReasoning {
			cut = &g.fam.cutOpen
		}
		t := cut.trimLeft(s)
		if g.fam.trimOnce && g.state.phase == phaseContent {
			g.state.trimming = false // one character at most, the first
			t = s
			if strings.IndexByte(cut.chars, s[0]) >= 0 {
				t = s[1:]
			}
		}
		if t == "" {
			return
		}
		g.state.trimming = false
		at, s = at+len(s)-len(t), t
	}
	switch {
	case g.state.phase == phaseReasoning && g.fam.trimReasoning:
		g.ws.reasoning(s, at, out)
	case g.state.phase == phaseReasoning && g.fam.trimNewline:
		g.ws.newline(s, at, out)
	case g.state.phase == phaseContent && g.fam.trimContentEnd:
		g.cws.send(phaseContent, s, at, out)
	default:
		out(g.state.phase, s, at)
	}
}

// label matches s, text at offset at at the start of a block (or, with
// labelOpens, of the output), against the family's label. It returns what
// follows the label once the label is complete, nothing while s may still
// be part of it, and all of s (after the text held so far) when the block
// does not begin with it. A whole label in content opens a block, as the
// opener does.
func (g *tagGrammar) label(s string, at int, out emitter) (string, int) {
	want := g.fam.label[g.lab.n:]
	n := 0
	for n < len(s) && n < len(want) && s[n] == want[n] {
		n++
	}
	switch {
	case n == len(want): // the whole label: dropped
		g.lab.reset()
		if g.state.phase == phaseContent {
			g.state = g.fam.moves[g.state.key()][kindOpen].to
		}
		g.state.labeling = false
		return s[n:], at + n
	case n == len(s): // a prefix of the label so far: held
		g.lab.add(s, at)
		return "", at
	}
	g.releaseLabel(out)
	return s, at
}

// settleLabel ends the label's hold when its block or the output ends: the
// label short of its trailing whitespace is dropped, other text is
// reasoning (content, at the output's start).
func (g *tagGrammar) settleLabel(out emitter) {
	if !g.state.labeling {
		return
	}
	if g.lab.n == len(strings.TrimRight(g.fam.label, spaces)) {
		g.lab.reset()
		g.state.labeling = false
		return
	}
	g.releaseLabel(out)
}

// releaseLabel emits the text held as a possible label: the block turned out
// not to begin with it.
func (g *tagGrammar) releaseLabel(out emitter) {
	g.state.labeling = false
	for _, p := range g.lab.ps {
		g.emit(p.s, p.at, out)
	}
	g.lab.reset()
}

// newParser builds a parser of family f. With the thinking switch off (and
// neither the prompt nor WithForceReasoning opening reasoning) a family whose
// off mode is offIdentity has no reasoning at all, and the identity parser
// is returned.
func (f *tagFamily) newParser(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return f.build(tok, cfg, nil)
}

// build is newParser, with the ID rules that rules makes of the family's
// (tagIDs) in their place when it is not nil (hf's).
func (f *tagFamily) build(tok tokenizer.Tokenizer, cfg reasoning.Config, rules func(*tagIDs) idRules) (reasoning.Parser, error) {
	s, delims, err := prepareShell(&f.shell, tok, cfg)
	if err != nil {
		return nil, err
	}
	r := &tagIDs{s: s, f: f, seqs: make([][]int, len(delims))}
	for i, d := range delims {
		r.seqs[i] = d.IDs
		if tok != nil && (!d.Single() || f.textOnly) {
			r.textIDs = true
		}
	}
	if tok != nil && (f.trimReasoning || f.trimNewline || f.trimContentEnd || f.trimContent != "" || f.trimOpen != "" || f.label != "" || len(f.tails) > 0 || f.wrap[0] != "" || f.dropLeadSpace) {
		r.textIDs = true // tokens of dropped whitespace or tails belong to no section
	}
	if tok != nil && f.toolBlocks {
		r.textIDs = true // the end check follows tool-call blocks, which the text scan does
	}
	for _, b := range f.boundaries {
		// Boundaries only narrow the end check; a vocabulary without them is fine.
		if d, err := tokenizer.Resolve(tok, b); err == nil && d.Single() {
			r.bounds = append(r.bounds, d.IDs)
		}
	}
	for _, ids := range slices.Concat(r.seqs, r.bounds) {
		if len(ids) > 0 {
			r.firsts |= 1 << (uint(ids[0]) & 63)
		}
	}
	start, ok := f.startState(tok, cfg, s.single)
	if !ok {
		return newIdentity(), nil
	}
	if f.trimStart && start.phase == phaseReasoning {
		start.trimming = true // the opener's whitespace, in the prompt or not, goes
	}
	if f.trimContentStart && start.phase == phaseContent && !start.inTool {
		start.trimming = true // the role line's newline, written by the model, goes
	}
	r.start = start
	if f.boundaryEnds != nil {
		r.boundaryEnded = f.boundaryEnds(cfg)
	}
	g := r.grammar(start)
	if rules != nil {
		g.rules = rules(r)
	}
	return s.start(g), nil
}

// startState decides where a response starts; ok is false when it has no
// reasoning at all (the thinking switch is off), in which case the parser is
// the identity. In order, the first that applies wins:
//
//  1. WithForceReasoning(true): reasoning.
//  2. A prompt whose last deciding marker is an opener (see fromPrompt),
//     unless WithForceReasoning is false: reasoning.
//  3. The thinking switch, set or by default, off: no reasoning.
//  4. WithForceReasoning(false): content, where an opening marker may still
//     open the one block (SGLang's and Dynamo's force_reasoning off).
//  5. A prompt whose last deciding marker is a closer, an end or a tool-call
//     opener: content, the block had; an opening marker opens another only
//     in a family that re-enters.
//  6. The family's default.
//
// A family with responseIn reads the prompt by running the machine over its
// part of it instead, in steps 2 and 5: the state that leaves is where the
// response starts.
//
// So thinking off wins over a prompt that agrees with it: the usual
// thinking-disabled prefill does not turn the identity into a parser that
// drops stray closers.
func (f *tagFamily) startState(tok tokenizer.Tokenizer, cfg reasoning.Config, single []int) (s tagState, ok bool) {
	force := cfg.ForceReasoning
	if force != nil && *force {
		return tagState{phase: phaseReasoning, seen: true, labeling: f.label != ""}, true
	}
	var ps tagState // where the prompt leaves the response
	var fromPrompt bool
	if f.responseIn != nil {
		ps, fromPrompt = f.replay(tok, cfg)
	} else {
		ps, fromPrompt = f.fromPrompt(tok, cfg, single)
	}
	if force == nil && fromPrompt && ps.phase == phaseReasoning {
		return ps, true
	}
	if f.thinking != nil && !f.thinking(cfg) {
		switch f.off {
		case offIdentity:
			return tagState{}, false
		case offContent:
			return tagState{phase: phaseContent}, true
		default:
			return tagState{phase: phaseContent, seen: true}, true
		}
	}
	switch {
	case force != nil || !fromPrompt && f.startContent:
		return tagState{phase: phaseContent}, true
	case fromPrompt:
		return ps, true
	}
	return f.defaultStart(), true
}

// defaultStart is where a response starts without prompt, switch or force.
func (f *tagFamily) defaultStart() tagState {
	if f.startContent {
		return tagState{phase: phaseContent}
	}
	return tagState{phase: phaseReasoning, seen: true, opened: f.startOpened, labeling: f.label != ""}
}

// replay runs the machine over the part of the prompt that belongs to the
// response (responseIn), from the family's default start, and returns the
// state it leaves; ok is false without a prompt. Prompt IDs, when a
// tokenizer can read them, are decoded to give the prompt's text.
func (f *tagFamily) replay(tok tokenizer.Tokenizer, cfg reasoning.Config) (s tagState, ok bool) {
	text := cfg.PromptText
	if tok != nil && len(cfg.PromptIDs) > 0 {
		text = tok.Decode(cfg.PromptIDs)
	}
	if text == "" {
		return tagState{}, false
	}
	var m machine
	m.reset(f, f.defaultStart())
	m.feed(f.responseIn(text), acceptAll, discard)
	s = m.g.state
	s.begun = false // the output has not begun
	return s, true
}

// fromPrompt applies spec policy 4: the prompt's last marker that says
// where reasoning stands (an opener, a closer, an end or a tool-call
// opener), wherever it is, says where the response starts, unless a turn
// boundary follows it (the ID-level end check reads the prompt the same
// way). The machine runs over the prompt from that marker and the response
// starts where that leaves it, with nothing trimmed at its start and a
// leading opener still the block's own; ok is false when no such marker
// decides. Prompt IDs, when a tokenizer can read them, beat prompt text: a
// single-token marker must be its token there, not the same characters
// typed as ordinary tokens.
func (f *tagFamily) fromPrompt(tok tokenizer.Tokenizer, cfg reasoning.Config, single []int) (s tagState, ok bool) {
	deciders := f.bits[kindOpen] | f.bits[kindClose] | f.bits[kindEnd] | f.bits[kindTool]
	text, k, accept := promptFrom(cfg, tok, f.markers, single, deciders, slices.Concat(f.boundaries, chatTurns))
	if k < 0 { // none, or a turn began after the last
		return tagState{}, false
	}
	// Where the marker counts: an opener in content before any block, the
	// others in an opened block.
	s = tagState{phase: phaseReasoning, opened: true, seen: true, begun: true}
	if f.kinds[k] == kindOpen {
		s = tagState{phase: phaseContent}
	}
	g := &tagGrammar{fam: f, state: s}
	runPrompt(g, f.markers, text, accept)
	s = g.state
	s.begun, s.trimming, s.opened, s.gap, s.wrapped, s.leading = false, false, false, false, false, false
	if s.phase == phaseReasoning {
		s.labeling = f.label != "" && strings.TrimSpace(text[len(f.markers[k]):]) == ""
	}
	return s, true
}

// entry describes the family for the registry-wide tests.
func (f *tagFamily) entry() catalog.Entry {
	return catalog.Entry{Markers: f.markers, Opens: f.spec.Open, Closes: f.spec.Close, Tools: f.tools, SwitchKeys: f.spec.Thinking.Keys,
		Boundaries: f.boundaries, StripsSpace: f.trimReasoning || f.trimNewline || f.trimContentEnd || f.trimContent != "" || f.trimOpen != "" || f.wrap[0] != "" || f.dropLeadSpace,
		Tails: f.tails, TailChars: f.tail.chars, TailEnd: f.tail.end, Headers: f.label != "", ToolBlocks: f.toolBlockPairs(), MarkersAreText: f.textOnly}
}

// toolBlockPairs returns the family's tool-call blocks (toolBlocks): each
// tool-call opener with its first closer.
func (f *tagFamily) toolBlockPairs() [][2]string {
	if !f.toolBlocks || len(f.toolCloses) == 0 {
		return nil
	}
	var pairs [][2]string
	for _, t := range f.tools {
		pairs = append(pairs, [2]string{t, f.toolCloses[0]})
	}
	return pairs
}
