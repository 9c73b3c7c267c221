package parsers

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/marker"
	"github.com/reasoning-go/reasoning/internal/work"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// This file holds the machine layer every family shares: one driver that
// runs a grammar over text fed piece by piece (the think-tag machine's, the
// channel families' — Harmony, Muse, Inkling, Hunyuan A13B — and the
// hoisting families' of hoist.go), and the one Parser shell around it. A
// family file keeps only its grammar: its markers, its phases and its
// transitions.
//
// The scanner (internal/marker) is the lexer. The driver owns it, the
// offsets and spec policy 5 (IDs beat text); a grammar owns where it
// stands. The shell owns the rest: Extract, streaming and Finish over the
// driver, and what the ID methods share (the prompt skip, one token walk,
// one end-check memo, one content-ID rule, the end IDs). What a grammar
// adds comes as optional interfaces, the way database/sql/driver does it:
// segments (segmented), turns (turnTaker), and ID rules of its own
// (idRuler).

// A grammar is one family's state machine over what the scanner finds. It
// sends text to out, each piece with its section and its offset in the
// output. The driver calls it in the order of the text, and asks active
// after every marker (and after text, while it moves).
type grammar interface {
	// active returns where the grammar stands, for the driver: the
	// markers that count, whether text may change that, and where plain
	// text goes (see stance).
	active() stance
	// text takes s, text at offset at that holds no active marker.
	text(s string, at int, out emitter)
	// marker takes marker k, found at offset at, which counts here.
	marker(k, at int, out emitter)
	// end takes the end of the output: held text goes where it belongs.
	end(out emitter)
	// ended reports whether reasoning is over, as far as the output has
	// gone. It changes only when a marker counts or a turn begins (see
	// turnTaker), so that a delta of IDs with no marker in it keeps the
	// answer (see endCheck).
	ended() bool
	// epoch counts the reasoning spans (or turns) begun so far: the
	// content IDs are those after the last one began.
	epoch() int
	// clone returns a copy of the grammar that shares no memory with it.
	clone() grammar
	// cloneInto makes dst, a grammar of the same family that is no longer
	// used, such a copy, in dst's own memory: Extract keeps one grammar
	// from output to output. dst keeps nothing of what it held.
	cloneInto(dst grammar)
}

// A stance is what a grammar tells the driver after each call.
type stance struct {
	// mask holds the markers that count where the grammar stands: bit k
	// for marker k of the family's list. A marker found that does not
	// count (any more) is text.
	mask uint64
	// moves reports that the stance may change with the next text, not
	// only with a marker (Hunyuan: a leading <think> counts only before
	// any text); the driver then asks again after text.
	moves bool
	// direct is the section text goes to as it comes, with nothing held
	// or dropped, so that the driver sends it there itself; -1 when the
	// grammar must see the text, or directSegment, or directHeld. Where
	// moves, it is -1 or directHeld: text the grammar takes as such
	// (heldTaker) leaves the stance as it is.
	direct int8
	// hold, with direct, is what the grammar holds back at the end of text
	// that goes direct, as a set of bytes (bit c for byte c, below 64):
	// the trailing run of those bytes, until text with another byte comes
	// (a family that trims reasoning's trailing whitespace holds it); for
	// the newline alone (newlineHold), one trailing newline, until any
	// text comes (Hunyuan's may be its closing marker's). A stream's driver
	// holds that text itself while the stance stays direct (see driver.run
	// and driver.runs), so that the grammar, which would move its stance
	// over it, sees it only when it must. 0: none.
	hold uint64
}

// directSegment is a stance's direct where text goes as it comes to the
// open segment's text (segmentBuilder.add), with nothing held or dropped:
// the grammar sees it, as for -1, but the shell may add a delta there
// itself, as it sends one to the section a direct >= 0 names.
const directSegment = -2

// directHeld is a stance's direct where the grammar holds text back as it
// comes (a header waiting for its end), or drops it (a citation's tail),
// emitting nothing: the grammar sees it, as for -1, but the shell may hand
// it a delta itself (heldTaker).
const directHeld = -3

// heldTaker is an optional interface of a grammar whose stance may be
// directHeld.
type heldTaker interface {
	// takeHeld takes s, text at offset at that holds no marker, and reports
	// whether the grammar only held it back (or dropped it) and stands
	// where it stood; when it would do more with it
	// (s ends what it holds), it takes none of it and reports false. Where
	// the spec says heldBare, s may hold one, which it refuses.
	takeHeld(s string, at int) bool
}

// holds reports whether c is in set, a stance's hold. It tests c's bit
// (mod 64) first: for an empty set, or a byte not in it, the outcome is
// the same for every byte, where a test of c < 64 first would be as hard
// to predict as the byte.
func holds(set uint64, c byte) bool { return set&(1<<(c&63)) != 0 && c < 64 }

// spaceSet is spaces as a stance's hold.
const spaceSet = 1<<' ' | 1<<'\t' | 1<<'\r' | 1<<'\n'

// newlineHold is one trailing newline as a stance's hold.
const newlineHold = 1 << '\n'

// heldTail returns how many of the bytes s ends in a grammar whose stance
// holds hold would hold back.
func heldTail(hold uint64, s string) int {
	n := len(s)
	if hold == newlineHold {
		if n > 0 && s[n-1] == '\n' {
			return 1
		}
		return 0
	}
	for n > 0 && holds(hold, s[n-1]) {
		n--
	}
	return len(s) - n
}

// tableMover is an optional interface of a grammar that takes a marker
// found where it holds nothing by a table of its own, cheaper than marker
// and active: Extract feeds it with driver.feedWhole.
type tableMover interface {
	// move takes marker k, found at offset at where the grammar holds
	// nothing (its stance is direct, and a run the driver holds, if any,
	// stays as it is: see overRun), the marker's text to x if it stays;
	// known says that the grammar is where its last move left it. It
	// returns the stance after it, which the driver only reads, or nil
	// when the driver must ask for it (sync).
	move(k, at int, x *gather, known bool) *stance
	// overRun says what marker k, found where the grammar's stance is
	// direct and the driver holds a run (stance.hold) the grammar has not
	// seen, would do with the run were the grammar holding it; where the
	// run stays (runStays), it makes the marker's move, as move would
	// (such a move has nothing to add to x). known is as for move.
	overRun(k int, known bool) runEffect
	// handRun hands the driver what the grammar holds back where that is
	// all it holds and its stance is otherwise direct with a hold (the
	// trailing whitespace of the section it is in): it adds that text to
	// *run, holds it no more and returns the stance; nil where it holds
	// anything else or nothing.
	handRun(run *[]piece) *stance
}

// A runEffect is what a marker does to the run a driver holds (see
// tableMover.overRun).
type runEffect uint8

const (
	runToGrammar runEffect = iota // something else: the grammar takes the run before the marker
	runStays                      // the stance stays as it was: the run stays held, for the text after the marker
	runEnds                       // the run's section ends: it is dropped
)

// segmented is an optional interface of a grammar that has segments besides
// reasoning and content, gathered in the builder it returns: its parser is
// a reasoning.Segmenter. A parser whose grammar does not implement it is
// not one.
type segmented interface {
	segments() *segmentBuilder
}

// turnTaker is an optional interface of a grammar whose spec names a turn
// boundary (machineSpec.turn, the end of the user's turn): the ID walks end
// the output at that token, and newTurn sets where the grammar stands after
// it, in a new epoch. It is required when the spec names one.
type turnTaker interface {
	newTurn()
}

// driver runs a grammar over text fed piece by piece. It is a textMachine.
type driver struct {
	g       grammar
	markers []string // the grammar's markers, by index
	sc      marker.Scanner
	pos     int    // offset of the next byte the scanner returns
	fed     int    // bytes fed: the offset of the next delta's first byte
	moves   bool   // the grammar's stance may change with the next text
	direct  int8   // the section plain text goes to, or -1 (stance.direct)
	hold    uint64 // what the grammar holds back at the end of such text (stance.hold)
	mask    uint64 // the markers that count (stance.mask)
	// fast is direct while the driver holds no run, else -1; a shell sets
	// it to -1 too while its deltas may not go direct for reasons of its
	// own (see shell.ExtractStreaming).
	fast int8
	// run is the text the grammar would hold back at the end of what went
	// direct (stance.hold), which the driver holds instead while the
	// stance stays direct, with its offsets: the grammar has not seen it.
	// Text after it releases it to the section as the grammar would, or
	// adds to it; the grammar is handed it (settle) before it sees
	// anything else, so that it ends up as it would have. Only a driver
	// that runs holds one (that of a stream, whose next delta may then go
	// direct), and Extract's in feedWhole, which holds it across markers
	// that leave it as it is; where the ID walks feed text, the grammar
	// takes it at once.
	run  []piece
	runs bool
	// wide says that the scanner watches every marker, not only those that
	// count (mask), which the driver then tells apart itself (feedWhole,
	// for markers that wideMarkers allows): use leaves the scanner's set
	// as it is, but where none counts any more.
	wide bool
	// extra holds markers the scanner watches although they do not count:
	// those whose token has arrived and whose text has not been seen (IDs
	// beat text), so that the text uses the ID up where it does not count,
	// and a look-alike typed later finds none pending.
	extra uint64
}

// reset makes d run g over new text, from offset 0.
func (d *driver) reset(g grammar, markers []string) {
	d.g, d.markers, d.pos, d.fed, d.run, d.wide = g, markers, 0, 0, d.run[:0], false
	d.sc.Reset(markers)
	d.sync()
}

// copyTo makes dst, a driver no longer used, a copy of d that shares no
// state with it but its scanner's slab, which only grows: fed the same
// text, it does what d would.
func (d *driver) copyTo(dst *driver) {
	g, run := dst.g, dst.run[:0]
	*dst = *d
	d.sc.CopyTo(&dst.sc)
	dst.run = append(run, d.run...)
	if g == nil {
		dst.g = d.g.clone()
	} else {
		d.g.cloneInto(g)
		dst.g = g
	}
}

// feed runs text through the grammar. accept says whether a marker found at
// offset at counts (IDs beat text); out receives the text.
func (d *driver) feed(text string, accept func(k, at int) bool, out emitter) {
	d.sc.Feed(text)
	d.fed += len(text)
	for {
		held, before, k := d.sc.Next()
		if held != "" { // rare: most deltas bring only text of their own
			d.text(held, out)
		}
		if before != "" {
			d.text(before, out)
		}
		if k < 0 {
			return
		}
		d.found(k, accept, out)
	}
}

// found takes marker k, which the scanner found at d.pos: the grammar's
// marker where it counts, else text. A nil accept accepts every marker.
func (d *driver) found(k int, accept func(k, at int) bool, out emitter) {
	mk := d.markers[k]
	at := d.pos
	// A marker watched only for its pending ID (extra) is text, and uses
	// the ID up. IDs may deny a marker that counts: then it is text too.
	if d.mask&(1<<k) == 0 {
		if accept != nil {
			accept(k, at)
		}
		d.text(mk, out)
		return
	}
	d.pos += len(mk)
	if len(d.run) > 0 {
		d.settle(out)
	}
	if accept != nil && !accept(k, at) {
		d.g.text(mk, at, out)
	} else {
		d.g.marker(k, at, out)
	}
	d.use(d.g.active()) // d.sync(), inlined
}

// finish ends the text: what the scanner holds, then what the grammar does.
func (d *driver) finish(out emitter) {
	if held := d.sc.Flush(); held != "" {
		d.text(held, out)
	}
	if len(d.run) > 0 {
		d.settle(out)
	}
	d.g.end(out) // the scanner is spent: nothing to sync
}

// text sends s, the next bytes of the output (not empty), to its section
// when the grammar says it goes there as it comes (see send), else to the
// grammar, and syncs the scanner after it when the grammar moves on text.
func (d *driver) text(s string, out emitter) {
	at := d.pos
	d.pos += len(s)
	if d.direct >= 0 {
		if d.fast >= 0 && !holds(d.hold, s[len(s)-1]) { // the common piece
			out(phase(d.fast), s, at)
			return
		}
		if d.runs {
			d.send(s, at, out)
			return
		}
		d.g.text(s, at, out)
		d.syncText() // the grammar holds some of it now
		return
	}
	d.g.text(s, at, out)
	if d.moves {
		d.syncText()
	}
}

// syncText is sync after the grammar's text. Text may take markers out of
// the active set, never add one: the scanner has looked for the next
// marker beyond the text with the set as it was (all of Extract's text
// before a marker is one piece), so a marker that text made count would be
// found in a stream cut after that text and missed in one cut elsewhere.
// Builds that count work (reasoning_work) check it.
func (d *driver) syncText() {
	was := d.mask
	d.sync()
	if work.Counting && d.mask&^was != 0 {
		panic(fmt.Sprintf("parsers: %T made markers %#x count on text", d.g, d.mask&^was))
	}
}

// send sends s, text at offset at (not empty), to the section text goes to
// as it comes (stance.direct), as the grammar would: what it would hold
// back at the end of s (stance.hold) goes to the run, and the run goes
// first when s releases it.
func (d *driver) send(s string, at int, out emitter) {
	ph := phase(d.direct)
	n := heldTail(d.hold, s)
	if n == len(s) && d.hold != newlineHold { // more of the run
		d.hold1(s, at)
		return
	}
	for _, p := range d.run {
		out(ph, p.s, p.at)
	}
	if n < len(s) {
		out(ph, s[:len(s)-n], at)
	}
	d.holdOnly(s[len(s)-n:], at+len(s)-n)
}

// hold1 adds s, at offset at, to the run.
func (d *driver) hold1(s string, at int) {
	d.run = append(d.run, piece{s, at})
	d.fast = -1
}

// holdOnly makes s, at offset at, the run, in place of the one released
// ("": none).
func (d *driver) holdOnly(s string, at int) {
	if s == "" {
		d.run, d.fast = d.run[:0], d.direct
		return
	}
	d.run, d.fast = append(d.run[:0], piece{s, at}), -1
}

// quiet is send for a delta that goes direct whole (the shell's fast path)
// with a run held or held bytes at its end, or empty: it advances the
// offsets and returns the delta's message, the run first in its text,
// joined in slab, when the delta releases it. The common delta releases a
// run of one piece, or holds the end of its own text (a lone newline where
// one is held, as step3p5's newline tokens often are, does both); the rest,
// rare, are quietRare's, out of line, so that this one's frame stays small.
func (d *driver) quiet(s string, slab *marker.Slab) reasoning.Message {
	n := heldTail(d.hold, s)
	if n == len(s) && (d.hold != newlineHold || s == "") || len(d.run) > 1 {
		return d.quietRare(s, n, slab)
	}
	at := d.pos
	d.pos += len(s)
	d.fed += len(s)
	text := s[:len(s)-n] // empty for a lone newline where one is held
	if len(d.run) == 0 { // held bytes at its end: the run
		d.holdOnly(s[len(s)-n:], at+len(s)-n)
		return d.directMessage(text)
	}
	run := d.run[0].s // the common run: one delta's trailing whitespace
	d.holdOnly(s[len(s)-n:], at+len(s)-n)
	return d.directMessage(slab.Append(run, text)) // the join last, so that little lives across its call
}

// quietRare is quiet for a delta s, n of whose bytes the grammar would
// hold, that is empty, all such bytes (more of the run, but for a lone
// newline where one is held), or that ends a run of several pieces.
//
//go:noinline
func (d *driver) quietRare(s string, n int, slab *marker.Slab) reasoning.Message {
	switch {
	case s == "":
		return reasoning.Message{}
	case n == len(s) && d.hold != newlineHold: // more of the run
		d.hold1(s, d.pos)
		d.pos += len(s)
		d.fed += len(s)
		return reasoning.Message{}
	}
	return d.quietAfter("", s, slab)
}

// quietAfter is quiet for a delta s that goes direct whole after h, text
// the scanner held back (see marker.Scanner.Release) that ends in no byte
// the grammar would hold, or after nothing (h == "") where quiet's delta
// ends a run of several pieces: the run, h and s go out in that order,
// joined in slab, less what s ends in that the grammar would hold, which
// becomes the run.
func (d *driver) quietAfter(h, s string, slab *marker.Slab) reasoning.Message {
	at := d.pos + len(h)
	d.pos = at + len(s)
	d.fed += len(s)
	n := heldTail(d.hold, s)
	size := len(h) + len(s) - n
	for _, p := range d.run {
		size += len(p.s)
	}
	start := slab.Begin(size)
	for _, p := range d.run {
		slab.WriteString(p.s)
	}
	slab.WriteString(h)
	slab.WriteString(s[:len(s)-n])
	text := slab.End(start)
	d.holdOnly(s[len(s)-n:], at+len(s)-n)
	return d.directMessage(text)
}

// directMessage is the message of text that goes direct: reasoning or
// content, as the driver's stance says.
func (d *driver) directMessage(text string) reasoning.Message {
	if d.direct == int8(phaseReasoning) {
		return reasoning.Message{Reasoning: text}
	}
	return reasoning.Message{Content: text}
}

// settle hands the grammar the run the driver holds (not empty), as the
// text it would have had, before the grammar sees anything else: a marker
// or the end. The grammar holds it then. The stance may move with it: the
// caller syncs after the grammar's next call (the marker), if it goes on.
func (d *driver) settle(out emitter) {
	for _, p := range d.run {
		d.g.text(p.s, p.at, out)
	}
	d.run = d.run[:0]
}

// feedWhole is feed(output, acceptAll, x.emit) for a grammar that is t:
// text that goes straight to its section goes to x as output's own bytes,
// and a marker found where the grammar holds nothing is t's move, with
// none of the driver's calls per marker. What the grammar would hold back
// at the end of such text (stance.hold) the driver holds instead (run), as
// a stream's does, while the markers after it leave it as it is (t's
// overRun), so that text between markers dropped at its ends (Apriel's
// terminators after an answer's last newline) goes direct too; the grammar
// takes the run before anything else it sees, and at the end, before
// finish. Extract's driver watches no extra markers (IDs beat text only in
// a stream) and is not one that runs (d.runs); builds that count work
// check it.
//
// With wide, which the markers must allow (wideMarkers), the scanner
// watches every marker (driver.wide), so that a grammar that moves
// between two sets at every marker does not change the scanner's at each.
// A marker found that does not count is text, as one is where the text
// before it moved the stance, and ends the wide watch: the rest is
// searched for the markers that count alone, which spares a text whose
// markers stop counting (those after the one block a family takes) a stop
// at each. Where no marker counts any more, none is searched for (use).
func (d *driver) feedWhole(t tableMover, output string, x *gather, wide bool) {
	if work.Counting && (d.extra != 0 || d.runs) {
		panic(fmt.Sprintf("parsers: feedWhole given a driver that watches extra markers (%#x) or holds runs (%t)", d.extra, d.runs))
	}
	if d.wide = wide && d.mask != 0; d.wide { // where none counts, none is looked for
		d.sc.SetActive(^uint64(0))
	}
	d.sc.Feed(output)
	d.fed += len(output)
	known := false // the grammar is where t's last move left it
	for {
		held, before, k := d.sc.NextWhole()
		if held != "" { // none where the driver is fed once: no run is held yet
			d.text(held, x.emit)
			known = false
		}
		if before != "" {
			switch {
			case d.fast >= 0 && !holds(d.hold, before[len(before)-1]):
				x.own(gatherSection(phase(d.fast)), d.pos, len(before))
				d.pos += len(before)
			case d.direct >= 0: // the run, or before's end, the driver holds
				d.sendWhole(before, x)
			default:
				d.text(before, x.emit)
				known = d.fast < 0 && holds(spaceSet, before[len(before)-1]) && d.takeRun(t) // the grammar may hold its end
			}
		}
		if k < 0 {
			if len(d.run) > 0 {
				d.settle(x.emit) // what the scanner holds at the end follows it
			}
			d.wide = false
			return
		}
		mk := d.markers[k]
		if d.mask&(1<<k) == 0 { // the text before it moved the stance, or one watched wide: text now
			if d.wide {
				d.wide = false
				d.sc.SetActive(d.mask)
			}
			if d.direct >= 0 {
				d.sendWhole(mk, x)
			} else {
				d.text(mk, x.emit)
				known = d.fast < 0 && holds(spaceSet, mk[len(mk)-1]) && d.takeRun(t)
			}
			continue
		}
		at := d.pos
		d.pos += len(mk)
		if d.fast < 0 { // the driver holds a run, or the grammar holds something
			e := runToGrammar
			if len(d.run) > 0 {
				if e = t.overRun(k, known); e == runStays { // moved, the run still held
					known = true
					continue
				}
				known = true // overRun has looked
			}
			var taken bool
			if known, taken = d.wholeMarker(k, at, x, known, e); taken {
				continue
			}
		}
		if st := t.move(k, at, x, known); st != nil {
			if d.keepsSet(st.mask) { // use without its call (no extra markers here)
				d.take(*st)
			} else {
				d.use(*st)
			}
			known = true
			continue
		}
		d.sync()
		known = false
	}
}

// sendWhole is send for text s of feedWhole, at the driver's offset.
func (d *driver) sendWhole(s string, x *gather) {
	at := d.pos
	d.pos += len(s)
	d.send(s, at, x.emit)
}

// wholeMarker is feedWhole's for marker k, at offset at, where the stance
// is not fast and the marker does not leave the run the driver holds, if
// any, as it is (e, t's overRun, runToGrammar where no run is held): the
// run ends (runEnds) or the grammar takes it first, and the grammar takes
// the marker where it holds something then. It reports known after it (as
// in feedWhole) and whether the marker is taken; where it is not, the
// stance is direct with no run held, and the marker is t's move.
func (d *driver) wholeMarker(k, at int, x *gather, known bool, e runEffect) (bool, bool) {
	if e == runEnds {
		d.holdOnly("", 0)
	} else if len(d.run) > 0 {
		d.settle(x.emit)
	}
	if d.fast < 0 { // the grammar holds something: it takes the marker
		d.g.marker(k, at, x.emit)
		d.sync()
		return false, true
	}
	return known, false
}

// takeRun makes what the grammar t, which holds something back (its
// stance is not direct), holds back the driver's run where the grammar can
// hand it over (t's handRun), its stance then direct, and
// reports whether it did; the grammar is then where a move would leave it
// (see tableMover.move).
func (d *driver) takeRun(t tableMover) bool {
	st := t.handRun(&d.run)
	if st == nil {
		return false
	}
	d.use(*st)
	d.fast = -1 // the run is held
	return true
}

// sync tells the scanner which markers count now.
func (d *driver) sync() {
	d.use(d.g.active())
}

// use makes st, the grammar's stance, the driver's, the scanner's set
// with it. feedWhole calls take alone where the set stays (keepsSet).
func (d *driver) use(st stance) {
	if m := st.mask | d.extra; !d.keepsSet(m) {
		d.wide = false
		d.sc.SetActive(m)
	}
	d.take(st)
}

// keepsSet reports whether the scanner's set stays as it is for markers m
// to count or be watched: it is m already, or the scanner is wide (it
// watches every marker) and some marker still counts. Where none does, a
// wide scanner narrows to none.
func (d *driver) keepsSet(m uint64) bool {
	return m == d.sc.Active() || d.wide && m != 0
}

// take makes st the driver's stance, leaving the scanner's set as it is.
func (d *driver) take(st stance) {
	d.mask, d.moves, d.direct, d.hold = st.mask, st.moves, st.direct, st.hold
	d.fast = d.direct // the run is settled where the stance may move
}

// replay runs g over the prompt from the last of the anchor markers in it
// (see promptFrom), with text alone, and reports whether there was one.
// The grammar is then where the prompt leaves it (see runPrompt).
func replay(g grammar, markers []string, anchors uint64, cfg reasoning.Config, tok tokenizer.Tokenizer) bool {
	prompt, k, _ := promptFrom(cfg, tok, markers, nil, anchors, nil)
	if k >= 0 {
		runPrompt(g, markers, prompt, acceptAll)
	}
	return k >= 0
}

// runPrompt runs g over prompt, where accept says whether a marker found
// counts (see promptFrom). What the scanner holds at the end is text: a
// marker cut in two by the end of the prompt is not joined with the
// output.
func runPrompt(g grammar, markers []string, prompt string, accept func(k, at int) bool) {
	var d driver
	d.reset(g, markers)
	d.feed(prompt, accept, discard)
	if held := d.sc.Flush(); held != "" {
		d.text(held, discard) // d holds no run (d.runs is false)
	}
}

// lastMarker returns the last of the markers in mask that text holds, and
// where it begins; -1, -1 when none.
func lastMarker(text string, markers []string, mask uint64) (k, at int) {
	k, at = -1, -1
	for i, mk := range markers {
		if mask&(1<<i) == 0 {
			continue
		}
		if j := strings.LastIndex(text, mk); j > at {
			k, at = i, j
		}
	}
	return k, at
}

// promptFrom returns the prompt from the last of the markers in mask it
// holds, that marker first, and which marker it is; "", -1 when it holds
// none, or when one of turns (turn markers: the marker belongs to an
// earlier turn) comes after the last. Prompt IDs, when a tokenizer can read
// them, beat prompt text: they are decoded back from the end only as far
// as that marker, however long the prompt, and a marker k with single[k] >=
// 0 (single may be nil) counts only as that one token there, not as its
// characters typed as others; a turn marker that is one token of tok, only
// as that token. accept says the same of a marker found in text: it is the
// accept a machine replaying text is fed with (acceptAll for prompt text).
func promptFrom(cfg reasoning.Config, tok tokenizer.Tokenizer, markers []string, single []int, mask uint64, turns []string) (text string, k int, accept func(k, at int) bool) {
	all, allSingle := markers, single
	if len(turns) > 0 {
		all = append(slices.Clip(markers), turns...)
		allSingle = make([]int, len(all))
		ids := tok != nil && len(cfg.PromptIDs) > 0
		for i := range all {
			if i < len(markers) {
				allSingle[i] = idOf(single, i)
				continue
			}
			if all[i] == "" {
				continue
			}
			mask |= 1 << i
			allSingle[i] = -1
			if !ids {
				continue // prompt text: no IDs to check
			}
			if id, ok := tok.TokenID(all[i]); ok { // a vocabulary lookup: New stays cheap
				allSingle[i] = id
			}
		}
	}
	text, k, accept = lastInPrompt(cfg, tok, all, allSingle, mask)
	if k >= len(markers) {
		return "", -1, acceptAll
	}
	return text, k, accept
}

// lastInPrompt is promptFrom without turns.
func lastInPrompt(cfg reasoning.Config, tok tokenizer.Tokenizer, markers []string, single []int, mask uint64) (text string, k int, accept func(k, at int) bool) {
	if tok == nil || len(cfg.PromptIDs) == 0 {
		k, at := lastMarker(cfg.PromptText, markers, mask)
		if k < 0 {
			return "", -1, acceptAll
		}
		return cfg.PromptText[at:], k, acceptAll
	}
	ids := cfg.PromptIDs
	for n := 64; ; n *= 2 {
		from := max(0, len(ids)-n)
		t := &tokenText{tok: tok, ids: ids[from:]}
		tail := t.all()
		// A marker found in the tail is the prompt's last: any later one
		// is in the tail too. One cut by the tail's start begins earlier.
		k, at := -1, -1
		for i, mk := range markers {
			if mask&(1<<i) == 0 || mk == "" {
				continue
			}
			for end := len(tail); ; {
				j := strings.LastIndex(tail[:end], mk)
				if j <= at {
					break
				}
				if one := idOf(single, i); one < 0 || t.isToken(j, j+len(mk), one) {
					k, at = i, j
					break
				}
				end = j + len(mk) - 1 // typed as other tokens: look before it
			}
		}
		if k >= 0 {
			base := at
			return tail[at:], k, func(k, at int) bool {
				one := idOf(single, k)
				return one < 0 || t.isToken(base+at, base+at+len(markers[k]), one)
			}
		}
		if from == 0 {
			return "", -1, acceptAll
		}
	}
}

// chatTurns are the turn markers of common chat templates. A marker in a
// prompt before the last of them belongs to an earlier turn (a history
// turn, the user's words, a system prompt) and does not say where the
// response starts.
var chatTurns = []string{
	chatMLStart, chatMLEnd, // ChatML: Qwen, Phi, many
	"<｜User｜>", "<｜Assistant｜>", // DeepSeek
	"<|user|>", "<|assistant|>", // GLM, Phi-3
	"<|im_user|>", "<|im_assistant|>", // Kimi
	"<|start_header_id|>", "<|eot_id|>", // Llama 3
	"<start_of_turn>", "<end_of_turn>", // Gemma 2 and 3
	"[INST]", "[/INST]", // Mistral
	"<|START_OF_TURN_TOKEN|>", "<|END_OF_TURN_TOKEN|>", // Cohere
	"<|start_of_role|>", // Granite
	"]~b]",              // MiniMax
}

// idOf is single[k], or -1 when single is nil.
func idOf(single []int, k int) int {
	if single == nil {
		return -1
	}
	return single[k]
}

// forced reports whether the request forces the response to start inside
// reasoning (WithForceReasoning(true)).
func forced(cfg reasoning.Config) bool {
	f := cfg.ForceReasoning
	return f != nil && *f
}

// machineSpec is what the shell needs of a family besides its grammar.
type machineSpec struct {
	markers  []string
	textOnly bool // markers count by their text even when deltas carry IDs
	// scannerOnly is how many of markers, at the end of the list, the
	// scanner finds for the grammar although they are no markers of the
	// family (Muse's "to="): the tokenizer never resolves them, and no ID
	// is theirs.
	scannerOnly int
	turn        string // a turn boundary for the ID walks (the grammar is a turnTaker), or ""
	// endText is the text whose IDs EndIDs returns (a marker's IDs as it
	// resolves, other text's encoding), or "": EndIDs returns nil. Muse,
	// Inkling and Hunyuan have no such text; the hoisting families
	// (hoist.go) name their closer, which a Gate forces only outside a
	// tool-call block (reasoning.Gate.Force).
	endText string
	// heldBare says that the grammar's takeHeld refuses text that holds
	// the first byte of a marker the scanner may watch while the stance
	// is directHeld (Muse's "<"): the shell asks it of a quiet delta
	// before the scanner, whose Quiet would then find nothing.
	heldBare bool
}

// shell is one response's parser over a grammar: reasoning.Parser, once,
// for every family. Its text half (Extract, ExtractStreaming, Finish)
// runs the driver. Its ID half keeps what every family's ID methods
// share (the prompt skip, the memo of IsReasoningEndStreaming, the token
// walk, the end IDs) and asks the response's ID rules what decides: the
// grammar's own (idRuler), else a walk of the IDs (walkRules).
type shell struct {
	initial grammar // where a response starts; never fed
	spec    *machineSpec
	live    driver     // the streaming response
	spare   *extractor // Extract's, made at its first call and reused
	wide    int8       // Extract's scanner watches every marker (1) or not (-1); 0: not known yet (wideExtract)
	stream
	out      emitter         // the streaming emitter, made once
	segs     *segmentBuilder // the live grammar's segments (segmented), else nil
	held     heldTaker       // the live grammar, when it is a heldTaker, else nil
	heldBare bool            // spec.heldBare

	tok    tokenizer.Tokenizer // nil: text only; the ID methods see no marker
	turn   int                 // ID of spec.turn when it is one token, else -1
	allOne bool                // every marker is one token
	// oneBits is idBits less the bits of IDs that several markers have:
	// markerOf's filter, so that a delta with such an ID takes the driver,
	// which credits it to each of them (takeIDs).
	oneBits uint64
	rules   idRules // what decides the ID methods
	endIDs  []int
	memo    endCheck // what IsReasoningEndStreaming remembers
	// skip: the sequence the end checks read begins with the prompt;
	// skipKnown: skip holds for its deltas after the prompt (pastPrompt).
	skip, skipKnown bool
	probe           *driver // IsReasoningEndAfter's copy of the memo's walk, made at its first call and reused
	// idHigh has bit id>>6&63 for the ID of each marker that is one
	// token: quietIDs' second filter, for the IDs idBits lets through.
	idHigh uint64
}

// extractor is what Extract keeps between outputs, made in one piece at
// its first call: its driver, its grammar (a copy of the initial one
// between outputs) and the sections it gathers, whose first spans have
// room of their own.
type extractor struct {
	d    driver
	g    grammar
	x    gather
	room [2][extractRoom]span
}

// extractRoom is how many spans of each section an extractor has room for
// before the gather's first growth: a reasoning block and the answer
// after it are one each.
const extractRoom = 2

// newExtractor returns the extractor of s.
func newExtractor(s *shell) *extractor {
	e := &extractor{g: s.grammar(false)}
	e.x.sec = [2][]span{e.room[0][:0], e.room[1][:0]}
	return e
}

// idRuler is an optional interface of a grammar whose ID methods follow
// rules of its own rather than a walk of the IDs through it: Harmony's end
// check looks back from the end, the think-tag families' follow vLLM's
// "the last marker decides" (thinktag_ids.go). idRules returns them for
// the response s parses (its tokenizer and its markers' IDs set), or nil
// when they do not apply there; the IDs are then walked.
type idRuler interface {
	idRules(s *shell) idRules
}

// idRules decide the ID methods of one response's shell. The shell keeps
// what every family shares: the prompt skip (stream.output, pastPrompt),
// the memo of IsReasoningEndStreaming (endMemo), the token walk (credit)
// and the end IDs. walkRules are the default.
type idRules interface {
	// ended answers IsReasoningEnd for the output's IDs (none are seen
	// without a tokenizer).
	ended(ids []int) bool
	// endAfter answers IsReasoningEndStreaming for the output's IDs, of
	// which the first from came before: v is the value the memo holds for
	// them, when known (bit 0 the answer, the rules' own bits besides).
	// It records in m, cut at from, the value of each longer length it
	// learns, and returns the value for ids.
	endAfter(m *endMemo, ids []int, from int, v int8, known bool) int8
	// contentIDs returns the content IDs of the output's IDs, which the end
	// check says have ended reasoning; the tokenizer is set.
	contentIDs(ids []int) []int
	// walk runs ids through g, a copy it leaves where the IDs end, and
	// calls visit with each token and every section its text falls in, in
	// order.
	walk(ids []int, g grammar, visit func(id int, ph phase))
}

// newShell builds the parser of a response that starts where initial
// stands. An error names the marker the tokenizer cannot express.
func newShell(spec *machineSpec, tok tokenizer.Tokenizer, cfg reasoning.Config, initial grammar) (reasoning.Parser, error) {
	s, _, err := prepareShell(spec, tok, cfg)
	if err != nil {
		return nil, err
	}
	return s.start(initial), nil
}

// prepareShell returns the shell of a response of cfg, its markers
// resolved against tok, and their delimiters; start readies it. An error
// names the marker the tokenizer cannot express.
func prepareShell(spec *machineSpec, tok tokenizer.Tokenizer, cfg reasoning.Config) (*shell, []tokenizer.Delimiter, error) {
	s := &shell{spec: spec, tok: tok, turn: -1}
	if tok != nil {
		s.prompt = cfg.PromptIDs
	}
	own := spec.markers[:len(spec.markers)-spec.scannerOnly]
	delims, err := s.resolve(tok, own)
	if err != nil {
		return nil, nil, err
	}
	for _, text := range spec.markers[len(own):] {
		delims, s.single = append(delims, tokenizer.Delimiter{Text: text}), append(s.single, -1)
	}
	if spec.textOnly {
		for k := range s.single {
			s.single[k] = -1
		}
	}
	s.allOne = true
	var shared uint64 // bits of IDs several markers have
	for k, id := range s.single[:len(own)] {
		s.allOne = s.allOne && id >= 0
		if id >= 0 {
			s.idBits |= 1 << (id & 63)
			s.idHigh |= 1 << (id >> 6 & 63)
			s.oneBits |= 1 << (id & 63)
			if slices.Contains(s.single[:k], id) {
				shared |= 1 << (id & 63)
			}
		}
	}
	s.oneBits &^= shared
	if tok != nil {
		if spec.turn != "" {
			if id, ok := tok.TokenID(spec.turn); ok {
				s.turn = id
			}
		}
		switch k := slices.Index(spec.markers, spec.endText); {
		case spec.endText == "":
		case k >= 0:
			s.endIDs = delims[k].IDs
		default:
			s.endIDs = tok.Encode(spec.endText)
		}
	}
	return s, delims, nil
}

// start readies s for a response that starts where initial stands, and
// returns it with the optional interfaces its grammar and spec call for.
func (s *shell) start(initial grammar) reasoning.Parser {
	s.initial = initial
	s.out = func(ph phase, text string, _ int) { s.r.addTo(&s.c, ph, text) } // one call per piece, the add inlined
	// One slab per response, for the scanner's joins and the messages,
	// which grows once.
	s.live.sc.UseSlab(&s.slab)
	s.live.runs = true
	s.live.reset(initial.clone(), s.spec.markers)
	if sg, ok := s.live.g.(segmented); ok {
		s.segs = sg.segments()
	}
	s.held, _ = s.live.g.(heldTaker)
	s.heldBare = s.spec.heldBare
	s.rules = walkRules{s}
	if r, ok := initial.(idRuler); ok {
		if rules := r.idRules(s); rules != nil {
			s.rules = rules
		}
	}
	if _, segs := initial.(segmented); segs {
		return &struct {
			*shell
			segmentsOf
		}{s, segmentsOf{s}}
	}
	return s // most families: no wrapper to call through
}

// grammar returns a copy of the initial grammar; with segs false, segment
// text is dropped.
func (s *shell) grammar(segs bool) grammar {
	g := s.initial.clone()
	segmentText(g, segs)
	return g
}

// segmentText makes g keep segment text, or drop it, where it has segments.
func segmentText(g grammar, keep bool) {
	if sg, ok := g.(segmented); ok {
		sg.segments().off = !keep
	}
}

// fresh returns a driver over a copy of the initial grammar (see grammar).
func (s *shell) fresh(segs bool) *driver {
	d := &driver{}
	d.reset(s.grammar(segs), s.spec.markers)
	return d
}

// Extract returns sections that are one piece of output as substrings of
// it, and joins only a section made of several: a reasoning block and the
// answer after it cost no copy and no allocation.
func (s *shell) Extract(output string) reasoning.Message {
	m, _ := s.extractAs(output, false)
	return m
}

// extractOwned is Extract for a wrapper that rewrites the content: where
// Extract would join the content from several pieces of output, it joins
// them into own, a new buffer that is the caller's to rewrite in place
// (m.Content is then ""), so that the rewrite need not copy the content
// again. own is nil where m.Content is set, one piece of output or none.
func (s *shell) extractOwned(output string) (m reasoning.Message, own []byte) {
	return s.extractAs(output, true)
}

// wideExtract reports whether Extract's scanner may watch every marker of
// the family (wideMarkers), found once per shell.
func (s *shell) wideExtract() bool {
	if s.wide == 0 {
		s.wide = -1
		if wideMarkers(s.spec.markers) {
			s.wide = 1
		}
	}
	return s.wide > 0
}

// wideMarkers reports whether a scanner may watch every one of markers
// where only some count, the driver taking the others for text, and find
// the markers that count where a scanner that watches them alone would:
// no marker ends in what another begins with, so that one taken for text
// hides no marker that counts. The markers share their first byte, so that
// the scanner looks for it alone (Scanner.index), where markers apart
// would cost a search each, and are few (wideMax).
func wideMarkers(markers []string) bool {
	if len(markers) > wideMax {
		return false
	}
	for i, a := range markers {
		if a[0] != markers[0][0] {
			return false
		}
		for j, b := range markers {
			for n := 1; n < len(a) && i != j; n++ {
				if strings.HasPrefix(b, a[n:]) {
					return false
				}
			}
		}
	}
	return true
}

// wideMax is the most markers wideMarkers allows: where the shared first
// byte comes, the scanner tries each marker watched in turn
// (Scanner.startsAt), which costs Command A's ten (cohere_command4) more
// than the changes of set spared (1 MiB Extract: +17% instructions).
const wideMax = 4

// extractAs is Extract, or with owned set extractOwned.
func (s *shell) extractAs(output string, owned bool) (m reasoning.Message, own []byte) {
	if s.spare == nil {
		s.spare = newExtractor(s)
	}
	e := s.spare
	d, g, x := &e.d, e.g, &e.x
	d.reset(g, s.spec.markers)
	if t, ok := g.(tableMover); ok {
		x.start(output)
		d.feedWhole(t, output, x, s.wideExtract())
		d.finish(x.emit)
	} else {
		gatherText(d, output, x)
	}
	if owned {
		m, own = x.messageOwned()
	} else {
		m = x.message()
	}
	d.g = nil
	// The grammar is made the initial one again now, not at the next call,
	// so that it holds on to nothing of output in between.
	s.initial.cloneInto(g)
	segmentText(g, false)
	return m, own
}

func (s *shell) ExtractStreaming(d reasoning.Delta) reasoning.Message {
	// The common delta goes whole to the section text goes to as it comes
	// (stance.direct), without the scanner, the grammar or the pieces: it
	// carries no marker's ID, the scanner holds nothing and no marker the
	// scanner watches starts in it, whole or cut short by its end (see
	// marker.Scanner.Quiet). Only the offsets count it,
	// unless it ends in bytes the grammar would hold (stance.hold) or a
	// run of them is held: the driver holds them then (driver.run).
	//
	// The live driver's fast is -1 besides while the stream is finished
	// (and direct too). No delta checks the markers with IDs pending
	// (s.watch): only a slow delta changes them, and it makes the scanner
	// watch them (l.extra) before it returns (watchPending).
	//
	// Where text goes direct and a delta is not quiet (a run held, or it
	// ends in bytes the grammar holds), one that shows held text to be
	// text, that only begins a marker, that has the markers' first byte but
	// no marker, or that goes on with the marker held text begins is taken
	// without the driver's feed (release). So is one that goes on with the
	// marker the scanner holds where the grammar takes text itself
	// (stepHeld).
	//
	// Where text goes direct but the scanner must see the delta, or where
	// text goes to the open segment or the grammar holds it back, the
	// shell takes the text before the scanner's first marker itself
	// (toSection, toGrammar); a quiet delta of the open segment that its
	// gathered text has room for is added there at once.
	//
	// The live driver's fields are read through s here, not through a
	// pointer to s.live held in a local, which the compiler would keep in
	// the frame for the paths that call on: two instructions a delta.
	if work.Counting && s.watch != s.live.extra {
		panic(fmt.Sprintf("parsers: markers %#x have IDs pending, the scanner watches %#x for them", s.watch, s.live.extra))
	}
	if l := &s.live; work.Counting && !s.finished && l.pos+len(l.sc.Held()) != l.fed {
		// Every byte fed is placed (pos) or held by the scanner: a way
		// that takes a delta without the driver's feed must say where.
		panic(fmt.Sprintf("parsers: %d bytes fed, %d placed and %d held", l.fed, l.pos, len(l.sc.Held())))
	}
	if t := d.Text; s.live.fast >= 0 && t != "" && !holds(s.live.hold, t[len(t)-1]) {
		if s.quietIDs(d.IDs) {
			if !s.live.sc.Quiet(t) {
				return s.toSection(t)
			}
			s.live.pos += len(t)
			s.live.fed += len(t)
			if s.live.fast == int8(phaseReasoning) {
				return reasoning.Message{Reasoning: t}
			}
			return reasoning.Message{Content: t}
		}
	} else if !s.quietIDs(d.IDs) {
		// A delta that carries a marker's ID: the driver's (below).
		// Asked once here for all the cases after it; the ID mode
		// quietIDs notes, the driver notes for the delta too (takeIDs,
		// markerDelta), or the stream is finished.
	} else if s.live.direct >= 0 {
		if s.live.sc.Quiet(t) {
			return s.live.quiet(t, &s.slab) // the driver holds what the grammar would (driver.run)
		}
		if m, ok := s.release(t); ok {
			return m
		}
	} else if s.live.fast == directSegment {
		if s.live.sc.Quiet(t) {
			// Most of a tool call's deltas: added where the open segment's
			// gathered text has room for them (segmentBuilder.add's common
			// case, written out here, where it costs least).
			if b, n := s.segs, len(s.segs.buf); n > 0 && n+len(t) <= cap(b.buf) {
				b.buf = b.buf[:n+len(t)]
				copy(b.buf[n:], t)
				s.live.pos += len(t)
				s.live.fed += len(t)
				return reasoning.Message{}
			}
			if s.toGrammar(t) {
				return reasoning.Message{}
			}
		}
		return s.toSection(t)
	} else if s.live.fast == directHeld {
		// A header's text. Where the grammar refuses a marker's first
		// byte (spec.heldBare), it is asked first, with no search.
		if s.heldBare {
			if s.live.sc.Held() == "" && s.toGrammar(t) {
				return reasoning.Message{}
			}
			return s.toSection(t)
		}
		if !s.live.sc.Quiet(t) {
			return s.toSection(t)
		}
		if s.toGrammar(t) {
			return reasoning.Message{}
		}
		// Quiet text the grammar refused: the driver's (below), which
		// does not ask it again.
	} else if s.live.direct == -1 && s.live.sc.Held() != "" {
		if m, ok := s.stepHeld(t); ok {
			return m
		}
	}
	// A delta that is one marker's one token, its text the marker's,
	// where the marker counts and nothing is held or pending, goes to the
	// grammar without the scanner (markerDelta): a marker token is most
	// of what a token stream's slow deltas are.
	if len(d.IDs) == 1 && s.watch == 0 && !s.finished && len(s.live.run) == 0 && s.live.sc.Held() == "" {
		if k := s.markerOf(d.IDs[0]); k >= 0 && s.live.mask&(1<<k) != 0 && d.Text == s.live.markers[k] {
			return s.markerDelta(k)
		}
	}
	// Any other delta runs the driver, here rather than in a call of its
	// own, which a grammar that never takes text direct would pay for
	// every delta.
	ids := d.IDs
	if s.spec.textOnly {
		ids = nil // nothing to count: markers are text
	}
	if !s.takeIDs(ids) {
		return reasoning.Message{}
	}
	if s.watch != s.live.extra { // the delta carries a marker's ID
		s.watchPending()
	}
	r, c := s.scratch()
	s.live.feed(d.Text, s.backed, s.out)
	if s.watch != s.live.extra { // an ID used up: the next delta may go direct
		s.watchPending()
	}
	return s.joined(r, c)
}

// markerOf returns the marker whose one token id is, or -1: also where
// several markers have that ID (a tokenizer that maps unknown text to one
// ID), which takeIDs credits to each of them (see shell.oneBits). None
// has with a text-only spec.
func (s *shell) markerOf(id int) int {
	if s.oneBits&(1<<(id&63)) == 0 {
		return -1
	}
	for k, one := range s.single {
		if one == id && one >= 0 {
			return k
		}
	}
	return -1
}

// markerDelta takes a delta that is marker k's one token, its text the
// marker's, where the marker counts and nothing is held or pending: what
// takeIDs, the two watchPending, feed and backed would do with it, whose
// counts of pending IDs end where they began, without the scanner, which
// the next delta's Feed readies afresh. The stance it reads (l.mask) is
// the last sync's: text moves it only through the driver (stance.moves),
// which syncs after it.
//
//go:noinline
func (s *shell) markerDelta(k int) reasoning.Message {
	l := &s.live
	if work.Counting && l.g.active().mask&(1<<k) == 0 {
		panic(fmt.Sprintf("parsers: marker %q taken as one token where it does not count", l.markers[k]))
	}
	s.idMode = true
	at := l.pos
	n := len(l.markers[k])
	l.pos += n
	l.fed += n
	r, c := s.scratch()
	l.g.marker(k, at, s.out)
	l.use(l.g.active()) // l.sync(), inlined, as driver.found has it
	return s.joined(r, c)
}

// watchPending makes the live scanner watch the markers with IDs pending
// (s.watch) besides those that count.
func (s *shell) watchPending() {
	s.live.extra = s.watch
	s.live.sync()
	if len(s.live.run) > 0 {
		s.live.fast = -1 // the stance stays as it was, the run held
	}
}

// release takes t, a delta that carries no marker's ID and is not quiet,
// where text goes direct (stance.direct), without the driver's feed, and
// returns its message and true, where:
//
//   - the scanner holds nothing and t begins a marker (marker.Scanner.HoldWhole,
//     a "<" token): the scanner holds t;
//   - the scanner holds nothing and t has no marker after all
//     (marker.Scanner.Plain, a "<tool_call>" token that is text): t goes
//     as a quiet delta does;
//   - t shows the held text to be text and is quiet after it
//     (marker.Scanner.Release): both go as a quiet delta does (driver.quietAfter);
//   - t goes on with the marker the held text begins (marker.Scanner.Step):
//     the run stays held until the marker is whole.
//
// It reports false for any other t, and where the held text ends in a
// byte the grammar holds (the driver would keep it in the run); the
// driver's feed then takes t (Feed and Next, as Step requires).
//
//go:noinline
func (s *shell) release(t string) (reasoning.Message, bool) {
	l := &s.live
	h := l.sc.Held()
	if h == "" {
		switch {
		case l.sc.HoldWhole(t):
			l.fed += len(t)
			return reasoning.Message{}, true
		case l.sc.Plain(t):
			return l.quiet(t, &s.slab), true
		}
		return reasoning.Message{}, false
	}
	if holds(l.hold, h[len(h)-1]) {
		return reasoning.Message{}, false
	}
	if _, ok := l.sc.Release(t); ok {
		return l.quietAfter(h, t, &s.slab), true
	}
	// The common delta that is not one: the next bytes of the marker the
	// held text begins (marker.Scanner.Step), which leaves the run held
	// until the marker is whole, as the driver's feed would.
	if k, ok := l.sc.Step(t); ok {
		return s.stepped(t, k), true
	}
	return reasoning.Message{}, false
}

// stepHeld takes t, a delta that carries no marker's ID, where the
// grammar takes text itself (no stance.direct) and the scanner holds
// text, without the driver's feed, and returns its message and true,
// where t goes on with the marker the held text begins
// (marker.Scanner.Step): the run stays held until the marker is whole, as
// in release. It reports false for any other t, which the driver's feed
// then takes (Feed and Next, as Step requires).
//
//go:noinline
func (s *shell) stepHeld(t string) (reasoning.Message, bool) {
	if k, ok := s.live.sc.Step(t); ok {
		return s.stepped(t, k), true
	}
	return reasoning.Message{}, false
}

// stepped returns the message of t, a delta the scanner's Step took, where
// it completed marker k (-1: none yet, and nothing is sent).
func (s *shell) stepped(t string, k int) reasoning.Message {
	s.live.fed += len(t)
	if k < 0 {
		return reasoning.Message{}
	}
	return s.feedOn("", "", k)
}

// toGrammar takes t, a quiet delta (see ExtractStreaming) that carries no
// marker's ID, where the grammar's stance says that text goes to the open
// segment as it comes (directSegment) or that the grammar holds it back
// (directHeld), and reports whether it took it; false when t must go to
// toSection. It is a call of its own so that ExtractStreaming stays as
// small as the fast path of every other family needs.
//
//go:noinline
func (s *shell) toGrammar(t string) bool {
	l := &s.live
	switch {
	case l.fast == directSegment:
		s.segs.add(t)
	case !s.held.takeHeld(t, l.pos):
		return false
	}
	l.pos += len(t)
	l.fed += len(t)
	return true
}

// toSection takes t, a delta that carries no marker's ID, where the
// grammar's stance takes text as it comes (to a section or the open
// segment, or held back: directHeld) and the driver holds no run, and
// returns its message: the text before the first marker the scanner finds
// in t goes there without the driver, and the driver takes the rest. A
// byte the scanner holds that t shows to be text (a "<" or "t" at the end
// of the last delta) goes there first, and t, when quiet then, after it,
// without the scanner's search: in a segment as t's first byte tells
// (marker.Scanner.Drop), where text goes to a section once Step has found
// that t does not go on with the marker the byte begins
// (marker.Scanner.DropMissed, afterDropped). A t whose only marker is one
// its end begins goes there (or to the grammar, which holds it) but for
// that end, which the scanner holds, without the scanner's search: as
// Quiet found it (marker.Scanner.HoldEnd), unless the grammar holds the
// text back, or, where the markers share a first byte, from t's first such
// byte on (marker.Scanner.HoldTail): a header's "<|", where t is one the
// grammar refused (spec.heldBare) that Quiet never saw.
//
//go:noinline
func (s *shell) toSection(t string) reasoning.Message {
	l := &s.live
	// Where the scanner holds text: in a segment, Drop is asked first
	// whether a held byte is text (as the doc says), which it tells by
	// t's first byte against each candidate's second, where Step, for a
	// "<" that begins several markers, first compares t with the rest of
	// their shared prefix; the two never both take a delta, since Step
	// takes only one that goes on with a candidate. Otherwise the common
	// delta here: the next bytes of the marker the held text begins
	// (marker.Scanner.Step); where it is not, and text goes to a section,
	// a held byte Step missed is text (DropMissed).
	if l.sc.Held() != "" {
		if l.fast == directSegment {
			if h := l.sc.Drop(t); h != "" {
				quiet := l.sc.Quiet(t)
				if b, n := s.segs, len(s.segs.buf); quiet && n > 0 && n+1+len(t) <= cap(b.buf) {
					// The common case, written out as ExtractStreaming's:
					// the byte and t where the gathered text has room.
					b.buf = b.buf[:n+1+len(t)]
					b.buf[n] = h[0] // Drop's text is one byte
					copy(b.buf[n+1:], t)
					l.pos += 1 + len(t)
					l.fed += len(t)
					return reasoning.Message{}
				}
				s.segs.add(h)
				l.pos += len(h)
				if quiet {
					s.segs.add(t)
					l.pos += len(t)
					l.fed += len(t)
					return reasoning.Message{}
				}
			}
		}
		if k, ok := l.sc.Step(t); ok {
			return s.stepped(t, k)
		}
		if l.fast >= 0 {
			if h := l.sc.DropMissed(); h != "" {
				return s.afterDropped(h, t)
			}
		}
	}
	text, ok := "", false
	if l.fast != directHeld {
		text, ok = l.sc.HoldEnd(t)
	}
	if !ok { // markers that share a first byte, whose Quiet notes nothing: "sis<", "<|ch"
		text, ok = l.sc.HoldTail(t)
	}
	if ok {
		l.fed += len(t)
		switch {
		case l.fast == directHeld:
			if text != "" && !s.held.takeHeld(text, l.pos) {
				return s.feedOn("", text, -1)
			}
		case l.fast == directSegment:
			if b, n := s.segs, len(s.segs.buf); text != "" && n > 0 && n+len(text) <= cap(b.buf) {
				b.buf = b.buf[:n+len(text)] // add's common case, as above
				copy(b.buf[n:], text)
			} else {
				s.segs.add(text)
			}
		case text != "" && holds(l.hold, text[len(text)-1]):
			return s.feedOn("", text, -1)
		default:
			l.pos += len(text)
			return l.directMessage(text)
		}
		l.pos += len(text)
		return reasoning.Message{}
	}
	l.sc.Feed(t)
	l.fed += len(t)
	held, before, k := l.sc.Next()
	if l.fast == directHeld { // the grammar holds what it may of the text
		if held != "" && s.held.takeHeld(held, l.pos) {
			l.pos += len(held)
			held = ""
		}
		if held == "" && before != "" && s.held.takeHeld(before, l.pos) {
			l.pos += len(before)
			before = ""
		}
		if held == "" && before == "" && k < 0 {
			return reasoning.Message{}
		}
	} else if k < 0 && (held == "" || !holds(l.hold, held[len(held)-1])) && (before == "" || !holds(l.hold, before[len(before)-1])) {
		l.pos += len(held) + len(before)
		if l.fast == directSegment {
			s.segs.add(held)
			s.segs.add(before)
			return reasoning.Message{}
		}
		text := before
		switch {
		case held == "":
		case before == "":
			text = held
		default:
			start := s.slab.Begin(len(held) + len(before))
			s.slab.WriteString(held)
			s.slab.WriteString(before)
			text = s.slab.End(start)
		}
		if l.fast == int8(phaseReasoning) {
			return reasoning.Message{Reasoning: text}
		}
		return reasoning.Message{Content: text}
	}
	return s.feedOn(held, before, k)
}

// afterDropped is toSection for t where the driver's stance sends text
// straight to a section and h, the one byte the scanner held, is text
// (marker.Scanner.DropMissed): h and t go as a quiet delta does where t is
// quiet, else h and the text before t's first marker, or before the end
// of t that begins one (marker.Scanner.HoldEnd).
//
//go:noinline
func (s *shell) afterDropped(h, t string) reasoning.Message {
	l := &s.live
	if l.sc.Quiet(t) {
		l.pos += len(h) + len(t)
		l.fed += len(t)
		return l.directMessage(s.slab.Append(h, t))
	}
	l.fed += len(t)
	before, k := "", -1
	if text, ok := l.sc.HoldEnd(t); ok { // t's only marker one its end begins, as Quiet found it (".<|e")
		before = text
	} else {
		l.sc.Feed(t)
		_, before, k = l.sc.Next() // nothing held: its held text is ""
	}
	last := h[0]
	if before != "" {
		last = before[len(before)-1]
	}
	if k < 0 && !holds(l.hold, last) {
		l.pos += len(h) + len(before)
		return l.directMessage(s.slab.Append(h, before))
	}
	return s.feedOn(h, before, k)
}

// feedOn is the driver's feed, for toSection and release, from where the
// scanner returned held and before, the text before marker k (-1: none).
func (s *shell) feedOn(held, before string, k int) reasoning.Message {
	l := &s.live
	r, c := s.scratch()
	var accept func(k, at int) bool // text alone: every marker counts
	if s.idMode {
		accept = s.backed
	}
	for {
		if held != "" {
			l.text(held, s.out)
		}
		if before == "" {
		} else if l.fast == directHeld && s.held.takeHeld(before, l.pos) {
			l.pos += len(before) // a header's text after its marker, held back as toGrammar does
		} else {
			l.text(before, s.out)
		}
		if k < 0 {
			break
		}
		l.found(k, accept, s.out)
		if l.sc.Spent() { // the marker ends the delta, as a token's often does
			break
		}
		if t, m, ok := l.sc.NextRest(); ok { // the common rest: a few bytes after the marker
			held, before, k = "", t, m
		} else {
			held, before, k = l.sc.Next()
		}
		if l.fast >= 0 && k < 0 && held == "" && r.n == 0 && c.n == 0 && (before == "" || !holds(l.hold, before[len(before)-1])) {
			// The common rest after a marker: text of its own, where the
			// stance sends text as it comes and nothing of the delta has
			// gone out yet: the delta's message, without the pieces.
			l.pos += len(before)
			if s.watch != l.extra { // an ID used up: the next delta may go direct
				s.watchPending()
			}
			return l.directMessage(before)
		}
	}
	if s.watch != l.extra { // an ID used up: the next delta may go direct
		s.watchPending()
	}
	return s.joined(r, c)
}

// beginWith reports whether every marker the live scanner may look for
// begins with c: a delta without that byte is then one the scanner takes
// as text of its own whenever it holds nothing (see toContent).
func (s *shell) beginWith(c byte) bool {
	for _, mk := range s.spec.markers {
		if mk == "" || mk[0] != c {
			return false
		}
	}
	return true
}

// toContent, toScan, quietFew (or quietIDs), took and scan are
// ExtractStreaming's fast path for a wrapper that reads each delta anyway,
// and so finds itself whether it has the byte every marker begins with
// (beginWith). A delta t (not empty) takes the fast path where the stance
// sends text to content as it comes (toScan) and its IDs are quiet,
// checked in that order, as ExtractStreaming does. Then, where the scanner
// holds nothing as well (toContent) and t has no such byte, t goes whole
// to content: the wrapper takes it so and counts it (took), without the
// shell's own look for that byte; any other goes to scan. Either way
// without a call through the reasoning.Parser interface.
func (s *shell) toContent(t string) bool {
	return s.toScan(t) && s.live.sc.Held() == ""
}

// toScan is toContent, whether or not the scanner holds text.
func (s *shell) toScan(t string) bool {
	l := &s.live
	return l.fast == int8(phaseContent) && !holds(l.hold, t[len(t)-1])
}

// scan is ExtractStreaming for a delta t that takes the fast path (see
// toContent), where the scanner holds text or t has the byte every marker
// begins with: the scanner reads it unless it finds t quiet after all.
func (s *shell) scan(t string) reasoning.Message {
	if !s.live.sc.Quiet(t) {
		return s.toSection(t)
	}
	s.took(len(t))
	return reasoning.Message{Content: t}
}

// took counts n bytes the caller took as ExtractStreaming's fast path
// would (see toContent).
func (s *shell) took(n int) {
	s.live.pos += n
	s.live.fed += n
}

// quietFew is quietIDs, cheaper, for a delta with no IDs, or with one that
// is not the ID of a marker that is one token (most tokens): it reports
// false, having done nothing, for any other, which quietIDs decides.
// sanitized.ExtractStreaming writes it out: change both.
func (s *shell) quietFew(ids []int) bool {
	if ids == nil || s.idBits == 0 {
		return true
	}
	if len(ids) != 1 || s.idBits&(1<<(ids[0]&63)) != 0 {
		return false
	}
	s.idMode = true
	return true
}

// quietIDs reports whether a delta with ids may take the fast path as far
// as its IDs go, the stream not finished: none of ids is a marker's (with
// IDs, the stream is in ID mode from then on: see takeIDs). Where no
// marker counts by its ID (idBits empty: none is one token, or the spec is
// textOnly), IDs change nothing, ID mode included (see backed).
func (s *shell) quietIDs(ids []int) bool {
	if ids == nil || s.idBits == 0 {
		return true
	}
	s.idMode = true
	for _, id := range ids {
		if s.idBits&(1<<(id&63)) != 0 && s.idHigh&(1<<(id>>6&63)) != 0 && isMarkerID(s.single, id) {
			return false
		}
	}
	return true
}

func (s *shell) Finish() reasoning.Message {
	if !s.finish() {
		return reasoning.Message{}
	}
	r, c := s.scratch()
	s.live.finish(s.out)
	s.live.fast, s.live.direct = -1, -1 // later deltas emit nothing: see takeIDs
	return message(r, c)
}

// IsReasoningEnd answers from the output's IDs (see stream.output) by the
// response's ID rules: by default, a walk of them through the grammar,
// which then says whether reasoning is over (grammar.ended). Without a
// tokenizer no marker can be seen: the answer is where the response
// starts.
func (s *shell) IsReasoningEnd(ids []int) bool { return s.rules.ended(s.output(ids)) }

// IsReasoningEndStreaming answers as IsReasoningEnd(ids) does, where delta
// is the newest part of ids. Called for the consecutive deltas of one
// sequence, it reads only the newest delta (and what the rules must read
// besides): it remembers the value for every length of the sequence it
// has learnt, so that a sequence cut back (speculative decoding) and grown
// again costs no more.
func (s *shell) IsReasoningEndStreaming(ids, delta []int) bool {
	if s.tok == nil {
		return s.rules.ended(nil)
	}
	if len(s.prompt) > 0 {
		ids, delta = s.pastPrompt(ids, delta)
	}
	from := max(0, len(ids)-len(delta))
	m := &s.memo.endMemo
	v, known := m.value(from)
	m.cut(from)
	v = s.rules.endAfter(m, ids, from, v, known)
	if len(ids) > 0 {
		m.cut(len(ids)) // what the rules did not learn stays unknown
		m.setValue(len(ids), v)
	}
	return v&1 == 1
}

// IsReasoningEndAfter answers IsReasoningEnd of ids followed by more,
// where ids is the sequence IsReasoningEndStreaming was last given, or a
// prefix of it (a Gate's thinking budget asks it at every step while the
// parser would not take its end marker as the end). It reads only more:
// it goes on from where the streaming check's walk of ids stands, and
// walks ids first only when that check kept no walk of them (none yet, or
// the sequence was cut back), keeping the walk for the checks after. ok is
// false where the response's ID rules are not a walk of the IDs, or ids
// may not hold the whole prompt; ask IsReasoningEnd then. It holds for the
// shell's own end checks: a type that embeds a shell and answers
// IsReasoningEnd or IsReasoningEndStreaming otherwise must hide it.
func (s *shell) IsReasoningEndAfter(ids, more []int) (ends, ok bool) {
	if _, walks := s.rules.(walkRules); !walks || s.tok == nil || len(ids) < len(s.prompt) {
		return false, false
	}
	if len(s.prompt) > 0 {
		ids, _ = s.pastPrompt(ids, ids[len(ids):]) // as the memo counts
	}
	c := &s.memo
	if c.walk == nil || c.n != len(ids) {
		c.walk, c.n = s.fresh(false), 0
		s.walkOn(ids)
	}
	if s.probe == nil {
		s.probe = new(driver)
	}
	d := s.probe
	c.walk.copyTo(d)
	for i := range more {
		s.feedID(d, more, i, discard)
	}
	return d.g.ended(), true
}

// pastPrompt returns ids and delta, the newest part of ids, past the
// prompt when ids begin with it (see stream.output), as the end checks
// count them; callers skip it without a prompt. Whether ids begin with it
// is decided until it is known (ids as long as the prompt), then again
// only when a delta reaches into the prompt (reskip). Where the answer
// changes, what the end checks learnt by length (the memo, the walk, the
// rules' own scans) counted from another start: delta is then all of ids,
// so that they start over from the output's start.
func (s *shell) pastPrompt(ids, delta []int) ([]int, []int) {
	n := len(s.prompt)
	if from := len(ids) - len(delta); (from < n || !s.skipKnown) && s.reskip(ids) {
		delta = ids
	}
	if !s.skip {
		return ids, delta
	}
	out := ids[n:]
	return out, delta[max(0, len(delta)-len(out)):]
}

// reskip decides whether ids begin with the prompt, and reports whether
// that changed. The memo is then forgotten too, though a delta of all of
// ids (pastPrompt) makes the streaming check start over anyway: so that
// IsReasoningEndAfter, which reads no delta, never goes on from it.
func (s *shell) reskip(ids []int) bool {
	was, n := s.skip, len(s.prompt)
	s.skip = len(ids) >= n && slices.Equal(ids[:n], s.prompt)
	s.skipKnown = len(ids) >= n
	if s.skip == was {
		return false
	}
	s.memo.cut(0)
	s.memo.walk = nil
	return true
}

// ExtractContentIDs returns the content IDs of the output's IDs, by the
// response's ID rules (by default, those after the last reasoning span or
// turn began: see contentAfter): nil while reasoning has not ended, all of
// ids without a tokenizer when the response starts after reasoning.
func (s *shell) ExtractContentIDs(ids []int) []int {
	ids = s.output(ids)
	// The think-tag rules answer with one read of the IDs where ended and
	// contentIDs would each read them; rules that embed them (the
	// template's) decide otherwise, so the type is asserted, not a method.
	if r, ok := s.rules.(*tagIDs); ok && s.tok != nil {
		return r.extractContentIDs(ids)
	}
	switch {
	case !s.rules.ended(ids):
		return nil
	case s.tok == nil:
		return ids
	}
	return s.rules.contentIDs(ids)
}

// CountReasoningTokens counts the tokens of ids whose text the split puts
// in reasoning, starting where the response starts: pass the output's IDs.
func (s *shell) CountReasoningTokens(ids []int) int {
	if s.tok == nil {
		return 0
	}
	n := 0
	s.rules.walk(s.output(ids), s.grammar(false), func(_ int, ph phase) {
		if ph == phaseReasoning {
			n++
		}
	})
	return n
}

// contentAfter returns the content IDs that the walk of ids from g gives
// after g's last epoch began (see grammar.epoch): the content-ID rule.
func (s *shell) contentAfter(ids []int, g grammar) []int {
	content, epoch := []int{}, g.epoch()
	s.rules.walk(ids, g, func(id int, ph phase) {
		if e := g.epoch(); e != epoch {
			content, epoch = content[:0], e
		}
		if ph == phaseContent {
			content = append(content, id)
		}
	})
	if g.epoch() != epoch { // a span began after the last content
		content = content[:0]
	}
	return content
}

// keeps reports whether the IDs after from leave the end check's answer
// as it was at from, known: every marker is one token, and neither one
// nor the turn boundary is among them.
func (s *shell) keeps(ids []int, from int, known bool) bool {
	return known && s.allOne && !s.holdsMarker(ids[from:])
}

// walkRules are the ID rules of a grammar without rules of its own: its
// IDs are walked through it, token by token, and it says whether reasoning
// is over (grammar.ended) and where its epochs begin (grammar.epoch).
type walkRules struct{ s *shell }

func (w walkRules) ended(ids []int) bool {
	s := w.s
	if s.tok == nil {
		return s.initial.ended()
	}
	d := s.fresh(false)
	for i := range ids {
		s.feedID(d, ids, i, discard)
	}
	return d.g.ended()
}

// endAfter goes on from the walk it left when that read the first from
// IDs, else walks them all again; IDs that keep the answer (see keeps)
// need no walk.
func (w walkRules) endAfter(m *endMemo, ids []int, from int, v int8, known bool) int8 {
	s, c := w.s, &w.s.memo
	if s.keeps(ids, from, known) {
		m.fillValue(len(ids), v)
		switch {
		case c.walk == nil:
		case c.n == from:
			s.walkOn(ids)
		default: // the walk read IDs that were cut back
			c.walk = nil
		}
		return v
	}
	if c.walk == nil || c.n != from {
		c.walk, c.n = s.fresh(false), 0
	}
	return int8(bit(s.walkOn(ids)))
}

func (w walkRules) contentIDs(ids []int) []int { return w.s.contentAfter(ids, w.s.grammar(false)) }

func (w walkRules) walk(ids []int, g grammar, visit func(id int, ph phase)) {
	w.s.credit(ids, g, visit)
}

// walkOn feeds the memo's walk the IDs after the n it has read, and returns
// its answer.
func (s *shell) walkOn(ids []int) bool {
	m := &s.memo
	for i := m.n; i < len(ids); i++ {
		s.feedID(m.walk, ids, i, discard)
	}
	m.n = len(ids)
	return m.walk.g.ended()
}

// holdsMarker reports whether ids hold a single-token marker or the turn
// boundary.
func (s *shell) holdsMarker(ids []int) bool {
	for _, id := range ids {
		if s.boundary(id) || isMarkerID(s.single, id) {
			return true
		}
	}
	return false
}

// isMarkerID reports whether id is the ID of a marker that is one token
// (single[k]: marker k's ID, or -1).
func isMarkerID(single []int, id int) bool {
	for _, one := range single {
		if one == id && one >= 0 {
			return true
		}
	}
	return false
}

// boundary reports whether id is the turn boundary.
func (s *shell) boundary(id int) bool { return id == s.turn && id >= 0 }

// feedID feeds token i of ids to d, as its decoded text, where a
// single-token marker counts only as that very token; the turn boundary
// starts a new turn instead (see newTurn).
func (s *shell) feedID(d *driver, ids []int, i int, out emitter) {
	id, text := ids[i], s.tok.Decode(ids[i:i+1])
	if s.boundary(id) {
		s.newTurn(d, len(text), out)
		return
	}
	start := d.fed
	d.feed(text, func(k, at int) bool {
		one := s.single[k]
		return one < 0 || id == one && at == start && len(text) == len(d.markers[k])
	}, out)
}

// newTurn ends the output at the turn boundary, n bytes of text that
// belong to no section, and starts the grammar's next turn after it.
func (s *shell) newTurn(d *driver, n int, out emitter) {
	d.finish(out)
	d.g.(turnTaker).newTurn()
	pos, fed := d.pos, d.fed
	d.reset(d.g, d.markers)
	d.pos, d.fed = pos+n, fed+n
}

// credit is the token walk: it runs ids through g, as creditTokens does,
// and calls visit with each token and every section its text falls in, in
// order (a token whose text falls in both is visited for each). g is left
// where the IDs end.
func (s *shell) credit(ids []int, g grammar, visit func(id int, ph phase)) {
	d := &driver{}
	d.reset(g, s.spec.markers)
	var m textMachine = d
	if s.turn >= 0 {
		m = &idWalk{s: s, d: d, ids: ids}
	}
	creditTokens(s.tok, ids, s.spec.markers, s.single, m, visit)
}

// idWalk is the textMachine credit runs for a grammar with a turn
// boundary: a driver fed token by token, which knows the token it is fed,
// so as to start a new turn at the boundary.
type idWalk struct {
	s   *shell
	d   *driver
	ids []int
	i   int // the token fed next
}

func (w *idWalk) feed(text string, accept func(k, at int) bool, out emitter) {
	id := w.ids[w.i]
	w.i++
	if w.s.boundary(id) {
		w.s.newTurn(w.d, len(text), out)
		return
	}
	w.d.feed(text, accept, out)
}

func (w *idWalk) finish(out emitter) { w.d.finish(out) }

// segmentsOf makes a shell a reasoning.Segmenter.
type segmentsOf struct{ s *shell }

func (x segmentsOf) Segments() []reasoning.Segment {
	return x.s.live.g.(segmented).segments().take()
}

func (x segmentsOf) ExtractSegments(output string) []reasoning.Segment {
	d := x.s.fresh(true)
	collectText(d, output, new(gather))
	return d.g.(segmented).segments().take()
}

// EndIDs returns the IDs that end reasoning (reasoning.EndMarker), for a
// Gate's thinking budget; nil without a tokenizer or where the spec names
// no end text (machineSpec.endText), which leaves such a budget inert.
// Every family's parser has it, so that none is called through a wrapper
// that hides it.
func (s *shell) EndIDs() []int { return s.endIDs }

// endCheck is what IsReasoningEndStreaming remembers: the value for each
// length of the sequence (endMemo) and, for walkRules, the walk of the IDs
// it saw last.
type endCheck struct {
	walk *driver // a walk of the first n IDs, or nil
	n    int
	endMemo
}

// segmentBuilder gathers a grammar's segments (reasoning.Segmenter): the
// pieces produced and not yet taken, and the text of the open segment.
type segmentBuilder struct {
	off  bool                // drop segment text (Extract and the ID walks)
	segs []reasoning.Segment // pieces produced and not yet taken, but for the open segment's text
	cur  reasoning.Segment   // the open segment, without its text
	open bool                // a segment has begun and not ended
	n    int                 // segments begun
	// The open segment's text not taken yet: one piece as it came (one),
	// more gathered in buf.
	one string
	buf []byte
	// slab joins the segments' text, and what else the grammar joins (a
	// header's pieces): one slab per response, since each grows by
	// doubling.
	slab marker.Slab
}

// cloneInto makes c a copy of b that shares no memory with it, in c's own
// memory: its buffers and its slab, whose strings stay as they were
// (marker.Slab).
func (b *segmentBuilder) cloneInto(c *segmentBuilder) {
	segs, buf, slab := emptied(c.segs), c.buf[:0], c.slab
	*c = *b
	c.segs, c.buf, c.slab = segs, buf, slab
}

// begin opens the next segment, ending the open one.
func (b *segmentBuilder) begin(channel, recipient, contentType string) {
	b.end()
	b.cur = reasoning.Segment{Index: b.n, Channel: channel, Recipient: recipient, ContentType: contentType}
	b.open = true
	b.n++
}

// add adds s to the open segment's text.
func (b *segmentBuilder) add(s string) {
	switch {
	case b.off || s == "":
	case b.one == "" && len(b.buf) == 0:
		b.one = s
	case b.one != "":
		b.buf = append(append(b.buf[:0], b.one...), s...)
		b.one = ""
	default:
		b.buf = append(b.buf, s...)
	}
}

// end ends the open segment, if any.
func (b *segmentBuilder) end() {
	if !b.open {
		return
	}
	b.open = false
	if !b.off {
		b.piece(true)
	}
}

// piece adds the open segment's text gathered so far to segs, as a piece
// that is its last when done.
func (b *segmentBuilder) piece(done bool) {
	s := b.one
	if len(b.buf) > 0 {
		start := b.slab.Begin(len(b.buf))
		b.slab.Write(b.buf)
		s = b.slab.End(start)
	}
	b.one, b.buf = "", b.buf[:0]
	seg := b.cur
	seg.Text, seg.Done = s, done
	b.segs = append(b.segs, seg)
}

// take returns the segment pieces produced since the last call, adjacent
// pieces of one segment merged.
func (b *segmentBuilder) take() []reasoning.Segment {
	if b.open && (b.one != "" || len(b.buf) > 0) {
		b.piece(false)
	}
	if len(b.segs) == 0 {
		return nil
	}
	var out []reasoning.Segment
	for _, s := range b.segs {
		if n := len(out); n > 0 && out[n-1].Index == s.Index && !out[n-1].Done {
			out[n-1].Text += s.Text
			out[n-1].Done = s.Done
			continue
		}
		out = append(out, s)
	}
	b.segs = b.segs[:0]
	return out
}

// maxHeader bounds the text a grammar holds back as a header (or what may
// be one): real headers are a few dozen bytes.
const maxHeader = 256

// heldText is text a grammar holds back while it cannot tell yet where it
// goes (a header waiting for its end): pieces of the output with their
// offsets, at most about maxHeader bytes (see full).
type heldText struct {
	ps []piece
	n  int // bytes in ps
}

// full reports whether h holds more than maxHeader bytes: too many for a
// header.
func (h *heldText) full() bool { return h.n > maxHeader }

func (h *heldText) add(s string, at int) {
	h.ps = append(h.ps, piece{s, at})
	h.n += len(s)
}

// release sends the held text to out in section ph, and empties h.
func (h *heldText) release(ph phase, out emitter) {
	for _, p := range h.ps {
		out(ph, p.s, p.at)
	}
	h.reset()
}

func (h *heldText) reset() { h.ps, h.n = h.ps[:0], 0 }

// cloneInto makes c a copy of h in c's own memory.
func (h *heldText) cloneInto(c *heldText) { c.ps, c.n = append(emptied(c.ps), h.ps...), h.n }

// emptied returns s with no elements, for reuse, its memory cleared so that
// it keeps nothing alive; nil where an unusual output grew it past
// maxReuse elements.
func emptied[T any](s []T) []T {
	if cap(s) > maxReuse {
		return nil
	}
	clear(s[:cap(s)])
	return s[:0]
}

// maxReuse bounds the room a grammar keeps for reuse (emptied).
const maxReuse = 1 << 10

// String returns the held text, for a prompt's header (rare: allocates).
func (h *heldText) String() string {
	var b strings.Builder
	for _, p := range h.ps {
		b.WriteString(p.s)
	}
	return b.String()
}

// trailingSpace holds the trailing whitespace of a section (reasoning,
// or content for a family that trims its end) until more of it comes.
type trailingSpace struct{ ws []piece }

// reasoning sends s, reasoning at offset at, to out, holding back its
// trailing whitespace.
func (t *trailingSpace) reasoning(s string, at int, out emitter) { t.send(phaseReasoning, s, at, out) }

// send sends s, text of section ph at offset at, to out, holding back its
// trailing whitespace; the whitespace held before it goes first when s is
// not all whitespace.
func (t *trailingSpace) send(ph phase, s string, at int, out emitter) {
	body := trimSpaceRight(s)
	if body == "" {
		t.ws = append(t.ws, piece{s, at})
		return
	}
	t.release(ph, out)
	out(ph, body, at)
	if len(body) < len(s) {
		t.ws = append(t.ws, piece{s[len(body):], at + len(body)})
	}
}

// trimSpaceRight is strings.TrimRight(s, spaces), without its cutset
// set-up: a delta ends in whitespace often.
func trimSpaceRight(s string) string {
	n := len(s)
	for n > 0 && holds(spaceSet, s[n-1]) {
		n--
	}
	return s[:n]
}

// newline sends s, reasoning at offset at, to out, holding back one
// trailing newline only (a family that drops the newline before its
// closer, and no other whitespace).
func (t *trailingSpace) newline(s string, at int, out emitter) {
	t.release(phaseReasoning, out)
	if body, ok := strings.CutSuffix(s, "\n"); ok {
		t.ws = append(t.ws, piece{"\n", at + len(body)})
		s = body
	}
	if s != "" {
		out(phaseReasoning, s, at)
	}
}

// release sends the held whitespace to section ph: text of that section
// follows it.
func (t *trailingSpace) release(ph phase, out emitter) {
	for _, w := range t.ws {
		out(ph, w.s, w.at)
	}
	t.ws = t.ws[:0]
}

// drop forgets the held whitespace: its section ended.
func (t *trailingSpace) drop() { t.ws = t.ws[:0] }

// cloneInto makes c a copy of t in c's own memory.
func (t *trailingSpace) cloneInto(c *trailingSpace) { c.ws = append(emptied(c.ws), t.ws...) }

// endMemo is what IsReasoningEndStreaming remembers: the value for each
// length of the sequence, whose bit 0 is the answer; ID rules that need
// more of where the check stood keep it in the other bits (the think-tag
// rules' open tool-call block).
type endMemo struct {
	values []int8 // values[n-1]: the value for the first n IDs; -1 where not known
}

// value returns the value for the first n IDs, if known.
func (m *endMemo) value(n int) (v int8, ok bool) {
	if n == 0 || n > len(m.values) || m.values[n-1] < 0 {
		return 0, false
	}
	return m.values[n-1], true
}

// cut forgets the values beyond the first n IDs and marks those not known
// up to n.
func (m *endMemo) cut(n int) {
	for len(m.values) < n {
		m.values = append(m.values, -1)
	}
	m.values = m.values[:n]
}

// fillValue records v for every length not recorded or marked yet, up to
// n.
func (m *endMemo) fillValue(n int, v int8) {
	for len(m.values) < n {
		m.values = append(m.values, v)
	}
}

// setValue records v for the first n IDs (n > 0, at most as many as
// recorded or marked).
func (m *endMemo) setValue(n int, v int8) { m.values[n-1] = v }

// A textMachine splits text fed piece by piece into sections, reporting
// each piece with its offset: the driver, and idWalk around it.
type textMachine interface {
	feed(text string, accept func(k, at int) bool, out emitter)
	finish(out emitter)
}

// creditTokens runs m over the decoded text of ids, one token at a time,
// and calls visit with each token and every section its text falls in, in
// order. single[k] is marker k's ID when the marker is one token, else -1:
// such a marker counts only as that very token.
func creditTokens(tok tokenizer.Tokenizer, ids []int, markers []string, single []int, m textMachine, visit func(id int, ph phase)) {
	t := tokenText{tok: tok, ids: ids}
	done := [2]int{-1, -1} // by section: the last token visited for it
	out := func(ph phase, text string, at int) {
		first, last := t.tokens(at, at+len(text))
		for i := max(first, done[ph]+1); i <= last; i++ {
			visit(ids[i], ph)
		}
		done[ph] = max(done[ph], last)
	}
	accept := func(k, at int) bool {
		if single[k] < 0 {
			return true
		}
		first, last := t.tokens(at, at+len(markers[k]))
		return first == last && ids[last] == single[k] // else its characters, typed as other tokens
	}
	for i := range ids {
		m.feed(t.feed(i), accept, out)
	}
	m.finish(out)
}

// tokenText follows the decoded text of a run of tokens: where each token's
// text begins, so that a byte range of the text maps back to tokens.
type tokenText struct {
	tok   tokenizer.Tokenizer
	ids   []int
	start []int // start[i] is the offset of token i's text; start[len] the end so far
}

// feed decodes token i, records where its text begins and returns the text.
func (t *tokenText) feed(i int) string {
	s := t.tok.Decode(t.ids[i : i+1])
	if len(t.start) == 0 {
		t.start = append(t.start, 0)
	}
	t.start = append(t.start, t.start[len(t.start)-1]+len(s))
	return s
}

// all decodes every token and returns the text.
func (t *tokenText) all() string {
	var b strings.Builder
	for i := range t.ids {
		b.WriteString(t.feed(i))
	}
	return b.String()
}

// isToken reports whether the bytes [a, b) are the whole text of one token,
// and that token is id.
func (t *tokenText) isToken(a, b, id int) bool {
	first, last := t.tokens(a, b)
	return first == last && t.ids[last] == id && t.start[first] == a && t.start[last+1] == b
}

// tokens returns the tokens whose text overlaps the bytes [a, b).
func (t *tokenText) tokens(a, b int) (first, last int) { return overlapping(t.start, a, b) }

// overlapping returns the first and last of the tokens whose text overlaps
// the bytes [a, b), where start holds where each token's text begins and,
// last, where the text ends. It searches from the end, where the bytes a
// streaming check asks about lie.
func overlapping(start []int, a, b int) (first, last int) {
	last = len(start) - 2
	for last > 0 && start[last] >= b {
		last--
	}
	first = last
	for first > 0 && start[first] > a {
		first--
	}
	return first, last
}
