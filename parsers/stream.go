package parsers

import (
	"fmt"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/marker"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// stream is the per-response shell every machine-driven family shares:
// resolving its markers, spec policy 5 (IDs beat text) and the end of the
// stream. A family embeds it beside its machine.
type stream struct {
	// IDs beat text: once deltas carry IDs, a single-token marker's text
	// counts only as far as its ID has been seen.
	single   []int                  // by marker: its ID when it is one token, else -1
	pending  [marker.MaxMarkers]int // by marker: IDs seen whose text has not been matched yet
	idMode   bool                   // some delta carried IDs
	finished bool
	slab     marker.Slab // joins the pieces of one delta's message
	r, c     pieces      // one delta's pieces, reused
}

// resolve resolves markers against tok (nil: text only), notes which are
// single tokens and returns their delimiters. An error names the marker.
func (s *stream) resolve(tok tokenizer.Tokenizer, markers []string) ([]tokenizer.Delimiter, error) {
	delims := make([]tokenizer.Delimiter, len(markers))
	s.single = make([]int, len(markers))
	for i, text := range markers {
		d, err := tokenizer.Resolve(tok, text)
		if err != nil {
			return nil, fmt.Errorf("delimiter %q: %w", text, err)
		}
		delims[i], s.single[i] = d, -1
		if d.Single() {
			s.single[i] = d.IDs[0]
		}
	}
	return delims, nil
}

// take starts a delta: it reports false after Finish (the delta emits
// nothing), and counts the single-token markers among the delta's IDs.
// Each family then feeds the delta's text to its machine with a direct call,
// which keeps the callbacks on the stack.
func (s *stream) take(d reasoning.Delta) bool {
	if s.finished {
		return false
	}
	if d.IDs != nil {
		s.idMode = true
		for _, id := range d.IDs {
			for k, single := range s.single {
				if single == id && single >= 0 {
					s.pending[k]++
				}
			}
		}
	}
	return true
}

// finish reports whether Finish runs for the first time, and spends the
// stream.
func (s *stream) finish() bool {
	if s.finished {
		return false
	}
	s.finished = true
	return true
}

// backed reports whether marker k found in text counts: always with text
// alone or for a marker that is several tokens; with IDs, a single-token
// marker only when its ID has arrived, which it uses up.
func (s *stream) backed(k, _ int) bool {
	if !s.idMode || s.single[k] < 0 {
		return true
	}
	if s.pending[k] > 0 {
		s.pending[k]--
		return true
	}
	return false
}

// collectText runs m over a whole output, with text alone: what Extract
// returns.
func collectText(m textMachine, output string) reasoning.Message {
	var r, c pieces
	out := func(ph phase, s string, _ int) { r.addTo(&c, ph, s) }
	m.feed(output, acceptAll, out)
	m.finish(out)
	return message(&r, &c)
}

// scratch returns the pieces of reasoning and content for one delta, empty.
func (s *stream) scratch() (r, c *pieces) {
	s.r.reset()
	s.c.reset()
	return &s.r, &s.c
}

// joined is the Message of one delta's pieces: joined in the stream's slab,
// so that a delta costs no allocation when it joins held text with new.
func (s *stream) joined(r, c *pieces) reasoning.Message {
	return reasoning.Message{Reasoning: r.join(&s.slab), Content: c.join(&s.slab)}
}

// message is the Message of the pieces gathered for reasoning and content.
func message(r, c *pieces) reasoning.Message {
	return reasoning.Message{Reasoning: r.String(), Content: c.String()}
}

// discard is an emitter that keeps nothing.
func discard(phase, string, int) {}

// acceptAll lets every marker found count: for checks that read text alone.
func acceptAll(int, int) bool { return true }
