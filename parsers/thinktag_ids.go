package parsers

import (
	"strings"

	"github.com/reasoning-go/reasoning/internal/marker"
	"github.com/reasoning-go/reasoning/internal/work"
)

// This file holds the think-tag grammar's ID rules (idRules), which differ
// from a walk on purpose: the end check follows vLLM's is_reasoning_end,
// which looks back from the end for the last marker that decides, so a
// stray opener after the end reads as not ended; the content IDs follow
// extract_content_ids, those after the last block's opener. The shell
// keeps the prompt skip, the memo and the token walk.
//
// A marker that is one token is found by its ID. A marker that is several
// tokens in the vocabulary is found in the tokens' decoded text, because
// BPE spells it differently with the text around it (Llama 3 writes
// "</think>\n\n" as "</", "think", ">\n\n", not as the encoding of
// "</think>"); a token then belongs to every section its text contributes
// to.

// Events the end check finds besides a marker index.
const (
	noEvent       = -1 // no marker at all
	boundaryEvent = -2 // a turn boundary: the scan stops there
)

// tagIDs are the ID rules of one response of a think-tag family.
type tagIDs struct {
	s     *shell
	f     *tagFamily
	start tagState // where the response starts

	seqs   [][]int // by marker: its token IDs; nil entries without a tokenizer
	bounds [][]int // the boundary markers' IDs that resolved to one token
	// firsts has bit id%64 set for the first ID of every marker and
	// boundary: an ID whose bit is clear begins none (see mayStart).
	firsts uint64
	// textIDs says that the rules work on the tokens' decoded text: some
	// marker is several tokens in this vocabulary (its tokens change with
	// the text around it), or the family drops whitespace or tails, or
	// follows tool-call blocks. Else they read the IDs alone.
	textIDs bool
	// boundaryEnded is the end check's answer at a turn boundary, for a
	// family with boundaryEnds.
	boundaryEnded bool

	// What the streaming end check has read (endAfter): the events of the
	// IDs so far, with textIDs (nil until its first read, so that a
	// parser whose end check is not asked holds no scanner for it), and
	// how many of the output's first IDs settle whether it begins with the
	// label (labelPending), 0 when not known.
	end       *eventScan
	labelRead int
}

// ended looks back from the end of ids for the last marker: a closing
// marker or tool-call opener means reasoning has ended, an opening marker
// that it has not. A boundary marker, or no marker at all, leaves the
// answer to where the response starts. Inside a tool-call block
// (toolBlocks) no marker but its closers counts, as in the text split.
func (r *tagIDs) ended(ids []int) bool {
	if r.s.tok == nil {
		return r.answer(noEvent)
	}
	k, _ := r.lastEvent(ids)
	return r.answerFor(k, ids)
}

// endAfter reads the events that end after from (see eventsAfter), each
// deciding the answer from the token it ends at; the memo's value carries
// the answer and whether a tool-call block is open. While the output's first bytes may
// still be the bare label (labelOpens), the few IDs so far are read whole.
// When every marker is one token, IDs after from that hold none of them
// and no boundary end no event: the value known at from holds, and their
// text is not read.
func (r *tagIDs) endAfter(m *endMemo, ids []int, from int, v int8, known bool) int8 {
	if r.end != nil && r.end.n > from {
		r.end.valid = false // it read IDs after from, which may differ now; the ways below that skip it would keep it
	}
	if r.f.labelOpens && r.labelPending(ids, from) {
		m.cut(0)
		k, inTool := r.lastEvent(ids)
		return endValue(r.answerFor(k, ids), inTool)
	}
	if known && r.s.allOne && !r.holdsEvent(ids[from:]) {
		m.fillValue(len(ids), v)
		return v
	}
	if !known {
		k, inTool := r.lastEvent(ids[:from])
		v = endValue(r.answerFor(k, ids[:from]), inTool)
	}
	r.eventsAfter(ids, from, v&2 != 0, func(k, end int, inTool bool) {
		m.fillValue(end-1, v) // the answer holds up to the token before the event ends
		ans := v&1 == 1
		if k < 0 || r.f.kinds[k] != kindToolClose { // a closer of a tool-call block decides nothing
			ans = r.answer(k)
		}
		v = endValue(ans, inTool)
	})
	m.fillValue(len(ids), v)
	return v
}

// endValue is what the end check's memo keeps for one length: the answer
// in bit 0, an open tool-call block in bit 1.
func endValue(ended, inTool bool) int8 { return int8(bit(ended) | bit(inTool)<<1) }

// eventsAfter calls fn, in order, for each marker or boundary that decides
// the end check (see lastEvent), or closes a tool-call block, and ends after
// position from, with the position it ends at and whether a tool-call block
// is open after it; inTool says whether one is open at from.
//
// With textIDs it goes on with the scan of the text that the last call
// left, when that read the first from IDs, so that each ID is decoded once;
// else it scans again from the few IDs before from that a marker of
// several tokens may begin in.
func (r *tagIDs) eventsAfter(ids []int, from int, inTool bool, fn func(k, end int, inTool bool)) {
	if r.textIDs {
		if r.end == nil {
			r.end = new(eventScan)
		}
		e := r.end
		if !e.valid || e.n != from {
			e.reset(r.f.markers, max(0, from-r.longestMarker()), inTool)
		}
		e.inTool = inTool
		for e.n < len(ids) {
			e.read(r, ids, func(k, start, end int, inTool bool) {
				if end > from && (r.decides(k, start) || r.f.kinds[k] == kindToolClose) {
					fn(k, end, inTool)
				}
			})
		}
		return
	}
	deciders := r.deciders()
	for i := from; i < len(ids); i++ { // every marker is one token here (not textIDs)
		if !r.mayStart(ids[i]) {
			continue
		}
		mask := deciders
		if i == 0 && r.f.openAtStart {
			mask |= r.f.bits[kindOpen]
		}
		if k := marker.MatchAt(ids, i, r.seqs, mask); k >= 0 {
			if end := i + len(r.seqs[k]); end > from {
				fn(k, end, false)
			}
			i += len(r.seqs[k]) - 1
		}
		// After a marker on the same token: a boundary that is also a
		// marker (PLaMo's end of turn) scopes.
		if i >= from && isBoundary(ids[i], r.bounds) {
			fn(boundaryEvent, i+1, false)
		}
	}
}

// holdsEvent reports whether ids hold the ID of a marker that is one token
// or of a boundary.
func (r *tagIDs) holdsEvent(ids []int) bool {
	work.Add(len(ids))
	for _, id := range ids {
		if r.mayStart(id) && (isMarkerID(r.s.single, id) || isBoundary(id, r.bounds)) {
			return true
		}
	}
	return false
}

// mayStart reports whether a marker or boundary may begin at id (see
// firsts): most IDs are passed over with one test.
func (r *tagIDs) mayStart(id int) bool { return r.firsts&(1<<(uint(id)&63)) != 0 }

// answer is the end check's answer when k is the last marker or boundary.
func (r *tagIDs) answer(k int) bool {
	// A family whose end check needs a marker answers false for a response
	// that starts in content by default (not from a prompt that closed the
	// block) until one shows the end.
	startsInContent := r.start.phase == phaseContent && (r.start.seen || !r.f.endNeedsMarker)
	switch k {
	case boundaryEvent:
		if r.f.boundaryEnds != nil {
			return r.boundaryEnded
		}
		return startsInContent
	case noEvent:
		return startsInContent
	default:
		return r.f.kinds[k] != kindOpen
	}
}

// answerFor is answer(k) for the output ids: with labelOpens, an output
// whose text begins with the label has opened a block, so with no marker
// after it reasoning has not ended.
func (r *tagIDs) answerFor(k int, ids []int) bool {
	if opened, _ := r.startLabel(ids); opened && k == noEvent {
		return false
	}
	return r.answer(k)
}

// startLabel reports, for a family with labelOpens whose response starts
// in content, whether the text of the output ids begins with the label,
// and whether that is still open (the text so far is a shorter prefix of
// it). It decodes only the first IDs, one at a time, up to the label's
// length in text, and at most twice the label's length of them: IDs that
// take longer to spell it (IDs that decode to nothing) do not begin with
// it, so the answer is settled after a bounded prefix whatever the IDs.
func (r *tagIDs) startLabel(ids []int) (opened, pending bool) {
	f, tok := r.f, r.s.tok
	if !f.labelOpens || tok == nil || r.start.phase != phaseContent || r.start.inTool {
		return false, false
	}
	var text []byte
	n := 0
	for ; n < len(ids) && n < 2*len(f.label) && len(text) < len(f.label); n++ {
		text = append(text, tok.Decode(ids[n:n+1])...)
	}
	switch {
	case len(text) >= len(f.label):
		return strings.HasPrefix(string(text), f.label), false
	case n == 2*len(f.label):
		return false, false
	}
	return false, strings.HasPrefix(f.label, string(text))
}

// labelPending is startLabel's pending for the first from IDs, asked
// until it is settled: then, for the end check's later calls, it stays
// settled unless the sequence is cut back before the IDs that settled it.
func (r *tagIDs) labelPending(ids []int, from int) bool {
	if from < r.labelRead {
		r.labelRead = 0 // the IDs that settled it may have changed
	}
	if r.labelRead > 0 {
		return false
	}
	_, pending := r.startLabel(ids[:from])
	if !pending {
		r.labelRead = from
	}
	return pending
}

// lastEvent returns the last marker or boundary in ids: a marker's index,
// boundaryEvent or noEvent, and whether a tool-call block is open at the
// end. Markers that only drop text (drops, tails) or close a tool-call
// block say nothing of where reasoning stands and are passed over.
func (r *tagIDs) lastEvent(ids []int) (k int, inTool bool) {
	if !r.textIDs {
		pos, k := marker.LastIndexAny(ids, r.seqs, r.deciders(), 0)
		// A boundary that is also a marker (PLaMo's end of turn) scopes.
		if b, _ := marker.LastIndexAny(ids, r.bounds, allOf(r.bounds), 0); b >= 0 && b >= pos {
			return boundaryEvent, false
		}
		if k < 0 && r.f.openAtStart { // an opener that counts only as the output's first bytes
			k = marker.MatchAt(ids, 0, r.seqs, r.f.bits[kindOpen])
		}
		return k, false
	}
	last := noEvent
	inTool = r.events(ids, 0, r.start.inTool, func(k, start, _ int, _ bool) {
		if r.decides(k, start) {
			last = k
		}
	})
	return last, inTool
}

// decides reports whether event k (a marker, or a boundary when negative),
// found starting at token start, shows where reasoning stands (see
// deciders): an opener of a family whose openers count only at the start of
// the output does at token 0.
func (r *tagIDs) decides(k, start int) bool {
	return k < 0 || r.deciders()&(1<<k) != 0 || start == 0 && r.f.openAtStart && r.f.kinds[k] == kindOpen
}

// deciders returns the markers that show where reasoning stands: openers,
// closers, ends and tool-call openers.
func (r *tagIDs) deciders() uint64 {
	f := r.f
	m := f.bits[kindClose] | f.bits[kindEnd] | f.bits[kindTool]
	if !f.openAtStart { // an opener anywhere but the start of the output is text
		m |= f.bits[kindOpen]
	}
	return m
}

func allOf[T any](s []T) uint64 { return 1<<len(s) - 1 }

func (r *tagIDs) longestMarker() int {
	n := 0
	for _, m := range r.f.markers {
		n = max(n, len(m))
	}
	return n
}

// contentIDs returns the content IDs that follow the end of the last
// reasoning block, as the text split would give them: the walk from the
// last opener that counts (after the last boundary), or from where the
// response starts.
func (r *tagIDs) contentIDs(ids []int) []int {
	from, state := 0, r.start
	if b, _ := marker.LastIndexAny(ids, r.bounds, allOf(r.bounds), 0); b >= 0 {
		from = b + 1
	}
	// The last opener that counts (an opener of a family whose openers
	// count only at the output's start, only there; see decides) begins
	// the last block.
	if !r.textIDs {
		o, k := marker.LastIndexAny(ids, r.seqs, r.f.bits[kindOpen], from)
		if k >= 0 && !r.decides(k, o) {
			o, k = 0, -1
			if from == 0 {
				k = marker.MatchAt(ids, 0, r.seqs, r.f.bits[kindOpen])
			}
		}
		if k >= 0 {
			from, state = o+len(r.seqs[k]), tagState{phase: phaseReasoning, opened: true, seen: true}
		}
	} else {
		open := -1
		r.events(ids, from, from == 0 && r.start.inTool, func(k, start, _ int, _ bool) {
			if k >= 0 && r.f.kinds[k] == kindOpen && r.decides(k, start) {
				open = start
			}
		})
		if open >= 0 {
			return r.afterOpener(ids, open)
		}
	}
	return r.s.contentAfter(ids[from:], r.grammar(state))
}

// afterOpener returns the content IDs of the walk from the last opener
// that counts, at open in ids: from the opener itself, which opens its
// block from content.
func (r *tagIDs) afterOpener(ids []int, open int) []int {
	return r.s.contentAfter(ids[open:], r.grammar(tagState{phase: phaseContent}))
}

// extractContentIDs answers ExtractContentIDs for the output ids (the
// tokenizer set): nil while the end check (ended) says reasoning has not
// ended, else contentIDs. Reading the text, one scan from the output's
// start finds the last marker that decides the end and, with no boundary
// in ids, the last opener that counts, which ended and contentIDs would
// each scan for.
func (r *tagIDs) extractContentIDs(ids []int) []int {
	if !r.textIDs {
		if !r.ended(ids) {
			return nil
		}
		return r.contentIDs(ids)
	}
	last, open, bound := noEvent, -1, -1
	r.events(ids, 0, r.start.inTool, func(k, start, _ int, _ bool) {
		if r.decides(k, start) {
			last = k
			switch {
			case k == boundaryEvent:
				bound = start
			case r.f.kinds[k] == kindOpen:
				open = start
			}
		}
	})
	switch {
	case !r.answerFor(last, ids):
		return nil
	case bound >= 0: // contentIDs scans afresh after the last boundary
		return r.contentIDs(ids)
	case open >= 0:
		return r.afterOpener(ids, open)
	}
	return r.s.contentAfter(ids, r.grammar(r.start))
}

// grammar returns the family's grammar standing at s, with nothing held.
func (r *tagIDs) grammar(s tagState) *tagGrammar {
	return &tagGrammar{fam: r.f, state: s, rules: r}
}

// walk is the shell's token walk (credit), or, when the rules read the IDs
// alone, the family's table stepped by them: a single-token marker is its
// ID, and a tool-call opener is content.
func (r *tagIDs) walk(ids []int, g grammar, visit func(id int, ph phase)) {
	if r.textIDs {
		r.s.credit(ids, g, visit)
		return
	}
	tg := g.(*tagGrammar)
	f, s := r.f, tg.state
	for i := 0; i < len(ids); {
		k := -1
		if r.mayStart(ids[i]) {
			k = marker.MatchAt(ids, i, r.seqs, f.active(s))
		}
		if k < 0 {
			visit(ids[i], s.phase)
			s.begun = true
			i++
			continue
		}
		next, keep := f.step(s, k)
		if keep {
			for _, id := range r.seqs[k] {
				visit(id, phaseContent)
			}
		}
		i += len(r.seqs[k])
		s = next
	}
	tg.state = s
}

// events calls fn for each marker found in the decoded text of ids[from:]
// with every marker looked for, with the tokens it starts and ends in
// (end exclusive, as an index into ids), and for each boundary token
// (k = boundaryEvent). A single-token marker counts only as its own token.
// Inside a tool-call block (toolBlocks) only its closers count; inTool says
// whether one is open at from, and fn is told whether one is open after
// each event. events returns whether one is open at the end.
func (r *tagIDs) events(ids []int, from int, inTool bool, fn func(k, start, end int, inTool bool)) bool {
	var e eventScan
	e.reset(r.f.markers, from, inTool)
	for e.n < len(ids) {
		e.read(r, ids, fn)
	}
	return e.inTool
}

// eventScan reads IDs for events (see events) one token at a time, so that
// the streaming end check, which keeps one between calls (tagIDs.end),
// decodes each ID once.
type eventScan struct {
	sc     marker.Scanner
	valid  bool  // reset since the rules were made
	n      int   // the IDs read: token n is the next
	base   int   // the token whose text begins at start[0]
	start  []int // start[i]: where token base+i's text begins; the last, where the text read ends
	at     int   // bytes of the text the scanner has returned, markers included
	inTool bool  // a tool-call block is open
}

// reset makes e read from token n, where a tool-call block is open if
// inTool, with nothing held.
func (e *eventScan) reset(markers []string, n int, inTool bool) {
	e.sc.Reset(markers)
	e.valid, e.n, e.base, e.at, e.inTool = true, n, n, 0, inTool
	e.start = append(e.start[:0], 0)
}

// read reads token n of ids: it calls fn for each event that ends in it, as
// events does.
func (e *eventScan) read(r *tagIDs, ids []int, fn func(k, start, end int, inTool bool)) {
	f, i := r.f, e.n
	text := r.s.tok.Decode(ids[i : i+1])
	e.trim()
	e.start = append(e.start, e.start[len(e.start)-1]+len(text))
	e.n++
	e.sc.Feed(text)
	for {
		held, before, k := e.sc.Next()
		e.at += len(held) + len(before)
		if k < 0 {
			break
		}
		first, last := e.tokens(e.at, e.at+len(f.markers[k]))
		e.at += len(f.markers[k])
		if one := r.s.single[k]; one >= 0 && (first != last || ids[last] != one) {
			continue // the marker's characters, typed as other tokens
		}
		if f.toolBlocks {
			switch kind := f.kinds[k]; {
			case e.inTool && kind != kindToolClose:
				continue // inside a tool-call block: text
			case e.inTool:
				e.inTool = false
			case kind == kindTool:
				e.inTool = true
			}
		}
		fn(k, first, last+1, e.inTool)
	}
	// After the markers its text makes: a boundary that is also a marker
	// (PLaMo's end of turn) scopes. A new turn ends a tool-call block too.
	if isBoundary(ids[i], r.bounds) {
		e.inTool = false
		fn(boundaryEvent, i, i+1, false)
	}
}

// tokens returns the tokens whose text overlaps the bytes [a, b) of the
// text read, which begin no earlier than the text the scanner has not
// returned yet (see trim).
func (e *eventScan) tokens(a, b int) (first, last int) {
	first, last = overlapping(e.start, a, b)
	return e.base + first, e.base + last
}

// trim forgets where the tokens before the scanner's held text begin: no
// marker found later overlaps them. It copies what remains only when that
// is at most as much as it forgets, so the work per token stays bounded.
func (e *eventScan) trim() {
	if len(e.start) < 64 {
		return
	}
	i := 0
	for i < len(e.start)-1 && e.start[i+1] <= e.at {
		i++
	}
	if i >= len(e.start)/2 {
		e.base += i
		e.start = e.start[:copy(e.start, e.start[i:])]
	}
}

func isBoundary(id int, bounds [][]int) bool {
	for _, b := range bounds {
		if len(b) == 1 && b[0] == id {
			return true
		}
	}
	return false
}
