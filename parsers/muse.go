package parsers

import (
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/marker"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Muse's framing markers (spec vllm-channels-and-state §13.1). A turn is a
// sequence of messages
//
//	<|start|>assistant to={recipient}<|message|>{body}<|eom|>
//
// where the recipient routes the body: self is reasoning, user the answer,
// any other name a tool. <|eom|> ends a message and the turn goes on;
// <|eot|> ends the turn. The prompt ends with <|start|>assistant, so a
// response begins inside a header, with " to=self<|message|>".
const (
	museStart   = "<|start|>"
	museMessage = "<|message|>"
	museEOM     = "<|eom|>"
	museEOT     = "<|eot|>"
)

// museMarkers are the markers the scanner watches, by index.
var museMarkers = []string{museStart, museMessage, museEOM, museEOT}

// Indexes into museMarkers.
const (
	mmStart = iota
	mmMessage
	mmEOM
	mmEOT
)

// museMaxHeader bounds a header, and a recipient written inside a body,
// held back while waiting for <|message|>: real ones are a few dozen bytes.
const museMaxHeader = 256

// musePhase is where a Muse parser stands.
type musePhase uint8

const (
	museInHeader  musePhase = iota // inside a header: <|message|> has not come
	museInBody                     // inside a body, routed by its header
	museHandedOff                  // muse_glimmer: a tool channel began; the rest is content, verbatim
)

// museRoute is where a body goes.
type museRoute uint8

const (
	museToContent   museRoute = iota // to=user, a bare <|message|>, and text that is not Muse
	museToReasoning                  // to=self
	museToTool                       // any other recipient: a tool call
)

// routeOf routes a recipient.
func routeOf(recipient string) museRoute {
	switch recipient {
	case "self":
		return museToReasoning
	case "", "user":
		return museToContent
	}
	return museToTool
}

// museName reports whether c may be part of a recipient (or of the role
// word): the characters vLLM's channel header pattern allows.
func museName(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-'
}

func museSpace(c byte) bool { return c == ' ' || c == '\t' }

// headerGrammar is how far a header's text has got in its grammar,
// [role] [to=recipient], with spaces between and around (and newlines
// before it); a header is held back only while its text can still be one.
type headerGrammar uint8

const (
	hgLead      headerGrammar = iota // only spaces so far
	hgRole                           // in the role word ("assistant"), after a <|start|>
	hgRoleSpace                      // spaces after the role
	hgT                              // the "t" of "to="
	hgTo                             // "to"
	hgEq                             // "to="
	hgName                           // in the recipient
	hgTrail                          // spaces after the recipient
	hgBad                            // not a header
)

// next moves the grammar over byte c. role says whether a role word may
// still come (the header began with <|start|> and none has been seen).
func (g headerGrammar) next(c byte, role bool) headerGrammar {
	asRole := func() headerGrammar { // "t" or "to" was the start of a role word
		switch {
		case !role:
			return hgBad
		case museName(c):
			return hgRole
		case museSpace(c):
			return hgRoleSpace
		}
		return hgBad
	}
	switch g {
	case hgLead, hgRoleSpace:
		switch {
		case museSpace(c), g == hgLead && (c == '\n' || c == '\r'): // newlines only before the header
			return g
		case c == 't':
			return hgT
		case g == hgLead && role && museName(c):
			return hgRole
		}
	case hgRole:
		switch {
		case museName(c):
			return hgRole
		case museSpace(c):
			return hgRoleSpace
		}
	case hgT:
		if c == 'o' {
			return hgTo
		}
		return asRole()
	case hgTo:
		if c == '=' {
			return hgEq
		}
		return asRole()
	case hgEq, hgName:
		switch {
		case museName(c):
			return hgName
		case museSpace(c):
			return hgTrail
		}
	case hgTrail:
		if museSpace(c) {
			return hgTrail
		}
	}
	return hgBad
}

// museMachine splits Muse text into reasoning, content and, for
// muse_spark, segments.
type museMachine struct {
	sc    marker.Scanner
	phase musePhase
	pos   int // offset of the next byte the scanner returns

	// The header being read: its text (held back), how far its grammar has
	// got, and whether a role word may still come.
	header  []piece
	hlen    int
	grammar headerGrammar
	role    bool
	prefix  string // header text the prompt already held

	route     museRoute
	recipient string

	// A recipient written inside a body ("...to=weather.get" right before
	// <|message|>) is a header when <|message|> follows: the body's text
	// that may be one is held back.
	cand []piece
	clen int

	handOff bool // muse_glimmer: a tool channel goes to content with everything after it
	noSegs  bool // drop segment text (the end check's walk)

	segs []reasoning.Segment // segment pieces produced and not yet taken, but for segText
	// The text of the open segment produced and not yet taken: one piece
	// as it came (segOne), more gathered in segText.
	segOne  string
	segText []byte
	slab    marker.Slab // joins a header's or a candidate's pieces
	nseg    int         // segments begun
	segOpen bool        // the current message is a segment that has not ended

	ended     bool // the last message that began is not reasoning
	selfOpens int  // reasoning messages begun, for ExtractContentIDs
}

func (m *museMachine) reset() {
	*m = museMachine{handOff: m.handOff, noSegs: m.noSegs, segs: m.segs[:0], header: m.header[:0], cand: m.cand[:0]}
	m.sc.Reset(museMarkers)
}

func (m *museMachine) feed(text string, accept func(k, at int) bool, out emitter) {
	m.sc.Feed(text)
	for {
		held, before, k := m.sc.Next()
		m.text(held, out)
		m.text(before, out)
		if k < 0 {
			return
		}
		mk := museMarkers[k]
		at := m.pos
		m.pos += len(mk)
		if !accept(k, at) {
			m.textAt(mk, at, out)
			continue
		}
		m.marker(k, mk, at, out)
	}
}

func (m *museMachine) finish(out emitter) {
	m.text(m.sc.Flush(), out)
	switch m.phase {
	case museInHeader:
		m.degrade(out)
		m.releaseCand(m.clen, out)
	case museInBody:
		m.releaseCand(m.clen, out)
	}
}

func (m *museMachine) text(s string, out emitter) {
	if s == "" {
		return
	}
	at := m.pos
	m.pos += len(s)
	m.textAt(s, at, out)
}

// textAt routes text at offset at by where the machine stands.
func (m *museMachine) textAt(s string, at int, out emitter) {
	switch m.phase {
	case museInHeader:
		g := m.grammar
		for i := 0; i < len(s) && g != hgBad; i++ {
			g = g.next(s[i], m.role)
			if g == hgRoleSpace || g == hgEq {
				m.role = false
			}
		}
		m.grammar = g
		m.header = append(m.header, piece{s, at})
		m.hlen += len(s)
		if g == hgBad || m.hlen > museMaxHeader {
			m.degrade(out) // not a header after all: its text is content
		}
	case museInBody:
		m.body(s, at, out)
	default:
		out(phaseContent, s, at)
	}
}

// degrade ends a header that is not one: its text is the start of a
// content body.
func (m *museMachine) degrade(out emitter) {
	h := m.header
	m.header, m.hlen, m.prefix = m.header[:0], 0, ""
	m.phase, m.route, m.recipient = museInBody, museToContent, ""
	for _, p := range h {
		m.body(p.s, p.at, out)
	}
}

// body sends body text where its header routes it, holding back a tail
// that may be a recipient (see cand).
func (m *museMachine) body(s string, at int, out emitter) {
	if s == "" {
		return
	}
	start := m.candStart(s)
	switch {
	case start < 0: // nothing may be a recipient
		m.releaseCand(m.clen, out)
		m.emit(s, at, out)
		return
	case start < m.clen: // the candidate goes on from inside what is held
		m.releaseCand(start, out)
		m.cand = append(m.cand, piece{s, at})
		m.clen += len(s)
	default: // a new candidate in s
		cut := start - m.clen
		m.releaseCand(m.clen, out)
		m.emit(s[:cut], at, out)
		m.cand = append(m.cand, piece{s[cut:], at + cut})
		m.clen += len(s) - cut
	}
	if m.clen > museMaxHeader {
		m.releaseCand(m.clen, out)
	}
}

// candStart returns where, in the held candidate followed by s, the
// longest tail that may still be a recipient written in a body begins
// ("to=" and recipient characters, or a trailing "to" or "t"); -1 when none
// does. Since '=' is no recipient character, such a tail begins at the last
// "to=", or is a bare "t" or "to" at the very end.
func (m *museMachine) candStart(s string) int {
	n := m.clen + len(s)
	if i := strings.LastIndex(s, "to="); i >= 0 {
		if allNames(s[i+3:]) {
			return m.clen + i
		}
	} else if i := m.junction(s); i >= 0 && allNames(s[i+3-m.clen:]) {
		return i
	} else if m.clen >= 3 && allNames(s) {
		return 0 // the held "to=..." goes on
	}
	switch {
	case n >= 2 && m.byteAt(n-2, s) == 't' && m.byteAt(n-1, s) == 'o':
		return n - 2
	case s[len(s)-1] == 't':
		return n - 1
	}
	return -1
}

// junction returns where a "to=" that straddles the held candidate and s
// begins, or -1.
func (m *museMachine) junction(s string) int {
	for i := max(0, m.clen-2); i < m.clen; i++ {
		ok := true
		for j := range 3 {
			if i+j >= m.clen+len(s) || m.byteAt(i+j, s) != "to="[j] {
				ok = false
				break
			}
		}
		if ok {
			return i
		}
	}
	return -1
}

// byteAt returns byte i of the held candidate followed by s.
func (m *museMachine) byteAt(i int, s string) byte {
	if i >= m.clen {
		return s[i-m.clen]
	}
	return m.candByte(i)
}

// candByte returns byte i of the held candidate, looking from its end,
// where the bytes asked for are.
func (m *museMachine) candByte(i int) byte {
	end := m.clen
	for j := len(m.cand) - 1; j >= 0; j-- {
		start := end - len(m.cand[j].s)
		if i >= start {
			return m.cand[j].s[i-start]
		}
		end = start
	}
	return 0
}

func allNames(s string) bool {
	for i := 0; i < len(s); i++ {
		if !museName(s[i]) {
			return false
		}
	}
	return true
}

// releaseCand emits the first n bytes of the held candidate as body text
// and keeps the rest.
func (m *museMachine) releaseCand(n int, out emitter) {
	if n == 0 {
		return
	}
	keep := m.cand[:0]
	for _, p := range m.cand {
		switch {
		case n >= len(p.s):
			m.emit(p.s, p.at, out)
			n -= len(p.s)
		case n > 0:
			m.emit(p.s[:n], p.at, out)
			keep = append(keep, piece{p.s[n:], p.at + n})
			n = 0
		default:
			keep = append(keep, p)
		}
	}
	m.cand = keep
	m.clen = 0
	for _, p := range keep {
		m.clen += len(p.s)
	}
}

// candRecipient returns the recipient the held candidate names, when it is
// a whole "to=name".
func (m *museMachine) candRecipient() (string, bool) {
	if m.clen < 4 {
		return "", false
	}
	start := m.slab.Begin(m.clen)
	for _, p := range m.cand {
		m.slab.WriteString(p.s)
	}
	r, ok := strings.CutPrefix(m.slab.End(start), "to=")
	return r, ok && r != ""
}

// emit sends body text where the body's route sends it.
func (m *museMachine) emit(s string, at int, out emitter) {
	if s == "" {
		return
	}
	switch m.route {
	case museToReasoning:
		out(phaseReasoning, s, at)
	case museToContent:
		out(phaseContent, s, at)
	default:
		if !m.noSegs {
			m.addSegText(s)
		}
	}
}

// marker applies marker k.
func (m *museMachine) marker(k int, mk string, at int, out emitter) {
	switch m.phase {
	case museHandedOff:
		out(phaseContent, mk, at)
	case museInHeader:
		switch k {
		case mmMessage:
			m.openHeader(mk, at, out)
		default: // a header cut short by a new one or a terminator: metadata, dropped
			m.startHeader(k == mmStart)
		}
	case museInBody:
		switch k {
		case mmMessage:
			if r, ok := m.candRecipient(); ok {
				// "to=name<|message|>" inside a body: the model began a
				// message without ending the last one.
				cand := m.cand
				m.cand, m.clen = m.cand[:0], 0
				m.open(r, cand, mk, at, out)
				return
			}
			m.releaseCand(m.clen, out)
			m.open("", nil, mk, at, out) // a bare header: content
		default:
			m.releaseCand(m.clen, out)
			m.closeSegment()
			m.startHeader(k == mmStart)
		}
	}
}

// startHeader begins reading a header: after <|start|> (a role word may
// come first), or after a terminator.
func (m *museMachine) startHeader(afterStart bool) {
	m.closeSegment()
	m.phase, m.grammar, m.role = museInHeader, hgLead, afterStart
	m.header, m.hlen, m.prefix = m.header[:0], 0, ""
}

// recipientOf returns the recipient a header's text names: its first
// word that begins with "to=", without it; "" when none does.
func recipientOf(header string) string {
	for header != "" {
		header = strings.TrimLeft(header, " \t\r\n")
		word := header
		if i := strings.IndexAny(header, " \t\r\n"); i >= 0 {
			word, header = header[:i], header[i:]
		} else {
			header = ""
		}
		if r, ok := strings.CutPrefix(word, "to="); ok {
			return r
		}
	}
	return ""
}

// openHeader ends the header at <|message|> and starts the body.
func (m *museMachine) openHeader(mk string, at int, out emitter) {
	raw := m.prefix
	switch {
	case raw == "" && len(m.header) == 1:
		raw = m.header[0].s
	case len(m.header) > 0:
		n := len(m.prefix)
		for _, p := range m.header {
			n += len(p.s)
		}
		start := m.slab.Begin(n)
		m.slab.WriteString(m.prefix)
		for _, p := range m.header {
			m.slab.WriteString(p.s)
		}
		raw = m.slab.End(start)
	}
	recipient := recipientOf(raw)
	// The text of a tool channel's header from its "to=" on, for muse_glimmer.
	var from []piece
	if m.handOff && routeOf(recipient) == museToTool {
		skip := len(m.prefix)
		if i := strings.Index(raw, "to="); i >= skip {
			skip = i - skip
			for _, p := range m.header {
				switch {
				case skip >= len(p.s):
					skip -= len(p.s)
				default:
					from = append(from, piece{p.s[skip:], p.at + skip})
					skip = 0
				}
			}
		}
	}
	m.header, m.hlen, m.prefix = m.header[:0], 0, ""
	m.open(recipient, from, mk, at, out)
}

// open starts the body of a message to recipient at its <|message|> (mk,
// at). head is the header's text from its "to=" on, which muse_glimmer
// hands to content with a tool channel.
func (m *museMachine) open(recipient string, head []piece, mk string, at int, out emitter) {
	m.closeSegment()
	m.phase, m.route, m.recipient = museInBody, routeOf(recipient), recipient
	m.ended = m.route != museToReasoning
	if m.route == museToReasoning {
		m.selfOpens++
	}
	if m.route != museToTool {
		return
	}
	if m.handOff {
		for _, p := range head {
			out(phaseContent, p.s, p.at)
		}
		out(phaseContent, mk, at)
		m.phase = museHandedOff
		m.sc.SetActive(0) // nothing after it is framing any more
		return
	}
	m.nseg++
	m.segOpen = true
}

// closeSegment ends the current segment, if one is open.
func (m *museMachine) closeSegment() {
	if !m.segOpen {
		return
	}
	m.segOpen = false
	if !m.noSegs {
		m.segs = append(m.segs, reasoning.Segment{Index: m.nseg - 1, Recipient: m.recipient, Text: m.takeSegText(), Done: true})
	}
}

// start sets where a response begins: forced into a reasoning body, or
// where the prompt's text from its last <|start|> leaves a machine.
func (m *museMachine) start(cfg reasoning.Config, tok tokenizer.Tokenizer) {
	if f := cfg.ForceReasoning; f != nil && *f {
		m.phase, m.route, m.recipient = museInBody, museToReasoning, "self"
		return
	}
	prompt := cfg.PromptText
	if tok != nil && len(cfg.PromptIDs) > 0 {
		prompt = tok.Decode(cfg.PromptIDs[max(0, len(cfg.PromptIDs)-256):])
	}
	i := strings.LastIndex(prompt, museStart)
	if i < 0 {
		return
	}
	p := museMachine{handOff: m.handOff, noSegs: true}
	p.reset()
	p.feed(prompt[i:], acceptAll, discard)
	p.text(p.sc.Flush(), discard)
	m.phase, m.route, m.recipient, m.ended = p.phase, p.route, p.recipient, p.ended
	switch p.phase {
	case museInHeader:
		m.grammar, m.role = p.grammar, p.role
		for _, h := range p.header {
			m.prefix += h.s
		}
	case museInBody:
		if p.route == museToTool {
			m.nseg, m.segOpen = 1, true
		}
	case museHandedOff:
		m.sc.SetActive(0)
	}
}

// addSegText adds s to the open segment's text.
func (m *museMachine) addSegText(s string) {
	switch {
	case s == "":
	case m.segOne == "" && len(m.segText) == 0:
		m.segOne = s
	case m.segOne != "":
		m.segText = append(append(m.segText[:0], m.segOne...), s...)
		m.segOne = ""
	default:
		m.segText = append(m.segText, s...)
	}
}

// takeSegText returns the open segment's text gathered so far and empties
// it; one piece costs no copy, more are copied into the slab.
func (m *museMachine) takeSegText() string {
	s := m.segOne
	if len(m.segText) > 0 {
		start := m.slab.Begin(len(m.segText))
		m.slab.Write(m.segText)
		s = m.slab.End(start)
	}
	m.segOne, m.segText = "", m.segText[:0]
	return s
}

// takeSegments returns the segment pieces produced since the last call,
// merging adjacent pieces of one segment.
func (m *museMachine) takeSegments() []reasoning.Segment {
	if m.segOpen && (m.segOne != "" || len(m.segText) > 0) {
		m.segs = append(m.segs, reasoning.Segment{Index: m.nseg - 1, Recipient: m.recipient, Text: m.takeSegText()})
	}
	if len(m.segs) == 0 {
		return nil
	}
	var out []reasoning.Segment
	for _, s := range m.segs {
		if n := len(out); n > 0 && out[n-1].Index == s.Index && !out[n-1].Done {
			out[n-1].Text += s.Text
			out[n-1].Done = s.Done
			continue
		}
		out = append(out, s)
	}
	m.segs = m.segs[:0]
	return out
}

// muse is one response's Muse parser.
type muse struct {
	m       museMachine
	initial museMachine // the machine before any output

	tok tokenizer.Tokenizer
	stream
	ended walkMemo[museMachine, *museMachine] // what IsReasoningEndStreaming saw last
}

// newMuseGlimmer builds the "muse_glimmer" parser (vLLM's MuseGlimmer
// engine parser, through its reasoning adapter).
//
// Markers: <|start|>, <|message|>, <|eom|> and <|eot|>, matched in text
// (with IDs, a marker that is one token counts only as that token). A
// message is a header, " to=self" or "<|start|>assistant to=user", then
// <|message|>, its body and <|eom|> or <|eot|>. A to=self body is reasoning;
// a to=user body, or one whose header names no recipient, is content; a
// header naming any other recipient hands a tool call over: the header from
// its "to=" on, <|message|> and everything after it are content, verbatim,
// for the tool parser. A "to=name" written right before <|message|> inside
// a body is such a header too (a model that skipped <|eom|>); "to=" in
// prose is text.
// Starts in: a header, since the prompt ends with <|start|>assistant. A
// prompt (WithPrompt) that goes further sets where; WithForceReasoning(true)
// starts in a to=self body.
// Thinking switch: none.
// Truncation: a body cut short keeps its route. Header text is dropped when
// its message begins, or when a new <|start|> or a terminator cuts it short;
// text that cannot be a header (beyond spaces, a role word and "to=name", or
// more than 256 bytes) and a header the output ends in are content, raw.
// Repeats: bodies follow one another without a separator.
// Streaming: holds back a header until <|message|> (bounded as above), a
// tail of a body that may still be "to=name", and fewer bytes than the
// longest marker while they may start one; Finish returns them as content
// or to their body.
// Upstream: spec vllm-channels-and-state §13; tests/parser/engine/
// test_muse_glimmer.py, tests/reasoning/test_muse_glimmer_*.py. vLLM's older
// regex parser joins reasoning blocks with "\n" and loses a held tail at the
// end of a stream (§13.7); we follow the engine (no separator) and lose
// nothing. The end check is the engine's only in part: a tool hand-off ends
// reasoning as there, and so does a to=user body (vLLM's bare parser says
// not, so that it can surface the answer itself); a later to=self body
// reopens it. ExtractContentIDs returns the content of those messages
// (vLLM: always empty); CountReasoningTokens counts to=self body tokens.
func newMuseGlimmer(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return buildMuse(tok, cfg, true)
}

// newMuseSpark builds the "muse_spark" parser (Dynamo's name for Muse).
//
// Markers, starts in, thinking switch, truncation, repeats, streaming: as
// muse_glimmer, except that a tool call is not handed to content: each
// message to a tool is a reasoning.Segment (see reasoning.Segmenter) with
// its recipient, ended by its terminator or the next header, and the
// messages after it are parsed as before (a to=user answer after a tool
// call is content).
// Upstream: spec peers §2.3. Dynamo's own Muse parser is not among the
// stored sources; what is known of it is its unified pass, which turns a
// tool channel into a tool call and never into content, so the tool
// channel is a segment here, as Harmony's tool calls are in openai_gptoss.
// The text split otherwise follows vLLM's engine parser (spec
// vllm-channels-and-state §13).
func newMuseSpark(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return buildMuse(tok, cfg, false)
}

func buildMuse(tok tokenizer.Tokenizer, cfg reasoning.Config, handOff bool) (reasoning.Parser, error) {
	p := &muse{tok: tok}
	if _, err := p.resolve(tok, museMarkers); err != nil {
		return nil, err
	}
	p.initial.handOff = handOff
	p.initial.reset()
	p.initial.start(cfg, tok)
	p.m = p.fresh()
	return p, nil
}

// fresh returns a machine in the state a response starts in.
func (p *muse) fresh() museMachine {
	m := p.initial
	m.header, m.cand, m.segs, m.segOne, m.segText, m.slab = nil, nil, nil, "", nil, marker.Slab{}
	return m
}

func (p *muse) Extract(output string) reasoning.Message {
	m := p.fresh()
	m.noSegs = true
	return collectText(&m, output)
}

func (p *muse) ExtractSegments(output string) []reasoning.Segment {
	m := p.fresh()
	collectText(&m, output)
	return m.takeSegments()
}

func (p *muse) ExtractStreaming(d reasoning.Delta) reasoning.Message {
	if !p.take(d) {
		return reasoning.Message{}
	}
	r, c := p.scratch()
	p.m.feed(d.Text, p.backed, func(ph phase, s string, _ int) { r.addTo(c, ph, s) })
	return p.joined(r, c)
}

func (p *muse) Finish() reasoning.Message {
	if !p.finish() {
		return reasoning.Message{}
	}
	var r, c pieces
	p.m.finish(func(ph phase, s string, _ int) { r.addTo(&c, ph, s) })
	return message(&r, &c)
}

func (p *muse) Segments() []reasoning.Segment { return p.m.takeSegments() }

// IsReasoningEnd reports whether the last message that began in ids is not
// a to=self one: a to=user answer, a bare header's content or a tool call.
// With no message in ids, the answer is where the response starts. Without
// a tokenizer no marker can be seen.
func (p *muse) IsReasoningEnd(ids []int) bool {
	if p.tok == nil {
		return p.initial.ended
	}
	w := p.walker()
	w.feed(p.tok, ids, museMarkers, p.single)
	return w.m.ended
}

// IsReasoningEndStreaming answers as IsReasoningEnd(ids) does, where delta
// is the newest part of ids. Called for the consecutive deltas of one
// sequence, it reads only the newest delta: it goes on from the machine it
// left.
func (p *muse) IsReasoningEndStreaming(ids, delta []int) bool {
	if p.tok == nil {
		return p.initial.ended
	}
	from := max(0, len(ids)-len(delta))
	if !p.ended.valid || p.ended.n != from {
		p.ended = p.walker()
		p.ended.feed(p.tok, ids[:from], museMarkers, p.single)
	}
	p.ended.feed(p.tok, ids[from:], museMarkers, p.single)
	return p.ended.m.ended
}

// walker returns a walk of the machine a response starts in, without
// segment text.
func (p *muse) walker() walkMemo[museMachine, *museMachine] {
	w := walkMemo[museMachine, *museMachine]{m: p.fresh(), valid: true}
	w.m.noSegs = true
	return w
}

// ExtractContentIDs returns the content tokens of the messages that ended
// reasoning (those after the last to=self body): nil while it has not
// ended.
func (p *muse) ExtractContentIDs(ids []int) []int {
	if !p.IsReasoningEnd(ids) {
		return nil
	}
	if p.tok == nil {
		return ids
	}
	m := p.fresh()
	m.noSegs = true
	content, opens := []int{}, m.selfOpens
	creditTokens(p.tok, ids, museMarkers, p.single, &m, func(id int, ph phase) {
		if m.selfOpens != opens {
			content, opens = content[:0], m.selfOpens
		}
		if ph == phaseContent {
			content = append(content, id)
		}
	})
	return content
}

// CountReasoningTokens counts the tokens of to=self bodies in ids, the
// output's IDs.
func (p *muse) CountReasoningTokens(ids []int) int {
	if p.tok == nil {
		return 0
	}
	m := p.fresh()
	m.noSegs = true
	return countReasoning(p.tok, ids, museMarkers, p.single, &m)
}

// The helpers below serve the channel families (Muse, Inkling) that run a
// machine of their own over text and IDs.

// countReasoning counts the tokens of ids that m, run over their text,
// puts in reasoning.
func countReasoning(tok tokenizer.Tokenizer, ids []int, markers []string, single []int, m textMachine) int {
	n := 0
	creditTokens(tok, ids, markers, single, m, func(_ int, ph phase) {
		if ph == phaseReasoning {
			n++
		}
	})
	return n
}

// A walkMemo runs a machine over token IDs one token at a time, as
// creditTokens does, keeping the machine between calls: an end check that
// follows the machine's state reads each ID once however the IDs arrive.
type walkMemo[M any, PM interface {
	*M
	textMachine
}] struct {
	m     M
	n     int  // IDs fed
	pos   int  // bytes of their text fed
	valid bool // m has been set up
}

// feed runs the machine over ids, the IDs after the n fed so far. A
// single-token marker counts only as its own token, as in creditTokens.
func (w *walkMemo[M, PM]) feed(tok tokenizer.Tokenizer, ids []int, markers []string, single []int) {
	for i := range ids {
		s := tok.Decode(ids[i : i+1])
		id, start := ids[i], w.pos
		PM(&w.m).feed(s, func(k, at int) bool {
			return single[k] < 0 || id == single[k] && at == start && len(s) == len(markers[k])
		}, discard)
		w.pos += len(s)
	}
	w.n += len(ids)
}
