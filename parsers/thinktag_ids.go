package parsers

import (
	"strings"

	"github.com/reasoning-go/reasoning/internal/marker"
)

// This file holds the ID-level methods of the think-tag base. A marker that
// is one token is found by its ID. A marker that is several tokens in the
// vocabulary is found in the tokens' decoded text, because BPE spells it
// differently with the text around it (Llama 3 writes "</think>\n\n" as
// "</", "think", ">\n\n", not as the encoding of "</think>"); a token then
// belongs to every section its text contributes to.

// Events the end check finds besides a marker index.
const (
	noEvent       = -1 // no marker at all
	boundaryEvent = -2 // a turn boundary: the scan stops there
)

// IsReasoningEnd looks back from the end of ids for the last marker: a
// closing marker or tool-call opener means reasoning has ended, an opening
// marker that it has not. A boundary marker, or no marker at all, leaves the
// answer to where the response starts. Inside a tool-call block (toolBlocks)
// no marker but its closers counts, as in the text split. Without a
// tokenizer no marker can be seen.
func (p *thinkTag) IsReasoningEnd(ids []int) bool {
	if p.tok == nil {
		return p.answer(noEvent)
	}
	ids = p.output(ids)
	k, _ := p.lastEvent(ids)
	return p.answerFor(k, ids)
}

// IsReasoningEndStreaming answers as IsReasoningEnd(ids) does, where delta
// is the newest part of ids. Called for the consecutive deltas of one
// sequence, it looks only at the newest delta (and the few IDs before it a
// multi-token marker may begin in): it remembers its answer for every
// length of the sequence it has seen (and whether a tool-call block is
// open there), so a sequence cut back (speculative decoding rejecting
// tokens) and grown again costs no more.
func (p *thinkTag) IsReasoningEndStreaming(ids, delta []int) bool {
	if p.tok == nil {
		return p.answer(noEvent)
	}
	ids, delta = p.outputDelta(ids, delta)
	from := max(0, len(ids)-len(delta))
	if _, pending := p.startLabel(ids[:from]); pending {
		// The output's first bytes may still be the bare label: the few
		// IDs so far are read whole.
		p.ended.cut(0)
		k, _ := p.lastEvent(ids)
		return p.answerFor(k, ids)
	}
	v, ok := p.ended.value(from)
	if !ok {
		k, inTool := p.lastEvent(ids[:from])
		v = endValue(p.answerFor(k, ids[:from]), inTool)
	}
	p.ended.cut(from)
	p.eventsAfter(ids, from, v&2 != 0, func(k, end int, inTool bool) {
		p.ended.fillValue(end-1, v) // the answer holds up to the token before the event ends
		ans := v&1 == 1
		if k < 0 || p.fam().kinds[k] != kindToolClose { // a closer of a tool-call block decides nothing
			ans = p.answer(k)
		}
		v = endValue(ans, inTool)
	})
	p.ended.fillValue(len(ids), v)
	return v&1 == 1
}

// endValue is what the end check's memo keeps for one length: the answer
// in bit 0, an open tool-call block in bit 1.
func endValue(ended, inTool bool) int8 { return int8(bit(ended) | bit(inTool)<<1) }

// eventsAfter calls fn, in order, for each marker or boundary that decides
// the end check (see lastEvent), or closes a tool-call block, and ends after
// position from, with the position it ends at and whether a tool-call block
// is open after it; inTool says whether one is open at from.
func (p *thinkTag) eventsAfter(ids []int, from int, inTool bool, fn func(k, end int, inTool bool)) {
	if p.textIDs {
		p.events(ids, max(0, from-p.longestMarker()), inTool, func(k, start, end int, inTool bool) {
			if end > from && (p.decides(k, start) || p.fam().kinds[k] == kindToolClose) {
				fn(k, end, inTool)
			}
		})
		return
	}
	deciders := p.deciders()
	for i := max(0, from-p.longestSeq()+1); i < len(ids); i++ {
		mask := deciders
		if i == 0 && p.fam().openAtStart {
			mask |= p.fam().bits[kindOpen]
		}
		if k := marker.MatchAt(ids, i, p.seqs, mask); k >= 0 {
			if end := i + len(p.seqs[k]); end > from {
				fn(k, end, false)
			}
			i += len(p.seqs[k]) - 1
		}
		// After a marker on the same token: a boundary that is also a
		// marker (PLaMo's end of turn) scopes.
		if i >= from && isBoundary(ids[i], p.bounds) {
			fn(boundaryEvent, i+1, false)
		}
	}
}

// longestSeq is the most tokens a marker takes.
func (p *thinkTag) longestSeq() int {
	n := 1
	for _, s := range p.seqs {
		n = max(n, len(s))
	}
	return n
}

// answer is the end check's answer when k is the last marker or boundary.
func (p *thinkTag) answer(k int) bool {
	// A family whose end check needs a marker answers false for a response
	// that starts in content by default (not from a prompt that closed the
	// block) until one shows the end.
	startsInContent := p.start.phase == phaseContent && (p.start.seen || !p.fam().endNeedsMarker)
	switch k {
	case boundaryEvent:
		if p.fam().boundaryEnds != nil {
			return p.boundaryEnded
		}
		return startsInContent
	case noEvent:
		return startsInContent
	default:
		return p.fam().kinds[k] != kindOpen
	}
}

// answerFor is answer(k) for the output ids: with labelOpens, an output
// whose text begins with the label has opened a block, so with no marker
// after it reasoning has not ended.
func (p *thinkTag) answerFor(k int, ids []int) bool {
	if opened, _ := p.startLabel(ids); opened && k == noEvent {
		return false
	}
	return p.answer(k)
}

// startLabel reports, for a family with labelOpens whose response starts
// in content, whether the text of the output ids begins with the label,
// and whether that is still open (the text so far is a shorter prefix of
// it). It decodes only the first IDs, one at a time, up to the label's
// length in text, and at most twice the label's length of them: IDs that
// take longer to spell it (IDs that decode to nothing) do not begin with
// it, so the answer is settled after a bounded prefix whatever the IDs.
func (p *thinkTag) startLabel(ids []int) (opened, pending bool) {
	f := p.fam()
	if !f.labelOpens || p.tok == nil || p.start.phase != phaseContent || p.start.inTool {
		return false, false
	}
	var text []byte
	n := 0
	for ; n < len(ids) && n < 2*len(f.label) && len(text) < len(f.label); n++ {
		text = append(text, p.tok.Decode(ids[n:n+1])...)
	}
	switch {
	case len(text) >= len(f.label):
		return strings.HasPrefix(string(text), f.label), false
	case n == 2*len(f.label):
		return false, false
	}
	return false, strings.HasPrefix(f.label, string(text))
}

// lastEvent returns the last marker or boundary in ids: a marker's index,
// boundaryEvent or noEvent, and whether a tool-call block is open at the
// end. Markers that only drop text (drops, tails) or close a tool-call
// block say nothing of where reasoning stands and are passed over.
func (p *thinkTag) lastEvent(ids []int) (k int, inTool bool) {
	if !p.textIDs {
		pos, k := marker.LastIndexAny(ids, p.seqs, p.deciders(), 0)
		// A boundary that is also a marker (PLaMo's end of turn) scopes.
		if b, _ := marker.LastIndexAny(ids, p.bounds, allOf(p.bounds), 0); b >= 0 && b >= pos {
			return boundaryEvent, false
		}
		if k < 0 && p.fam().openAtStart { // an opener that counts only as the output's first bytes
			k = marker.MatchAt(ids, 0, p.seqs, p.fam().bits[kindOpen])
		}
		return k, false
	}
	last := noEvent
	inTool = p.events(ids, 0, p.start.inTool, func(k, start, _ int, _ bool) {
		if p.decides(k, start) {
			last = k
		}
	})
	return last, inTool
}

// decides reports whether event k (a marker, or a boundary when negative),
// found starting at token start, shows where reasoning stands (see
// deciders): an opener of a family whose openers count only at the start of
// the output does at token 0.
func (p *thinkTag) decides(k, start int) bool {
	return k < 0 || p.deciders()&(1<<k) != 0 || start == 0 && p.fam().openAtStart && p.fam().kinds[k] == kindOpen
}

// deciders returns the markers that show where reasoning stands: openers,
// closers, ends and tool-call openers.
func (p *thinkTag) deciders() uint64 {
	f := p.fam()
	m := f.bits[kindClose] | f.bits[kindEnd] | f.bits[kindTool]
	if !f.openAtStart { // an opener anywhere but the start of the output is text
		m |= f.bits[kindOpen]
	}
	return m
}

func allOf[T any](s []T) uint64 { return 1<<len(s) - 1 }

func (p *thinkTag) longestMarker() int {
	n := 0
	for _, m := range p.fam().markers {
		n = max(n, len(m))
	}
	return n
}

// ExtractContentIDs returns the content IDs that follow the end of the last
// reasoning block, as the text split would give them: nil while reasoning has
// not ended, all of ids when the response starts in content and holds no
// marker.
func (p *thinkTag) ExtractContentIDs(ids []int) []int {
	if p.tok == nil {
		if !p.answer(noEvent) {
			return nil
		}
		return ids
	}
	ids = p.output(ids)
	if k, _ := p.lastEvent(ids); !p.answerFor(k, ids) {
		return nil
	}
	from, state := 0, p.start
	if b, _ := marker.LastIndexAny(ids, p.bounds, allOf(p.bounds), 0); b >= 0 {
		from = b + 1
	}
	// The last opener that counts (an opener of a family whose openers
	// count only at the output's start, only there; see decides) begins
	// the last block.
	if !p.textIDs {
		o, k := marker.LastIndexAny(ids, p.seqs, p.fam().bits[kindOpen], from)
		if k >= 0 && !p.decides(k, o) {
			o, k = 0, -1
			if from == 0 {
				k = marker.MatchAt(ids, 0, p.seqs, p.fam().bits[kindOpen])
			}
		}
		if k >= 0 {
			from, state = o+len(p.seqs[k]), tagState{phase: phaseReasoning, opened: true, seen: true}
		}
	} else {
		open := -1
		p.events(ids, from, from == 0 && p.start.inTool, func(k, start, _ int, _ bool) {
			if k >= 0 && p.fam().kinds[k] == kindOpen && p.decides(k, start) {
				open = start
			}
		})
		if open >= 0 {
			// Walk from the opener itself, which opens the block from content.
			from, state = open, tagState{phase: phaseContent}
		}
	}
	content := []int{}
	p.walk(ids[from:], state, func(id int, ph phase) {
		if ph == phaseContent {
			content = append(content, id)
		}
	})
	return content
}

// EndIDs returns the IDs of the family's closing marker in this vocabulary
// (reasoning.EndMarker), for a Gate's thinking budget; nil without a
// tokenizer or for a family without one.
func (p *thinkTag) EndIDs() []int {
	for k, kind := range p.fam().kinds {
		if kind == kindClose {
			return p.seqs[k]
		}
	}
	return nil
}

// CountReasoningTokens counts the tokens of ids that the text split puts in
// reasoning, markers excluded, starting where the response starts: pass the
// output's IDs, not the prompt's.
func (p *thinkTag) CountReasoningTokens(ids []int) int {
	if p.tok == nil {
		return 0
	}
	n := 0
	p.walk(p.output(ids), p.start, func(_ int, ph phase) {
		if ph == phaseReasoning {
			n++
		}
	})
	return n
}

// walk replays the machine over ids from state s and calls visit with each
// ID that carries text, and the section it belongs to. A tool-call opener is
// content. A token whose text falls in both sections is visited for each.
func (p *thinkTag) walk(ids []int, s tagState, visit func(id int, ph phase)) {
	if p.textIDs {
		p.walkText(ids, s, visit)
		return
	}
	f := p.fam()
	for i := 0; i < len(ids); {
		k := marker.MatchAt(ids, i, p.seqs, f.active(s))
		if k < 0 {
			visit(ids[i], s.phase)
			s.begun = true
			i++
			continue
		}
		next, keep := f.step(s, k)
		if keep {
			for _, id := range p.seqs[k] {
				visit(id, phaseContent)
			}
		}
		i += len(p.seqs[k])
		s = next
	}
}

// events calls fn for each marker found in the decoded text of ids[from:]
// with every marker looked for, with the tokens it starts and ends in
// (end exclusive, as an index into ids), and for each boundary token
// (k = boundaryEvent). A single-token marker counts only as its own token.
// Inside a tool-call block (toolBlocks) only its closers count; inTool says
// whether one is open at from, and fn is told whether one is open after
// each event. events returns whether one is open at the end.
func (p *thinkTag) events(ids []int, from int, inTool bool, fn func(k, start, end int, inTool bool)) bool {
	f := p.fam()
	t := tokenText{tok: p.tok, ids: ids[from:]}
	var sc marker.Scanner
	sc.Reset(f.markers)
	at := 0 // bytes of text consumed so far
	for i := range t.ids {
		sc.Feed(t.feed(i))
		for {
			held, before, k := sc.Next()
			at += len(held) + len(before)
			if k < 0 {
				break
			}
			first, last := t.tokens(at, at+len(f.markers[k]))
			at += len(f.markers[k])
			if p.single[k] >= 0 && (first != last || t.ids[last] != p.single[k]) {
				continue // the marker's characters, typed as other tokens
			}
			if f.toolBlocks {
				switch kind := f.kinds[k]; {
				case inTool && kind != kindToolClose:
					continue // inside a tool-call block: text
				case inTool:
					inTool = false
				case kind == kindTool:
					inTool = true
				}
			}
			fn(k, from+first, from+last+1, inTool)
		}
		// After the markers its text makes: a boundary that is also a
		// marker (PLaMo's end of turn) scopes. A new turn ends a tool-call
		// block too.
		if isBoundary(t.ids[i], p.bounds) {
			inTool = false
			fn(boundaryEvent, from+i, from+i+1, false)
		}
	}
	return inTool
}

func isBoundary(id int, bounds [][]int) bool {
	for _, b := range bounds {
		if len(b) == 1 && b[0] == id {
			return true
		}
	}
	return false
}

// walkText is walk on the tokens' decoded text: the machine runs as
// ExtractStreaming runs it, and each byte's section is credited to the token
// it came from.
func (p *thinkTag) walkText(ids []int, s tagState, visit func(id int, ph phase)) {
	var m machine
	m.reset(p.fam(), s)
	creditTokens(p.tok, ids, p.fam().markers, p.single, &m, visit)
}
