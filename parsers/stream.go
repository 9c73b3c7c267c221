package parsers

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"

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
	idBits   uint64                 // bit id&63 for the ID of each marker that is one token: a filter before isMarkerID
	pending  [marker.MaxMarkers]int // by marker: IDs seen whose text has not been matched yet
	watch    uint64                 // the markers with IDs pending
	idMode   bool                   // some delta carried IDs
	finished bool
	slab     marker.Slab // joins the pieces of one delta's message
	// The prompt's IDs (WithPrompt, with a tokenizer): the ID methods
	// read a sequence that begins with them from where the response
	// starts, after them (see output).
	prompt []int
	r, c   pieces // one delta's pieces, reused
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

// takeIDs starts a delta: it reports false after Finish (the delta emits
// nothing), and counts the single-token markers among the delta's IDs.
func (s *stream) takeIDs(ids []int) bool {
	if s.finished {
		return false
	}
	if ids != nil {
		s.idMode = true
		for _, id := range ids {
			if s.idBits&(1<<(id&63)) == 0 {
				continue // the ID of no marker that is one token
			}
			for k, single := range s.single {
				if single == id && single >= 0 {
					s.pending[k]++
					s.watch |= 1 << k
				}
			}
		}
	}
	return true
}

// output returns the part of ids the response wrote: what follows the
// prompt's IDs when ids begin with them (the sequence a Gate and vLLM pass,
// prompt and output), else ids whole. So the ID methods start where the
// text split starts, whatever decided it: the prompt, its thinking switch
// or WithForceReasoning.
func (s *stream) output(ids []int) []int {
	if n := len(s.prompt); n > 0 && len(ids) >= n && slices.Equal(ids[:n], s.prompt) {
		return ids[n:]
	}
	return ids
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
		if s.pending[k]--; s.pending[k] == 0 {
			s.watch &^= 1 << k
		}
		return true
	}
	return false
}

// collectText runs m over a whole output, with text alone: what Extract
// returns. x gathers the sections; it is left empty, with nothing of output.
func collectText(m textMachine, output string, x *gather) reasoning.Message {
	gatherText(m, output, x)
	return x.message()
}

// gatherText runs m over a whole output, with text alone, and gathers in
// x the sections Extract returns (x.message takes them).
func gatherText(m textMachine, output string, x *gather) {
	x.start(output)
	out := x.emit
	m.feed(output, acceptAll, out)
	m.finish(out)
}

// gather collects the sections of a whole output (Extract) as spans of the
// output, merging a piece with the one before it where they are adjacent,
// and copies each section once at the end. A span holds no pointer, so
// that gathering costs no write barrier or collector scan per piece, and
// a shell reuses its room from one Extract to the next without holding on
// to an output (up to maxGatherRoom: keepRoom).
type gather struct {
	output string
	emit   emitter // x.add, made once
	sec    [2][]span
	size   [2]int // the length of each section's text
	// other holds text that is not the output's bytes at its offset (rare:
	// a grammar's own text); a span with n < 0 stands for other[at].
	other []string
}

// A span is the n bytes of the output at offset at, or, with n < 0, the
// string other[at] (see gather).
type span struct{ at, n int }

// maxGatherRoom bounds the room a gather keeps between outputs.
const maxGatherRoom = 16 << 10 // spans, of both sections

// start readies x for output.
func (x *gather) start(output string) {
	x.output = output
	if x.emit == nil {
		x.emit = x.add
	}
}

// add takes s, text of section ph at offset at.
func (x *gather) add(ph phase, s string, at int) {
	if s == "" {
		return
	}
	i := gatherSection(ph)
	sec := &x.sec[i]
	// s is nearly always the output's own bytes at at: equal pointers
	// say so without a call to compare them.
	if end := at + len(s); at >= 0 && end <= len(x.output) && (unsafe.StringData(s) == unsafe.StringData(x.output[at:end]) || s == x.output[at:end]) {
		x.own(i, at, len(s))
		return
	}
	x.size[i] += len(s)
	x.other = append(x.other, s)
	*sec = append(*sec, span{len(x.other) - 1, -1})
}

// gatherSection is the index in gather.sec of section ph's spans.
func gatherSection(ph phase) int {
	if ph == phaseReasoning {
		return 0
	}
	return 1
}

// own takes the n bytes of the output at offset at (n > 0), text of
// section i (see gatherSection), as add does text that is the output's
// own.
func (x *gather) own(i, at, n int) {
	sec := &x.sec[i]
	x.size[i] += n
	if k := len(*sec); k > 0 && (*sec)[k-1].n >= 0 && (*sec)[k-1].at+(*sec)[k-1].n == at {
		(*sec)[k-1].n += n
		return
	}
	*sec = append(*sec, span{at, n})
}

// message returns the gathered sections and empties x.
func (x *gather) message() reasoning.Message {
	m := reasoning.Message{Reasoning: x.text(0), Content: x.text(1)}
	x.reset()
	return m
}

// messageOwned is message, but content made of several spans, which
// message joins into a new string, is joined into a new buffer instead,
// own, that is the caller's to write (m.Content is then ""). own is nil
// where content is one span of the output or none. own holds the bytes of
// the string joinSection returns, which nothing else holds.
func (x *gather) messageOwned() (m reasoning.Message, own []byte) {
	m.Reasoning = x.text(0)
	if len(x.sec[1]) > 1 {
		own = unsafe.Slice(unsafe.StringData(x.joinSection(1)), x.size[1])
	} else {
		m.Content = x.text(1)
	}
	x.reset()
	return m, own
}

// reset empties x, keeping its room (keepRoom).
func (x *gather) reset() {
	x.keepRoom()
	x.size = [2]int{}
	clear(x.other)
	x.other, x.output = x.other[:0], ""
}

// keepRoom empties the sections' spans, keeping their room for the next
// output, up to maxGatherRoom spans in all. Where append grew it past
// that for an output that needs less, it is made anew at this output's
// size (and a little more), so that the next output as dense in markers
// grows nothing.
func (x *gather) keepRoom() {
	need := len(x.sec[0]) + len(x.sec[1])
	over := cap(x.sec[0])+cap(x.sec[1]) > maxGatherRoom
	for i, sec := range x.sec {
		switch {
		case !over:
			x.sec[i] = sec[:0]
		case need+need/16+32 <= maxGatherRoom:
			x.sec[i] = make([]span, 0, len(sec)+len(sec)/16+16)
		default:
			x.sec[i] = nil
		}
	}
}

// text returns the text of section i: a substring of the output where it
// is one span of it, else one copy, made at its final size.
func (x *gather) text(i int) string {
	spans := x.sec[i]
	switch len(spans) {
	case 0:
		return ""
	case 1:
		return x.piece(spans[0])
	}
	return x.joinSection(i)
}

// joinSection returns the text of section i, spans joined in one copy made
// at its final size. strings.Builder allocates that without clearing it
// first, as make does, only for the join to write every byte again.
func (x *gather) joinSection(i int) string {
	var b strings.Builder
	b.Grow(x.size[i])
	for _, sp := range x.sec[i] {
		b.WriteString(x.piece(sp))
	}
	return b.String()
}

// piece returns the text sp stands for.
func (x *gather) piece(sp span) string {
	if sp.n < 0 {
		return x.other[sp.at]
	}
	return x.output[sp.at : sp.at+sp.n]
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
	if r.n == 0 && c.n == 0 { // a delta held back whole, or one of markers
		return reasoning.Message{}
	}
	return reasoning.Message{Reasoning: r.join(&s.slab), Content: c.join(&s.slab)}
}

// message is the Message of the pieces gathered for reasoning and content.
func message(r, c *pieces) reasoning.Message {
	return reasoning.Message{Reasoning: r.String(), Content: c.String()}
}

// lastIndex is strings.LastIndex(s, sub), sub not empty, for a sub whose
// last byte is rare in s: it compares only where that byte is, found
// forwards by strings.IndexByte, which reads many bytes at a time, where
// strings.LastIndex hashes every byte and strings.LastIndexByte reads one
// at a time (a header's last <|channel|>, a body's last "to=").
func lastIndex(s, sub string) int {
	c, last := sub[len(sub)-1], -1
	for from := 0; ; {
		j := strings.IndexByte(s[from:], c)
		if j < 0 {
			return last
		}
		j += from
		if i := j + 1 - len(sub); i >= 0 && s[i:j+1] == sub {
			last = i
		}
		from = j + 1
	}
}

// discard is an emitter that keeps nothing.
func discard(phase, string, int) {}

// acceptAll lets every marker found count: for checks that read text alone.
func acceptAll(int, int) bool { return true }

// piece is text of the output with its offset, for machines that map text
// back to tokens.
type piece struct {
	s  string
	at int
}

// emitter receives a machine's output: text of one section and the offset
// of its first byte in all the text fed.
type emitter func(ph phase, s string, at int)

// pieces gathers the text one call emits for one section, copying only when
// there is more than one piece. The first few pieces live in the value
// itself; a streaming call joins them in its parser's slab (join), Extract
// in one allocation of the result (String).
type pieces struct {
	few  [8]string
	n    int      // pieces in few
	more []string // pieces after few is full
}

func (p *pieces) add(s string) {
	switch {
	case s == "":
	case p.n < len(p.few):
		p.few[p.n] = s
		p.n++
	default:
		p.more = append(p.more, s)
	}
}

// addTo adds s to r (p) when ph is reasoning, else to c.
func (p *pieces) addTo(c *pieces, ph phase, s string) {
	if ph == phaseReasoning {
		p.add(s)
	} else {
		c.add(s)
	}
}

// reset empties p, keeping the room it grew.
// The strings left in few are overwritten by the next delta's.
func (p *pieces) reset() {
	if len(p.more) > 0 {
		clear(p.more)
		p.more = p.more[:0]
	}
	p.n = 0
}

// join is the pieces' text, joined in slab.
func (p *pieces) join(slab *marker.Slab) string {
	switch {
	case p.n == 0:
		return ""
	case p.n == 1:
		return p.few[0]
	case len(p.more) == 0:
		return slab.Join(p.few[:p.n]...)
	}
	size := 0
	for _, s := range p.few[:p.n] {
		size += len(s)
	}
	for _, s := range p.more {
		size += len(s)
	}
	start := slab.Begin(size)
	for _, s := range p.few[:p.n] {
		slab.WriteString(s)
	}
	for _, s := range p.more {
		slab.WriteString(s)
	}
	return slab.End(start)
}

func (p *pieces) String() string {
	switch p.n {
	case 0:
		return ""
	case 1:
		return p.few[0]
	}
	size := 0
	for _, s := range p.few[:p.n] {
		size += len(s)
	}
	for _, s := range p.more {
		size += len(s)
	}
	var b strings.Builder
	b.Grow(size)
	for _, s := range p.few[:p.n] {
		b.WriteString(s)
	}
	for _, s := range p.more {
		b.WriteString(s)
	}
	return b.String()
}

// newIdentity returns the parser of a response without reasoning: the
// "identity" family, and what a family becomes when thinking is off.
func newIdentity() *identity { return new(identity) }

// identity passes everything through as content.
type identity struct{ finished bool }

func (*identity) Extract(output string) reasoning.Message {
	return reasoning.Message{Content: output}
}

func (p *identity) ExtractStreaming(d reasoning.Delta) reasoning.Message {
	if p.finished {
		return reasoning.Message{}
	}
	return reasoning.Message{Content: d.Text}
}

func (p *identity) Finish() reasoning.Message {
	p.finished = true
	return reasoning.Message{}
}

func (*identity) IsReasoningEnd([]int) bool               { return true }
func (*identity) IsReasoningEndStreaming(_, _ []int) bool { return true }
func (*identity) ExtractContentIDs(ids []int) []int       { return ids }
func (*identity) CountReasoningTokens([]int) int          { return 0 }
