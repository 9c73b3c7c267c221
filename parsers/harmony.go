package parsers

import (
	"slices"
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/marker"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Harmony's control tokens, each one special token of o200k_harmony. A
// message is
//
//	<|start|>{role}[ to={recipient}]<|channel|>{channel}[ to={recipient}][ {type}|<|constrain|>{type}]<|message|>{body}{terminator}
//
// and the terminator is <|end|> (the turn goes on), <|call|> (a tool call)
// or <|return|> (the answer).
const (
	harmonyStart     = "<|start|>"
	harmonyChannel   = "<|channel|>"
	harmonyMessage   = "<|message|>"
	harmonyConstrain = "<|constrain|>"
	harmonyEnd       = "<|end|>"
	harmonyReturn    = "<|return|>"
	harmonyCall      = "<|call|>"
	harmonyEndOfText = "<|endoftext|>"
)

// harmonyMarkers are the control tokens the scanner watches, by index.
var harmonyMarkers = []string{
	harmonyStart, harmonyChannel, harmonyMessage, harmonyConstrain,
	harmonyEnd, harmonyReturn, harmonyCall, harmonyEndOfText,
}

// Indexes into harmonyMarkers.
const (
	hmStart = iota
	hmChannel
	hmMessage
	hmConstrain
	hmEnd
	hmReturn
	hmCall
	hmEndOfText
)

// harmonyEndOfAnalysis ends an analysis message and opens the final one:
// what a Gate forces when a thinking budget runs out.
const harmonyEndOfAnalysis = harmonyEnd + harmonyStart + "assistant" + harmonyChannel + "final" + harmonyMessage

// harmonyMaxHeader bounds the header text held back while waiting for
// <|message|>: real headers are a few dozen bytes. Longer text, or text with
// a newline, is not a header, and is emitted as content.
const harmonyMaxHeader = 256

// harmonyPhase is where a Harmony parser stands.
type harmonyPhase uint8

const (
	harmonyInHeader  harmonyPhase = iota // inside a header: <|message|> has not come (a response starts here, after the prompt's <|start|>assistant)
	harmonyInBody                        // inside a body, routed by its header
	harmonyInBetween                     // a message ended; the next has not begun
)

// harmonyRoute is where a body goes.
type harmonyRoute uint8

const (
	routeContent   harmonyRoute = iota // final, recipient-less commentary, and what is malformed
	routeReasoning                     // analysis without a recipient
	routeSegment                       // addressed to a recipient: a tool call
)

// harmonyHeader is what a message header says.
type harmonyHeader struct {
	channel, recipient, contentType string
}

// route decides where the body of a message goes.
func (h harmonyHeader) route() harmonyRoute {
	switch {
	case h.recipient != "":
		return routeSegment
	case h.channel == "analysis":
		return routeReasoning
	default:
		return routeContent
	}
}

// parseHarmonyHeader reads a header's raw text: what follows <|start|> (the
// role, maybe " to=..."), then <|channel|> and the channel name with an
// optional " to=..." and content type, then an optional <|constrain|> type.
func parseHarmonyHeader(raw string) harmonyHeader {
	var h harmonyHeader
	raw = strings.TrimPrefix(raw, harmonyStart)
	// The last <|channel|> names the channel; a repeated one is junk before it.
	before, after, hasChannel := raw, "", false
	if i := strings.LastIndex(raw, harmonyChannel); i >= 0 {
		before, after, hasChannel = raw[:i], raw[i+len(harmonyChannel):], true
	}
	for f := range strings.FieldsSeq(before) {
		if r, ok := strings.CutPrefix(f, "to="); ok {
			h.recipient = r
		}
	}
	if !hasChannel {
		return h
	}
	after, constraint, _ := strings.Cut(after, harmonyConstrain)
	first := true
	for f := range strings.FieldsSeq(after) {
		switch r, ok := strings.CutPrefix(f, "to="); {
		case ok:
			h.recipient = r
		case first:
			h.channel = f
		case h.contentType == "":
			h.contentType = f
		default: // rare: allocates
			h.contentType += " " + f
		}
		first = false
	}
	if c := strings.TrimSpace(constraint); c != "" {
		h.contentType = c
	}
	return h
}

// harmonyMachine splits Harmony text into reasoning, content and segments.
type harmonyMachine struct {
	sc       marker.Scanner
	phase    harmonyPhase
	pos      int     // offset of the next byte the scanner returns
	header   []piece // the current header's text and markers, held back
	hlen     int     // bytes in header
	prefix   string  // header text the prompt already held
	msg      harmonyHeader
	route    harmonyRoute
	rawTools bool        // beam: a tool message goes to content whole, header and terminator included
	slab     marker.Slab // joins a header's pieces

	segs []reasoning.Segment // segment pieces produced and not yet taken
	// segBuf gathers the text of the open segment's last piece in segs
	// while segJoined: a piece per delta that nobody takes would otherwise
	// cost a Segment per delta.
	segBuf    []byte
	segJoined bool
	nseg      int  // segments begun
	segOpen   bool // the current message is a segment that has not ended

	finals    int  // final messages opened so far
	finalLast bool // the last header opened a final message, and no header began since
}

func (m *harmonyMachine) reset() {
	*m = harmonyMachine{rawTools: m.rawTools, segs: m.segs[:0]}
	m.sc.Reset(harmonyMarkers)
}

func (m *harmonyMachine) feed(text string, accept func(k, at int) bool, out emitter) {
	m.sc.Feed(text)
	for {
		held, before, k := m.sc.Next()
		m.text(held, out)
		m.text(before, out)
		if k < 0 {
			return
		}
		mk := harmonyMarkers[k]
		at := m.pos
		m.pos += len(mk)
		if !accept(k, at) {
			m.textAt(mk, at, out)
			continue
		}
		m.marker(k, mk, at, out)
	}
}

func (m *harmonyMachine) finish(out emitter) {
	m.text(m.sc.Flush(), out)
	if m.phase == harmonyInHeader {
		m.degrade(out)
	}
}

func (m *harmonyMachine) text(s string, out emitter) {
	if s == "" {
		return
	}
	at := m.pos
	m.pos += len(s)
	m.textAt(s, at, out)
}

// textAt routes text at offset at by where the machine stands.
func (m *harmonyMachine) textAt(s string, at int, out emitter) {
	switch m.phase {
	case harmonyInHeader:
		m.header = append(m.header, piece{s, at})
		m.hlen += len(s)
		if m.hlen > harmonyMaxHeader || strings.Contains(s, "\n") {
			m.degrade(out)
			m.phase, m.route = harmonyInBody, routeContent
		}
	case harmonyInBody:
		m.body(s, at, out)
	default:
		out(phaseContent, s, at) // text between messages: not Harmony, so shown
	}
}

// body sends body text where its header routes it.
func (m *harmonyMachine) body(s string, at int, out emitter) {
	switch {
	case m.route == routeReasoning:
		out(phaseReasoning, s, at)
	case m.route == routeContent || m.rawTools:
		out(phaseContent, s, at)
	default:
		if n := len(m.segs); n > 0 && m.segs[n-1].Index == m.nseg-1 && !m.segs[n-1].Done {
			if !m.segJoined {
				m.segBuf, m.segJoined = append(m.segBuf[:0], m.segs[n-1].Text...), true
			}
			m.segBuf = append(m.segBuf, s...)
			return
		}
		m.segs = append(m.segs, reasoning.Segment{Index: m.nseg - 1, Channel: m.msg.channel,
			Recipient: m.msg.recipient, ContentType: m.msg.contentType, Text: s})
	}
}

// joinSegBuf puts the text gathered in segBuf into the last piece of segs.
func (m *harmonyMachine) joinSegBuf() {
	if m.segJoined {
		start := m.slab.Begin(len(m.segBuf))
		m.slab.Write(m.segBuf)
		m.segs[len(m.segs)-1].Text = m.slab.End(start)
		m.segJoined = false
	}
}

// degrade emits a header that never reached <|message|> as content, raw:
// it was not a header after all, and no text is lost.
func (m *harmonyMachine) degrade(out emitter) {
	for _, p := range m.header {
		out(phaseContent, p.s, p.at)
	}
	m.header, m.hlen = m.header[:0], 0
}

// marker applies control token k.
func (m *harmonyMachine) marker(k int, mk string, at int, out emitter) {
	switch m.phase {
	case harmonyInHeader:
		switch k {
		case hmChannel, hmConstrain:
			m.header = append(m.header, piece{mk, at})
			m.hlen += len(mk)
		case hmMessage:
			m.open(mk, at, out)
		case hmStart:
			m.degrade(out) // the header before it never got its <|message|>
			m.header = append(m.header, piece{mk, at})
			m.hlen += len(mk)
			m.finalLast = false
		default: // a terminator ends a message that never had a body
			m.degrade(out)
			m.phase = harmonyInBetween
		}
	case harmonyInBody:
		switch k {
		case hmEnd, hmReturn, hmCall, hmEndOfText:
			m.close(mk, at, out)
			m.phase = harmonyInBetween
		case hmStart, hmChannel: // a new message without the old one's terminator
			m.close("", at, out)
			m.phase = harmonyInHeader
			m.header = append(m.header, piece{mk, at})
			m.hlen += len(mk)
			m.finalLast = false
		default: // <|message|> or <|constrain|> inside a body: text
			m.body(mk, at, out)
		}
	default:
		switch k {
		case hmStart, hmChannel:
			m.phase = harmonyInHeader
			m.header = append(m.header, piece{mk, at})
			m.hlen += len(mk)
			m.finalLast = false
		case hmMessage: // a body without a header
			m.msg, m.route, m.phase = harmonyHeader{}, routeContent, harmonyInBody
		}
		// A stray terminator or <|constrain|> is dropped, as markers are.
	}
}

// open ends the header at <|message|> (mk, at) and starts the body.
func (m *harmonyMachine) open(mk string, at int, out emitter) {
	start := m.slab.Begin(len(m.prefix) + m.hlen)
	m.slab.WriteString(m.prefix)
	for _, p := range m.header {
		m.slab.WriteString(p.s)
	}
	m.prefix = ""
	m.msg = parseHarmonyHeader(m.slab.End(start))
	m.route = m.msg.route()
	m.phase = harmonyInBody
	m.finalLast = m.msg.channel == "final" && m.msg.recipient == ""
	if m.finalLast {
		m.finals++
	}
	if m.route == routeSegment {
		m.nseg++
		m.segOpen = true
		if m.rawTools {
			m.degrade(out) // the header goes to content with the body, for the tool parser
			out(phaseContent, mk, at)
		}
	}
	m.header, m.hlen = m.header[:0], 0
}

// close ends the current message at its terminator mk ("" when a new
// message began without one).
func (m *harmonyMachine) close(mk string, at int, out emitter) {
	if !m.segOpen {
		return
	}
	m.segOpen = false
	if m.rawTools {
		if mk != "" {
			out(phaseContent, mk, at)
		}
		return
	}
	m.joinSegBuf()
	m.segs = append(m.segs, reasoning.Segment{Index: m.nseg - 1, Channel: m.msg.channel,
		Recipient: m.msg.recipient, ContentType: m.msg.contentType, Done: true})
}

// start sets where a response begins: after the prompt's tail, when the
// prompt holds a <|start|>, or forced into an analysis body.
func (m *harmonyMachine) start(cfg reasoning.Config, tok tokenizer.Tokenizer) {
	if f := cfg.ForceReasoning; f != nil && *f {
		m.phase, m.msg, m.route = harmonyInBody, harmonyHeader{channel: "analysis"}, routeReasoning
		return
	}
	prompt := cfg.PromptText
	if tok != nil && len(cfg.PromptIDs) > 0 {
		prompt = tok.Decode(cfg.PromptIDs[max(0, len(cfg.PromptIDs)-256):])
	}
	i := strings.LastIndex(prompt, harmonyStart)
	if i < 0 {
		return
	}
	var p harmonyMachine
	p.reset()
	p.feed(prompt[i:], acceptAll, discard)
	p.text(p.sc.Flush(), discard)
	switch p.phase {
	case harmonyInBody:
		m.phase, m.msg, m.route = harmonyInBody, p.msg, p.route
		if p.route == routeSegment {
			m.nseg, m.segOpen = 1, true
		}
	case harmonyInHeader:
		for _, h := range p.header {
			m.prefix += h.s
		}
	default:
		m.phase = harmonyInBetween
	}
}

// takeSegments returns the segment pieces produced since the last call,
// merging adjacent pieces of one segment.
func (m *harmonyMachine) takeSegments() []reasoning.Segment {
	m.joinSegBuf()
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

// harmony is one response's Harmony parser.
type harmony struct {
	m       harmonyMachine
	initial harmonyMachine // the machine before any output, for Extract

	tok    tokenizer.Tokenizer
	endIDs []int // what ends an analysis message and begins the final one, for a Gate's budget
	stream
	ended endMemo // what IsReasoningEndStreaming answered
}

// newHarmony builds the "openai_gptoss" parser (vLLM's gpt-oss reasoning
// parser together with its HarmonyParser), a real Harmony parser.
//
// Markers: the Harmony control tokens <|start|>, <|channel|>, <|message|>,
// <|constrain|>, <|end|>, <|return|>, <|call|> and <|endoftext|>, special
// tokens of o200k_harmony (with a tokenizer, only those tokens count; the
// same characters typed as ordinary tokens are text).
// Starts in: a message header, since the prompt ends with <|start|>assistant;
// a prompt (WithPrompt) that goes further sets where. Channel "analysis" is
// reasoning; "final" and recipient-less "commentary" are content; a message
// with a recipient (" to=functions.get_weather", before or after the
// channel) is a tool call: kept out of both, it is a reasoning.Segment with
// its channel, recipient and content type (see reasoning.Segmenter). Message
// bodies follow one another without a separator.
// Thinking switch: none (reasoning_effort goes into the system prompt).
// WithForceReasoning(true) starts in an analysis body.
// Truncation: a body cut short keeps its route; a header that never reaches
// <|message|> is emitted as content, raw, as is text outside any message and
// text that cannot be a header (a newline, or more than 256 bytes).
// Repeats: a new <|start|> or <|channel|> inside a body ends the message;
// stray terminators are dropped.
// Streaming: holds back a header until its <|message|> (bounded as above)
// and fewer bytes than the longest control token while they may start one.
// Upstream: spec vllm-channels-and-state §2. vLLM's non-streaming path works
// on token IDs only and joins messages of one kind with "\n"; ours works on
// text (and IDs when given) and adds nothing (streaming vLLM adds nothing
// either). vLLM decodes a malformed message raw into content; so do we, but
// only its header, without losing its body. vLLM ignores messages to
// "assistant" or built-in tools; we keep them as segments. The end check is
// vLLM's stub (always true) upstream; ours says reasoning has ended once a
// final message has begun (the last header is a "final" one and its
// <|message|> has come). CountReasoningTokens counts analysis-body tokens.
func newHarmony(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return buildHarmony(tok, cfg, false)
}

// newBeam builds the "beam" parser (Dynamo's gpt-oss parser): Harmony as
// "openai_gptoss", but a tool call goes to content whole — header,
// <|message|>, body and terminator — for a Harmony tool parser to read, as
// Dynamo reconstructs it.
//
// Markers, starts in, thinking switch, truncation, repeats, streaming: as
// openai_gptoss.
// Upstream: spec peers §2.3, Dynamo gpt_oss_parser.rs. Dynamo separates two
// analysis messages with "\n" in reasoning; we add nothing (guarantee 1).
// Dynamo re-encodes text with o200k_harmony when it has no IDs; we parse the
// text.
func newBeam(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return buildHarmony(tok, cfg, true)
}

func buildHarmony(tok tokenizer.Tokenizer, cfg reasoning.Config, rawTools bool) (reasoning.Parser, error) {
	p := &harmony{tok: tok}
	if _, err := p.resolve(tok, harmonyMarkers); err != nil {
		return nil, err
	}
	if tok != nil {
		p.endIDs = tok.Encode(harmonyEndOfAnalysis)
	}
	p.initial.rawTools = rawTools
	p.initial.reset()
	p.initial.start(cfg, tok)
	p.m = p.initial
	p.m.header = nil
	return p, nil
}

// fresh returns a machine in the state a response starts in.
func (p *harmony) fresh() harmonyMachine {
	m := p.initial
	m.header, m.segs, m.segBuf, m.slab = nil, nil, nil, marker.Slab{}
	return m
}

func (p *harmony) Extract(output string) reasoning.Message {
	m := p.fresh()
	return collectText(&m, output)
}

func (p *harmony) ExtractSegments(output string) []reasoning.Segment {
	m := p.fresh()
	collectText(&m, output)
	return m.takeSegments()
}

func (p *harmony) ExtractStreaming(d reasoning.Delta) reasoning.Message {
	if !p.take(d) {
		return reasoning.Message{}
	}
	r, c := p.scratch()
	p.m.feed(d.Text, p.backed, func(ph phase, s string, _ int) { r.addTo(c, ph, s) })
	return p.joined(r, c)
}

func (p *harmony) Finish() reasoning.Message {
	if !p.finish() {
		return reasoning.Message{}
	}
	var r, c pieces
	p.m.finish(func(ph phase, s string, _ int) { r.addTo(&c, ph, s) })
	return message(&r, &c)
}

func (p *harmony) Segments() []reasoning.Segment { return p.m.takeSegments() }

// EndIDs returns the IDs that end an analysis message and begin the final
// one (reasoning.EndMarker), for a Gate's thinking budget; nil without a
// tokenizer.
func (p *harmony) EndIDs() []int { return p.endIDs }

// IsReasoningEnd reports whether a final message has begun: the last
// header in ids is a "final" one without a recipient and its <|message|>
// has come. A <|start|> after it (a new message, the next turn) means not.
// Without a tokenizer no header can be seen.
func (p *harmony) IsReasoningEnd(ids []int) bool {
	if p.tok == nil {
		return false
	}
	if !p.singleControls() {
		m := p.walk(ids, nil)
		return m.finalLast
	}
	c, ok := p.lastChannel(ids)
	return ok && p.finalBegins(ids, c)
}

// singleControls reports whether the control tokens the end check looks for
// are single tokens, so that it can look back from the end; otherwise it
// reads all of ids.
func (p *harmony) singleControls() bool {
	return p.single[hmStart] >= 0 && p.single[hmChannel] >= 0 && p.single[hmMessage] >= 0
}

// walk runs a fresh machine over ids' decoded text, calling visit (if not
// nil) with each token and its section, and returns the machine.
func (p *harmony) walk(ids []int, visit func(m *harmonyMachine, id int, ph phase)) *harmonyMachine {
	m := p.fresh()
	creditTokens(p.tok, ids, harmonyMarkers, p.single, &m, func(id int, ph phase) {
		if visit != nil {
			visit(&m, id, ph)
		}
	})
	return &m
}

// IsReasoningEndStreaming answers as IsReasoningEnd(ids) does, where delta
// is the newest part of ids. A delta without a control token keeps the
// answer for the IDs before it, which it remembers for every length of the
// sequence it has seen (so a sequence cut back and grown again costs no
// more); so called for consecutive deltas it looks only at the newest.
func (p *harmony) IsReasoningEndStreaming(ids, delta []int) bool {
	from := max(0, len(ids)-len(delta))
	if p.singleControls() && !slices.ContainsFunc(delta, p.control) {
		if ans, ok := p.ended.at(from); ok {
			p.ended.cut(from)
			p.ended.fill(len(ids), ans)
			return ans
		}
	}
	ans := p.IsReasoningEnd(ids)
	if len(ids) > 0 {
		p.ended.cut(len(ids)) // the lengths inside delta stay unknown
		p.ended.set(len(ids), ans)
	}
	return ans
}

// control reports whether id is one of the single-token control markers.
func (p *harmony) control(id int) bool {
	for _, s := range p.single {
		if s == id && s >= 0 {
			return true
		}
	}
	return false
}

// lastChannel finds the last <|channel|> of ids that no later <|start|>
// follows.
func (p *harmony) lastChannel(ids []int) (int, bool) {
	for i := len(ids) - 1; i >= 0; i-- {
		switch ids[i] {
		case p.single[hmChannel]:
			return i, true
		case p.single[hmStart]:
			return 0, false
		}
	}
	return 0, false
}

// finalBegins reports whether the header at the <|channel|> at c is a final
// one without a recipient, complete with its <|message|>.
func (p *harmony) finalBegins(ids []int, c int) bool {
	// The header began where the machine would have begun it: at the last
	// <|start|>, or after the last control token that is not part of a
	// header. It may hold " to=..." before the channel.
	from := c
	for from > 0 {
		id := ids[from-1]
		if id == p.single[hmStart] {
			from--
			break
		}
		if p.control(id) && id != p.single[hmChannel] && id != p.single[hmConstrain] {
			break
		}
		from--
	}
	for i := c + 1; i < len(ids); i++ {
		switch ids[i] {
		case p.single[hmMessage]:
			raw := p.tok.Decode(ids[from:i])
			if len(raw) > harmonyMaxHeader || strings.Contains(raw, "\n") {
				return false // not a header, as the machine reads it
			}
			h := parseHarmonyHeader(raw)
			return h.channel == "final" && h.recipient == ""
		case p.single[hmConstrain]:
		default:
			if p.control(ids[i]) {
				return false
			}
		}
	}
	return false
}

// ExtractContentIDs returns the content tokens of the final message that
// ended reasoning, and what follows it: nil while no final message has
// begun.
func (p *harmony) ExtractContentIDs(ids []int) []int {
	if !p.IsReasoningEnd(ids) {
		return nil
	}
	content, finals := []int{}, 0
	p.walk(ids, func(m *harmonyMachine, id int, ph phase) {
		if m.finals != finals { // a later final message: its content is what counts
			content, finals = content[:0], m.finals
		}
		if ph == phaseContent {
			content = append(content, id)
		}
	})
	return content
}

// CountReasoningTokens counts the tokens of analysis bodies in ids, the
// output's IDs.
func (p *harmony) CountReasoningTokens(ids []int) int {
	if p.tok == nil {
		return 0
	}
	n := 0
	p.walk(ids, func(_ *harmonyMachine, _ int, ph phase) {
		if ph == phaseReasoning {
			n++
		}
	})
	return n
}
