package parsers

import (
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
// answer to where the response starts. Without a tokenizer no marker can be
// seen.
func (p *thinkTag) IsReasoningEnd(ids []int) bool {
	return p.endAfter(ids, 0)
}

// IsReasoningEndStreaming answers for the newest delta alone: it looks only at
// markers that end inside delta (a multi-token marker may begin before it).
// A delta without markers gets the answer for a response without markers, so
// ask it for each delta until it first reports true.
func (p *thinkTag) IsReasoningEndStreaming(ids, delta []int) bool {
	return p.endAfter(ids, max(0, len(ids)-len(delta)))
}

// endAfter answers the end check from the last marker or boundary that ends
// after position from.
func (p *thinkTag) endAfter(ids []int, from int) bool {
	startsInContent := p.start.phase == phaseContent
	if p.tok == nil {
		return startsInContent
	}
	switch k := p.lastEvent(ids, from); k {
	case noEvent, boundaryEvent:
		return startsInContent
	default:
		return p.fam().kinds[k] != kindOpen
	}
}

// lastEvent returns the last marker or boundary in ids that ends after
// position from: a marker's index, boundaryEvent or noEvent.
func (p *thinkTag) lastEvent(ids []int, from int) int {
	if !p.textIDs {
		pos, k := marker.LastIndexAny(ids, p.seqs, p.allMarkers(), from)
		// A boundary that is also a marker (PLaMo's end of turn) scopes.
		if b, _ := marker.LastIndexAny(ids, p.bounds, allOf(p.bounds), from); b >= 0 && b >= pos {
			return boundaryEvent
		}
		return k
	}
	last := noEvent
	// A marker that ends after from began at most its length in bytes, so
	// at most that many tokens, earlier.
	p.events(ids, max(0, from-p.longestMarker()), func(k, _, end int) {
		if end > from {
			last = k
		}
	})
	return last
}

func (p *thinkTag) allMarkers() uint64 { return 1<<len(p.fam().markers) - 1 }

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
	if !p.IsReasoningEnd(ids) {
		return nil
	}
	if p.tok == nil {
		return ids
	}
	from, state := 0, p.start
	if b, _ := marker.LastIndexAny(ids, p.bounds, allOf(p.bounds), 0); b >= 0 {
		from = b + 1
	}
	if !p.textIDs {
		if o, k := marker.LastIndexAny(ids, p.seqs, p.fam().bits[kindOpen], from); k >= 0 {
			from, state = o+len(p.seqs[k]), tagState{phase: phaseReasoning, opened: true, seen: true}
		}
	} else {
		open := -1
		p.events(ids, from, func(k, start, _ int) {
			if k >= 0 && p.fam().kinds[k] == kindOpen {
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

// CountReasoningTokens counts the tokens of ids that the text split puts in
// reasoning, markers excluded, starting where the response starts: pass the
// output's IDs, not the prompt's.
func (p *thinkTag) CountReasoningTokens(ids []int) int {
	if p.tok == nil {
		return 0
	}
	n := 0
	p.walk(ids, p.start, func(_ int, ph phase) {
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

// tokenText follows the decoded text of a run of tokens: where each token's
// text begins, so that a byte range of the text maps back to tokens.
type tokenText struct {
	p     *thinkTag
	ids   []int
	start []int // start[i] is the offset of token i's text; start[len] the end so far
}

// feed decodes token i, records where its text begins and returns the text.
func (t *tokenText) feed(i int) string {
	s := t.p.tok.Decode(t.ids[i : i+1])
	if len(t.start) == 0 {
		t.start = append(t.start, 0)
	}
	t.start = append(t.start, t.start[len(t.start)-1]+len(s))
	return s
}

// tokens returns the tokens whose text overlaps the bytes [a, b).
func (t *tokenText) tokens(a, b int) (first, last int) {
	last = len(t.start) - 2
	for last > 0 && t.start[last] >= b {
		last--
	}
	first = last
	for first > 0 && t.start[first] > a {
		first--
	}
	return first, last
}

// events calls fn for each marker found in the decoded text of ids[from:]
// with every marker looked for, with the tokens it starts and ends in
// (end exclusive, as an index into ids), and for each boundary token
// (k = boundaryEvent). A single-token marker counts only as its own token.
func (p *thinkTag) events(ids []int, from int, fn func(k, start, end int)) {
	t := tokenText{p: p, ids: ids[from:]}
	var sc marker.Scanner
	sc.Reset(p.fam().markers)
	at := 0 // bytes of text consumed so far
	for i := range t.ids {
		sc.Feed(t.feed(i))
		for {
			held, before, k := sc.Next()
			at += len(held) + len(before)
			if k < 0 {
				break
			}
			first, last := t.tokens(at, at+len(p.fam().markers[k]))
			at += len(p.fam().markers[k])
			if p.single[k] >= 0 && (first != last || t.ids[last] != p.single[k]) {
				continue // the marker's characters, typed as other tokens
			}
			fn(k, from+first, from+last+1)
		}
		// After the markers its text makes: a boundary that is also a
		// marker (PLaMo's end of turn) scopes.
		if isBoundary(t.ids[i], p.bounds) {
			fn(boundaryEvent, from+i, from+i+1)
		}
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

// walkText is walk on the tokens' decoded text: the machine runs as
// ExtractStreaming runs it, and each byte's section is credited to the token
// it came from.
func (p *thinkTag) walkText(ids []int, s tagState, visit func(id int, ph phase)) {
	t := tokenText{p: p, ids: ids}
	var m machine
	m.reset(p.fam(), s)
	done := [2]int{-1, -1} // by phase: the last token visited for it
	out := func(ph phase, text string, at int) {
		first, last := t.tokens(at, at+len(text))
		for i := max(first, done[ph]+1); i <= last; i++ {
			visit(ids[i], ph)
		}
		done[ph] = max(done[ph], last)
	}
	accept := func(k, at int) bool {
		if p.single[k] < 0 {
			return true
		}
		first, last := t.tokens(at, at+len(p.fam().markers[k]))
		return first == last && ids[last] == p.single[k] // else its characters, typed as other tokens
	}
	for i := range ids {
		m.feed(t.feed(i), accept, out)
	}
	m.finish(out)
}
