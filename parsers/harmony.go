package parsers

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/marker"
	"github.com/reasoning-go/reasoning/internal/work"
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

// harmonyMask is the set of every marker of harmonyMarkers.
const harmonyMask = 1<<(hmEndOfText+1) - 1

// harmonyEndOfAnalysis ends an analysis message and opens the final one:
// what a Gate forces when a thinking budget runs out.
const harmonyEndOfAnalysis = harmonyEnd + harmonyStart + "assistant" + harmonyChannel + "final" + harmonyMessage

// A header is held back while waiting for <|message|>, up to maxHeader
// bytes: longer text, or text with a newline, is not a header, and is
// emitted as content.

// harmonyPhase is where a Harmony parser stands.
type harmonyPhase uint8

const (
	harmonyInHeader  harmonyPhase = iota // inside a header: <|start|> or <|channel|> consumed (or the prompt's <|start|>assistant), <|message|> not yet
	harmonyInBody                        // inside a body: its <|message|> consumed, routed by its header
	harmonyInBetween                     // a terminator consumed: a message ended and the next has not begun
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
// The fields it returns are substrings of raw.
func parseHarmonyHeader(raw string) harmonyHeader {
	var h harmonyHeader
	raw = strings.TrimPrefix(raw, harmonyStart)
	// The last <|channel|> names the channel; a repeated one is junk before it.
	before, after, hasChannel := raw, "", false
	if i := lastIndex(raw, harmonyChannel); i >= 0 {
		before, after, hasChannel = raw[:i], raw[i+len(harmonyChannel):], true
	}
	if strings.Contains(before, "to=") { // else the role alone, as usual
		for f, rest := nextField(before); f != ""; f, rest = nextField(rest) {
			if r, ok := strings.CutPrefix(f, "to="); ok {
				h.recipient = r
			}
		}
	}
	if !hasChannel {
		return h
	}
	after, constraint, _ := strings.Cut(after, harmonyConstrain)
	first := true
	for f, rest := nextField(after); f != ""; f, rest = nextField(rest) {
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

// nextField returns the first field of s, as strings.Fields splits s, and
// what follows it; f is "" when s holds none. It reads ASCII, which a
// header nearly always is, without strings.FieldsSeq's iterator and
// per-rune work.
func nextField(s string) (f, rest string) {
	i := 0
	for i < len(s) && fieldClass[s[i]] == asciiSpace {
		i++
	}
	j := i
	for j < len(s) && fieldClass[s[j]] == asciiWord {
		j++
	}
	if j < len(s) && fieldClass[s[j]] == notASCII { // rare
		return nextFieldRunes(s)
	}
	return s[i:j], s[j:]
}

// nextFieldRunes is nextField for s, text that is not all ASCII.
func nextFieldRunes(s string) (f, rest string) {
	i := strings.IndexFunc(s, isField)
	if i < 0 {
		return "", ""
	}
	j := strings.IndexFunc(s[i:], unicode.IsSpace)
	if j < 0 {
		return s[i:], ""
	}
	return s[i : i+j], s[i+j:]
}

// isField reports whether r is part of a field: not a space.
func isField(r rune) bool { return !unicode.IsSpace(r) }

// The classes of bytes nextField tells apart.
const (
	asciiWord  = iota // an ASCII byte that is not a space
	asciiSpace        // an ASCII space, as unicode.IsSpace says
	notASCII          // a byte of a multi-byte rune, or invalid
)

// fieldClass is the class of each byte.
var fieldClass = func() (c [256]uint8) {
	for b := utf8.RuneSelf; b < 256; b++ {
		c[b] = notASCII
	}
	for _, b := range "\t\n\v\f\r " {
		c[b] = asciiSpace
	}
	return c
}()

// keep returns s, a field of a header read from text that the next header
// overwrites, as a string of its own: the channel names Harmony defines,
// the field last kept in *last when s is the same (a model calls the same
// few tools again and again), else a copy in the segment slab, kept in
// *last.
func (g *harmonyGrammar) keep(s string, last *string) string {
	switch s {
	case "":
		return ""
	case "analysis":
		return "analysis"
	case "final":
		return "final"
	case "commentary":
		return "commentary"
	case *last:
		return *last
	}
	*last = g.segs.slab.Copy(s)
	return *last
}

// harmonySpec is what the shell needs of Harmony: its control tokens, and
// what a Gate forces when a thinking budget runs out. Every control token
// begins with "<", which a header's takeHeld refuses (heldBare).
var harmonySpec = machineSpec{markers: harmonyMarkers, endText: harmonyEndOfAnalysis, heldBare: true}

// harmonyGrammar is Harmony's grammar: messages routed by their headers.
type harmonyGrammar struct {
	phase harmonyPhase
	// The header held back (harmonyInHeader) till its <|message|>: its
	// text in raw, the prompt's part (prefix) first, and the offset (from)
	// and length (held) of the output's part. Extract and the ID walks
	// (segs.off) keep the pieces it came in besides (header), and emit
	// them as they came; a stream emits it as one piece copied from raw.
	header heldText
	from   int
	held   int
	// room is how many more bytes of header text takeHeld may take as one
	// word (its common piece) while a stream holds a header: as many as
	// keep held within maxHeader and leave raw room for the word's 8
	// bytes; 0 or less where it holds none or Extract's pieces are kept
	// (segs.off). hold sets it, and forget and cloneInto clear it.
	room     int
	prefix   string
	msg      harmonyHeader
	route    harmonyRoute
	toolOpen bool           // the current message is a tool call that has not ended
	rawTools bool           // beam: a tool message goes to content whole, header and terminator included
	segs     segmentBuilder // openai_gptoss: the tool calls

	finals    int  // final messages opened so far: the epochs of ExtractContentIDs
	finalLast bool // the last header opened a final message, and no header began since

	raw  []byte        // the header's text, as it comes; the next header's overwrites it
	kept harmonyHeader // the fields last kept by keep, each its own string
	seen headerMemo    // the headers read last, by their text
}

// headerMemo remembers the last few headers read, by their text, so that a
// model that repeats its headers (every analysis message's, every call of
// one tool) has each parsed once. A header's fields are strings of their
// own (see keep), which outlive the memo.
type headerMemo struct {
	raw  [4][]byte // the text of each header remembered, in memory of the memo's own, reused
	h    [4]harmonyHeader
	n    int // entries filled
	next int // the entry the next header not found replaces
}

// find returns the index of the header remembered for raw, a header's
// text, or -1.
func (m *headerMemo) find(raw string) int {
	for i := range m.n {
		if string(m.raw[i]) == raw {
			return i
		}
	}
	return -1
}

// add remembers h, read from raw, in place of the oldest header when the
// memo is full.
func (m *headerMemo) add(raw string, h harmonyHeader) {
	i := m.next
	m.raw[i], m.h[i] = append(m.raw[i][:0], raw...), h
	m.next = (i + 1) % len(m.raw)
	m.n = max(m.n, i+1)
}

// reset returns m with nothing remembered, its memory kept for reuse (as
// the function emptied keeps a slice's) but where a long header grew it.
func (m *headerMemo) reset() headerMemo {
	var e headerMemo
	for i, b := range m.raw {
		if cap(b) <= maxReuse {
			e.raw[i] = b[:0]
		}
	}
	return e
}

func (g *harmonyGrammar) clone() grammar {
	c := new(harmonyGrammar)
	g.cloneInto(c)
	return c
}

// cloneInto leaves out the header g holds and the headers it remembers
// (seen), as clone does.
func (g *harmonyGrammar) cloneInto(dst grammar) {
	c := dst.(*harmonyGrammar)
	header, segs, raw, seen := c.header.ps, c.segs, c.raw, c.seen.reset()
	if cap(raw) > maxReuse {
		raw = nil
	}
	*c = *g
	c.header, c.segs, c.raw, c.seen = heldText{ps: emptied(header)}, segs, append(raw[:0], g.prefix...), seen
	c.from, c.held, c.room = 0, 0, 0
	g.segs.cloneInto(&c.segs)
}

func (g *harmonyGrammar) segments() *segmentBuilder { return &g.segs }
func (g *harmonyGrammar) ended() bool               { return g.finalLast }
func (g *harmonyGrammar) epoch() int                { return g.finals }

func (g *harmonyGrammar) end(out emitter) {
	if g.phase == harmonyInHeader {
		g.degrade(out)
	}
}

// active says that every marker counts, and where text goes: a header's
// text to the grammar, which holds it (directHeld), a body's that is
// reasoning or content, and text between messages, straight to its
// section, and a tool call's straight to its segment. Text that ends a
// header (see text) changes only where text goes, which the grammar still
// gets right (takeHeld declines text once no header is held): the stance
// does not move with it, so the driver does not ask after every piece of a
// header.
func (g *harmonyGrammar) active() stance {
	t := &harmonyDirect
	if g.rawTools {
		t = &beamDirect
	}
	return stance{mask: harmonyMask, direct: t[g.phase&3][g.route&3]}
}

// harmonyDirect is active's direct by phase and route, and beamDirect the
// same where a tool message goes to content whole (rawTools).
var harmonyDirect, beamDirect = harmonyDirectOf(false), harmonyDirectOf(true)

// harmonyDirectOf returns active's table of direct, indexed by phase and
// route (each below 3, the table 4 by 4 so that a mask of 3 bounds them).
func harmonyDirectOf(rawTools bool) (t [4][4]int8) {
	for p := range t {
		for r := range t[p] {
			switch ph, route := harmonyPhase(p), harmonyRoute(r); {
			case ph == harmonyInHeader:
				t[p][r] = directHeld
			case ph == harmonyInBetween:
				t[p][r] = int8(phaseContent)
			case route == routeReasoning:
				t[p][r] = int8(phaseReasoning)
			case route == routeContent || rawTools:
				t[p][r] = int8(phaseContent)
			default:
				t[p][r] = directSegment
			}
		}
	}
	return t
}

// text routes text at offset at by where the grammar stands.
func (g *harmonyGrammar) text(s string, at int, out emitter) {
	switch g.phase {
	case harmonyInHeader:
		if !g.segs.off && g.takeHeld(s, at) { // a stream's common piece: it stays a header's
			return
		}
		if len(s) > maxHeader { // no header, and too long to copy into raw
			g.degrade(out)
			g.phase, g.route = harmonyInBody, routeContent
			out(phaseContent, s, at)
			return
		}
		g.hold(s, at)
		if g.held > maxHeader || strings.IndexByte(s, '\n') >= 0 {
			g.degrade(out)
			g.phase, g.route = harmonyInBody, routeContent
		}
	case harmonyInBody:
		g.body(s, at, out)
	default:
		out(phaseContent, s, at) // text between messages: not Harmony, so shown
	}
}

// takeHeld adds s, text at offset at, to the header held, unless it ends
// the header (see text), the grammar holds none, or s holds a "<", the
// first byte of every control token (harmonySpec.heldBare), which text
// then holds as hold does.
func (g *harmonyGrammar) takeHeld(s string, at int) bool {
	if n, r := len(s), len(g.raw); uint(n-1) < 8 && n <= g.room {
		// The common piece, a delta of a stream's header or what a
		// control token leaves of one: read as one word of its bytes
		// (zeros past its end), looked at for a newline and written to
		// raw so, in one store (past its end until it is taken), which
		// costs less than strings.IndexByte's call and hold's append.
		var x uint64
		if n >= 4 { // two words of 4 that overlap where n < 8
			x = uint64(marker.Word32(s)) | uint64(marker.Word32(s[n-4:]))<<(8*(n-4))
		} else { // s[0], s[n/2] and s[n-1] are all of s
			x = uint64(s[0]) | uint64(s[n>>1])<<(8*(n>>1)) | uint64(s[n-1])<<(8*(n-1))
		}
		if marker.HoldsByte(x, '\n') || marker.HoldsByte(x, '<') {
			return false
		}
		binary.LittleEndian.PutUint64(g.raw[r:r+8], x) // room leaves raw these 8 bytes
		if work.Counting && at != g.from+g.held {
			panic(fmt.Sprintf("parsers: Harmony header text at %d, not after the %d bytes held from %d", at, g.held, g.from))
		}
		g.raw = g.raw[:r+n]
		g.held += n
		g.room -= n
		return true
	}
	if g.phase != harmonyInHeader || g.held+len(s) > maxHeader {
		return false
	}
	if strings.IndexByte(s, '\n') >= 0 || strings.IndexByte(s, '<') >= 0 {
		return false
	}
	if s != "" {
		g.hold(s, at)
	}
	return true
}

// hold adds s, text or a control token at offset at, to the header held:
// the output's next bytes.
func (g *harmonyGrammar) hold(s string, at int) {
	if g.held == 0 {
		g.from = at
	} else if work.Counting && at != g.from+g.held {
		panic(fmt.Sprintf("parsers: Harmony header text at %d, not after the %d bytes held from %d", at, g.held, g.from))
	}
	g.held += len(s)
	g.raw = append(g.raw, s...)
	if g.segs.off {
		g.header.add(s, at)
		return
	}
	g.room = min(maxHeader-g.held, cap(g.raw)-len(g.raw)-8)
}

// heldRaw returns the output's part of the header held, in raw.
func (g *harmonyGrammar) heldRaw() []byte { return g.raw[len(g.raw)-g.held:] }

// forget forgets the header held, the prompt's part with it.
func (g *harmonyGrammar) forget() {
	g.header.reset()
	g.raw, g.prefix, g.held, g.room = g.raw[:0], "", 0, 0
}

// body sends body text where its header routes it.
func (g *harmonyGrammar) body(s string, at int, out emitter) {
	switch {
	case g.route == routeReasoning:
		out(phaseReasoning, s, at)
	case g.route == routeContent || g.rawTools:
		out(phaseContent, s, at)
	default:
		g.segs.add(s)
	}
}

// degrade emits a header that never reached <|message|> as content, raw:
// it was not a header after all, and no text is lost. The prompt's part of
// it (prefix) was not a header either, and is forgotten.
func (g *harmonyGrammar) degrade(out emitter) {
	switch {
	case g.segs.off:
		g.header.release(phaseContent, out)
	case g.held > 0:
		slab := &g.segs.slab
		start := slab.Begin(g.held)
		slab.Write(g.heldRaw())
		out(phaseContent, slab.End(start), g.from)
	}
	g.forget()
}

// beginHeader starts a header with control token mk at offset at.
func (g *harmonyGrammar) beginHeader(mk string, at int) {
	g.phase = harmonyInHeader
	g.hold(mk, at)
	g.finalLast = false
}

// marker applies control token k.
func (g *harmonyGrammar) marker(k, at int, out emitter) {
	switch g.phase {
	case harmonyInHeader:
		switch k {
		case hmChannel, hmConstrain:
			g.hold(harmonyMarkers[k], at)
		case hmMessage:
			g.open(at, out)
		case hmStart:
			g.degrade(out) // the header before it never got its <|message|>
			g.beginHeader(harmonyMarkers[k], at)
		default: // a terminator ends a message that never had a body
			g.degrade(out)
			g.phase = harmonyInBetween
		}
	case harmonyInBody:
		switch k {
		case hmEnd, hmReturn, hmCall, hmEndOfText:
			g.close(harmonyMarkers[k], at, out)
			g.phase = harmonyInBetween
		case hmStart, hmChannel: // a new message without the old one's terminator
			g.close("", at, out)
			g.beginHeader(harmonyMarkers[k], at)
		default: // <|message|> or <|constrain|> inside a body: text
			g.body(harmonyMarkers[k], at, out)
		}
	default:
		switch k {
		case hmStart, hmChannel:
			g.beginHeader(harmonyMarkers[k], at)
		case hmMessage: // a body without a header
			g.msg, g.route, g.phase = harmonyHeader{}, routeContent, harmonyInBody
		}
		// A stray terminator or <|constrain|> is dropped, as markers are.
	}
}

// open ends the header at its <|message|> (at) and starts the body.
func (g *harmonyGrammar) open(at int, out emitter) {
	g.readHeader()
	g.route = g.msg.route()
	g.phase = harmonyInBody
	g.finalLast = g.msg.channel == "final" && g.msg.recipient == ""
	if g.finalLast {
		g.finals++
	}
	if g.route == routeSegment {
		g.toolOpen = true
		if g.rawTools {
			g.rawHeader(at, out) // the header goes to content with the body, for the tool parser
		} else {
			g.segs.begin(g.msg.channel, g.msg.recipient, g.msg.contentType)
		}
	}
	g.forget()
}

// rawHeader sends the header held and its <|message|>, at offset at, to
// content, as degrade sends a header; a stream's with its <|message|> in
// one piece.
func (g *harmonyGrammar) rawHeader(at int, out emitter) {
	if g.segs.off || g.held == 0 {
		g.degrade(out)
		out(phaseContent, harmonyMessage, at)
		return
	}
	slab := &g.segs.slab
	start := slab.Begin(g.held + len(harmonyMessage))
	slab.Write(g.heldRaw())
	slab.WriteString(harmonyMessage)
	out(phaseContent, slab.End(start), g.from)
	g.forget()
}

// readHeader parses the header held, its text in raw (the prompt's part
// first), into msg. Its fields are kept (see keep) so that none points into
// raw; the memo (seen) remembers it, and a header it has is not parsed
// again.
func (g *harmonyGrammar) readHeader() {
	raw := unsafe.String(unsafe.SliceData(g.raw), len(g.raw))
	if i := g.seen.find(raw); i >= 0 {
		g.msg = g.seen.h[i]
		return
	}
	h := parseHarmonyHeader(raw)
	h.channel = g.keep(h.channel, &g.kept.channel)
	h.recipient = g.keep(h.recipient, &g.kept.recipient)
	h.contentType = g.keep(h.contentType, &g.kept.contentType)
	g.seen.add(raw, h)
	g.msg = h
}

// close ends the current message at its terminator mk ("" when a new
// message began without one).
func (g *harmonyGrammar) close(mk string, at int, out emitter) {
	if !g.toolOpen {
		return
	}
	g.toolOpen = false
	if !g.rawTools {
		g.segs.end()
	} else if mk != "" {
		out(phaseContent, mk, at)
	}
}

// harmonyStartOf returns where a response begins: after the prompt's tail,
// when the prompt holds a <|start|>, or forced into an analysis body.
func harmonyStartOf(cfg reasoning.Config, tok tokenizer.Tokenizer, rawTools bool) *harmonyGrammar {
	g := &harmonyGrammar{rawTools: rawTools}
	if forced(cfg) {
		g.phase, g.msg, g.route = harmonyInBody, harmonyHeader{channel: "analysis"}, routeReasoning
		return g
	}
	p := &harmonyGrammar{rawTools: rawTools, segs: segmentBuilder{off: true}}
	if !replay(p, harmonyMarkers, 1<<hmStart, cfg, tok) {
		return g
	}
	switch p.phase {
	case harmonyInBody:
		g.phase, g.msg, g.route = harmonyInBody, p.msg, p.route
		if p.route == routeSegment {
			g.toolOpen = true
			if !rawTools {
				g.segs.begin(p.msg.channel, p.msg.recipient, p.msg.contentType)
			}
		}
	case harmonyInHeader:
		g.raw = append(g.raw, p.raw...) // p's is all the prompt's
		g.prefix = string(g.raw)
	default:
		g.phase = harmonyInBetween
	}
	return g
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

func init() {
	register("openai_gptoss", newHarmony, harmonyEntry, about{engine: vllm, models: []string{"gpt-oss"},
		summary: "Harmony channels: `analysis` is reasoning, `final` and plain `commentary` content, messages with a recipient segments",
		aliases: []string{"gpt_oss"}})
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

func init() {
	register("beam", newBeam, harmonyEntry, about{engine: dynamo,
		summary: "Harmony, as `openai_gptoss`; tool calls kept whole in content"})
}

func buildHarmony(tok tokenizer.Tokenizer, cfg reasoning.Config, rawTools bool) (reasoning.Parser, error) {
	return newShell(&harmonySpec, tok, cfg, harmonyStartOf(cfg, tok, rawTools))
}

// idRules gives Harmony's end check its look-back, when every control
// token is a single token (see harmonyLookBack): the look-back reads any
// other ID as text, which a control token of several IDs is not to the
// grammar. Else the IDs are walked.
func (g *harmonyGrammar) idRules(s *shell) idRules {
	if !s.allOne {
		return nil
	}
	return harmonyLookBack{walkRules{s}}
}

// harmonyLookBack are Harmony's ID rules: the end check looks back from the end
// of the IDs, the rest walks them. A final message has begun when the last
// header in ids is a "final" one without a recipient and its <|message|>
// has come. A <|start|> after it (a new message, the next turn) means not.
type harmonyLookBack struct{ walkRules }

func (h harmonyLookBack) ended(ids []int) bool {
	g := h.s.initial.(*harmonyGrammar)
	inHeader := g.phase == harmonyInHeader
	c, found := lastChannel(h.s.single, ids)
	if !found {
		// Only the header the prompt began (prefix) may hold the channel.
		if !inHeader || g.prefix == "" || slices.Contains(ids, h.s.single[hmStart]) {
			return false
		}
		c = -1
	}
	return finalBegins(h.s.tok, h.s.single, ids, c, inHeader, g.prefix)
}

// endAfter looks back again, unless the IDs after from keep the answer
// (see shell.keeps).
func (h harmonyLookBack) endAfter(m *endMemo, ids []int, from int, v int8, known bool) int8 {
	if h.s.keeps(ids, from, known) {
		m.fillValue(len(ids), v)
		return v
	}
	return int8(bit(h.ended(ids)))
}

// lastChannel finds the last <|channel|> of ids that no later <|start|>
// follows.
func lastChannel(single, ids []int) (int, bool) {
	for i := len(ids) - 1; i >= 0; i-- {
		switch ids[i] {
		case single[hmChannel]:
			return i, true
		case single[hmStart]:
			return 0, false
		}
	}
	return 0, false
}

// finalBegins reports whether the header at the <|channel|> at c is a final
// one without a recipient, complete with its <|message|>; the response
// starts in a header when inHeader, whose text in the prompt is prefix
// (c is -1 where that header holds the channel).
func finalBegins(tok tokenizer.Tokenizer, single, ids []int, c int, inHeader bool, prefix string) bool {
	// The header may hold " to=..." before the channel. It began where the
	// grammar began it, at or after the last <|start|> or the last control
	// token that is not part of a header (from): see headerStart.
	from := max(c, 0)
	for from > 0 {
		id := ids[from-1]
		if id == single[hmStart] {
			from--
			inHeader = true
			break
		}
		if isMarkerID(single, id) && id != single[hmChannel] && id != single[hmConstrain] {
			inHeader = false // a body or text between messages follows it
			break
		}
		from--
	}
	for i := c + 1; i < len(ids); i++ {
		switch ids[i] {
		case single[hmMessage]:
			start, ok := headerStart(tok, single, ids, from, i, inHeader)
			if !ok {
				return false // not a header, as the grammar reads it
			}
			raw := tok.Decode(ids[max(start, 0):i])
			if start < 0 { // the prompt's header
				raw = prefix + raw
			}
			h := parseHarmonyHeader(raw)
			return h.channel == "final" && h.recipient == ""
		case single[hmConstrain]:
		default:
			if isMarkerID(single, ids[i]) {
				return false
			}
		}
	}
	return false
}

// headerStart reads ids[from:end] as the grammar does, from where it
// stands in a header when inHeader, and returns where the header it stands
// in at end began (-1: before from, the one it stood in), or false where
// it stands in none. ids[from:end] hold no
// control token but <|start|> (first, if any), <|channel|> and
// <|constrain|>. A header ends, not one, at text with a newline or that
// takes it past maxHeader bytes (see harmonyGrammar.text): a control token
// alone does not end it. A <|channel|> outside a header begins one
// (marker).
func headerStart(tok tokenizer.Tokenizer, single, ids []int, from, end int, inHeader bool) (int, bool) {
	start, held := from, 0
	if inHeader {
		start = -1 // the header the response starts in, unless one begins
	}
	for j := from; j < end; {
		switch id := ids[j]; {
		case id == single[hmStart] || id == single[hmChannel] && !inHeader:
			start, held, inHeader = j, len(harmonyStart), true
			if id == single[hmChannel] {
				held = len(harmonyChannel)
			}
			j++
		case !inHeader:
			j++
		case id == single[hmChannel]:
			held += len(harmonyChannel)
			j++
		case id == single[hmConstrain]:
			held += len(harmonyConstrain)
			j++
		default: // a run of text, whose bytes the grammar checks as they come
			k := j + 1
			for k < end && !isMarkerID(single, ids[k]) {
				k++
			}
			t := tok.Decode(ids[j:k])
			if held += len(t); held > maxHeader || strings.IndexByte(t, '\n') >= 0 {
				inHeader = false
			}
			j = k
		}
	}
	return start, inHeader
}

// harmonyEntry describes Harmony's names for the registry-wide tests.
var harmonyEntry = catalog.Entry{Markers: harmonyMarkers, Headers: true}
