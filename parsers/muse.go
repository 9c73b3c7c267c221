package parsers

import (
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
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

// museTo begins a recipient. It is no marker of Muse's: the scanner finds
// it for the grammar, which takes it as the text it is, so that a body's
// text with none in it (nor a "t" or "to" at its end, which the scanner
// holds) may go straight to its section, while a recipient written inside
// a body is held back (see museGrammar.cand).
const museTo = "to="

// museMarkers are the markers the scanner watches, by index: Muse's
// (museFraming) and museTo.
var museMarkers = []string{museStart, museMessage, museEOM, museEOT, museTo}

// museFraming are Muse's markers.
var museFraming = museMarkers[:mmTo]

// Indexes into museMarkers.
const (
	mmStart = iota
	mmMessage
	mmEOM
	mmEOT
	mmTo
)

// A header, and a recipient written inside a body, are held back while
// waiting for <|message|> up to maxHeader bytes.

// musePhase is where a Muse parser stands.
type musePhase uint8

const (
	museInHeader  musePhase = iota // inside a header: <|start|> or a terminator consumed (or the prompt's <|start|>assistant), <|message|> not yet
	museInBody                     // inside a body: its <|message|> consumed (or its header found not to be one), routed by its header
	museHandedOff                  // muse_glimmer: a tool channel's <|message|> consumed; the rest is content, verbatim, and no marker counts
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

// headerRead is what a header's grammar has read of its text (a prompt's
// part, then the output's).
type headerRead struct {
	hg headerGrammar // how far the grammar has got
	// Where the recipient lies in the header's text: the offset after its
	// "to=", and the offset after it once spaces follow it; 0 until then
	// (a recipient never begins the text).
	nameAt, nameEnd int
}

// headerGrammar is how far a header's text has got in its grammar,
// [role] [to=recipient], with spaces between and around (and newlines
// before it); a header is held back only while its text can still be one.
// A role word may come only after <|start|>, first: the states where one
// still may are their own (hgLeadRole, hgTRole, hgToRole, hgRole).
type headerGrammar uint8

const (
	hgLead      headerGrammar = iota // only spaces so far
	hgRoleSpace                      // spaces after the role
	hgT                              // the "t" of "to="
	hgTo                             // "to"
	hgName                           // in the recipient
	hgLeadRole                       // hgLead where a role word may come
	hgTRole                          // hgT, or the start of a role word
	hgToRole                         // hgTo, or the start of a role word
	hgRole                           // in the role word ("assistant"), after a <|start|>
	// hgName where the recipient so far is the start of one Muse routes
	// by its name alone (see hgSpell), then where it is all of it.
	hgS
	hgSe
	hgSel
	hgU
	hgUs
	hgUse
	hgSelf
	hgUser
	// From here on, states where the header's reading notes where the
	// recipient lies, or ends (see museGrammar.read).
	hgEq        // "to=": the recipient begins after it
	hgTrail     // spaces after the recipient
	hgTrailSelf // hgTrail after "self"
	hgTrailUser // hgTrail after "user"
	hgBad       // not a header
	hgStates
)

// hgSpell spells "self" and "user": state g, from hgS to hgUse, goes to
// hgSpell[g-hgS].next over the byte hgSpell[g-hgS].c.
var hgSpell = [...]struct {
	c    byte
	next headerGrammar
}{{'e', hgSe}, {'l', hgSel}, {'f', hgSelf}, {'s', hgUs}, {'e', hgUse}, {'r', hgUser}}

// headerMoves is next as a table: headerMoves[g][c] is g.next(c). Its 32
// rows, the states' and unused ones, let read index it by g&31 where a
// bounds check would cost more.
var headerMoves = func() (t [32][256]headerGrammar) {
	for g := range hgStates {
		for c := range t[g] {
			t[g][c] = headerGrammar(g).next(byte(c))
		}
	}
	return t
}()

// next moves the grammar over byte c.
func (g headerGrammar) next(c byte) headerGrammar {
	switch g { // where a role word may come, as the state it is besides
	case hgLeadRole:
		g = hgLead
	case hgTRole:
		g = hgT
	case hgToRole:
		g = hgTo
	case hgRole:
		return g.step(c, true)
	default:
		return g.step(c, false)
	}
	switch n := g.step(c, true); n { // a role word may still come after these
	case hgLead:
		return hgLeadRole
	case hgT:
		return hgTRole
	case hgTo:
		return hgToRole
	default:
		return n
	}
}

// step moves the grammar over byte c, from a state that says nothing of a
// role word: role says whether one may still come (see next).
func (g headerGrammar) step(c byte, role bool) headerGrammar {
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
	case hgEq:
		switch {
		case c == 's':
			return hgS
		case c == 'u':
			return hgU
		}
		fallthrough
	case hgName:
		switch {
		case museName(c):
			return hgName
		case museSpace(c):
			return hgTrail
		}
	case hgS, hgSe, hgSel, hgU, hgUs, hgUse, hgSelf, hgUser:
		switch {
		case g < hgSelf && c == hgSpell[g-hgS].c:
			return hgSpell[g-hgS].next
		case museName(c):
			return hgName
		case museSpace(c) && g == hgSelf:
			return hgTrailSelf
		case museSpace(c) && g == hgUser:
			return hgTrailUser
		case museSpace(c):
			return hgTrail
		}
	case hgTrail, hgTrailSelf, hgTrailUser:
		if museSpace(c) {
			return g
		}
	}
	return hgBad
}

// museSpec is what the shell needs of Muse.
var museSpec = machineSpec{markers: museMarkers, scannerOnly: 1, heldBare: true} // museTo is the grammar's own

// museGrammar is Muse's grammar: messages routed by their headers' recipients.
type museGrammar struct {
	phase musePhase

	// The header being read: its text (held back), and what its grammar
	// has read of it.
	header heldText
	prefix string // header text the prompt already held
	headerRead

	route     museRoute
	recipient string
	// tool is the last recipient joined from the pieces a delta cut it in
	// (see openHeader): a tool's name, which a header that names it again
	// reads where it lies rather than join it again.
	tool string

	// A recipient written inside a body ("...to=weather.get" right before
	// <|message|>) is a header when <|message|> follows: the body's text
	// that may be one is held back.
	cand []piece
	clen int
	// found says that the driver's scanner finds museTo for the grammar,
	// as the stance it was last given says (see active): text it hands a
	// body then holds no "to=" and, but at the end of the output, ends in
	// no "t" or "to" that the text after it may make one, so that, with no
	// candidate held, none can begin in it.
	found bool

	handOff bool           // muse_glimmer: a tool channel goes to content with everything after it
	segs    segmentBuilder // muse_spark: the tool messages

	over      bool // the last message that began is not reasoning
	selfOpens int  // reasoning messages begun: the epochs of ExtractContentIDs
}

func (g *museGrammar) clone() grammar {
	c := new(museGrammar)
	g.cloneInto(c)
	return c
}

// cloneInto leaves out the header and candidate g holds, as clone does.
func (g *museGrammar) cloneInto(dst grammar) {
	c := dst.(*museGrammar)
	header, cand, segs := c.header.ps, c.cand, c.segs
	*c = *g
	c.header, c.cand, c.segs = heldText{ps: emptied(header)}, emptied(cand), segs
	g.segs.cloneInto(&c.segs)
}

func (g *museGrammar) segments() *segmentBuilder { return &g.segs }

// active says where text goes: a body's straight to its section, or a
// tool call's to its segment (muse_spark), while no recipient is held
// back; everything after a hand-off to content; a header's to the
// grammar, which holds it back (directHeld). Muse's markers count but after a hand-off, and museTo in a
// body, where the scanner finds it so that the body's text may go past
// the grammar. A held recipient moves the stance: the text that ends it
// lets the body's go direct again. museTo stays watched meanwhile, so that
// the markers watched change only at a marker (see driver.syncText). The
// driver asks active only to watch what it says, which found notes.
//
// Only a grammar that keeps segment text (the stream's, ExtractSegments')
// takes text direct: Extract and the ID walks read a body themselves,
// which costs them less than the scanner's search for museTo beside
// Muse's markers, which share no first byte with it.
func (g *museGrammar) active() stance {
	st := g.stanceNow()
	g.found = st.mask&(1<<mmTo) != 0
	return st
}

// stanceNow is active's answer.
func (g *museGrammar) stanceNow() stance {
	const framing = 1<<mmTo - 1
	switch {
	case g.phase == museInHeader:
		// A header's text may make it a body (degrade), which moves the
		// stance without the driver told (moves): the grammar reads that
		// body's text itself, found false, until the next marker's sync
		// (takeHeld declines text once no header is held).
		return stance{mask: framing, direct: directHeld}
	case g.phase == museHandedOff: // nothing is framing any more
		return stance{direct: int8(phaseContent)}
	case g.segs.off:
		return stance{mask: framing, direct: -1}
	case g.clen > 0:
		return stance{mask: framing | 1<<mmTo, moves: true, direct: -1}
	case g.route == museToReasoning:
		return stance{mask: framing | 1<<mmTo, direct: int8(phaseReasoning)}
	case g.route == museToTool:
		return stance{mask: framing | 1<<mmTo, direct: directSegment}
	}
	return stance{mask: framing | 1<<mmTo, direct: int8(phaseContent)}
}

func (g *museGrammar) ended() bool { return g.over }
func (g *museGrammar) epoch() int  { return g.selfOpens }

func (g *museGrammar) end(out emitter) {
	switch g.phase {
	case museInHeader:
		g.degrade(out)
		g.releaseCand(g.clen, out)
	case museInBody:
		g.releaseCand(g.clen, out)
	}
}

// text routes text at offset at by where the grammar stands.
func (g *museGrammar) text(s string, at int, out emitter) {
	switch g.phase {
	case museInHeader:
		g.headerRead = g.read(s)
		g.header.add(s, at)
		if g.hg == hgBad || g.header.full() {
			g.degrade(out) // not a header after all: its text is content
		}
	case museInBody:
		g.body(s, at, out)
	default:
		out(phaseContent, s, at)
	}
}

// takeHeld adds s, text at offset at, to the header held, unless it ends
// the header (see text) or the grammar reads none.
func (g *museGrammar) takeHeld(s string, at int) bool {
	if g.phase != museInHeader || g.header.n+len(s) > maxHeader {
		return false
	}
	r := g.read(s)
	if r.hg == hgBad {
		return false
	}
	g.headerRead = r
	if s != "" {
		g.header.add(s, at)
	}
	return true
}

// read returns where the header's grammar stands after s, the header's
// next text. It is small enough to be inlined (takeHeld's loop).
func (g *museGrammar) read(s string) headerRead {
	r, base := g.headerRead, len(g.prefix)+g.header.n
	for i := range len(s) {
		if r.hg = headerMoves[r.hg&31][s[i]]; r.hg >= hgEq { // past the role: where the recipient lies
			switch {
			case r.hg == hgBad:
				return r
			case r.hg == hgEq:
				r.nameAt = base + i + 1
			case r.nameEnd == 0: // hgTrail
				r.nameEnd = base + i
			}
		}
	}
	return r
}

// degrade ends a header that is not one: its text is the start of a
// content body.
func (g *museGrammar) degrade(out emitter) {
	h := g.header.ps
	g.header.reset()
	g.prefix = ""
	g.phase, g.route, g.recipient = museInBody, museToContent, ""
	for _, p := range h {
		g.body(p.s, p.at, out)
	}
}

// body sends body text where its header routes it, holding back a tail
// that may be a recipient (see cand).
func (g *museGrammar) body(s string, at int, out emitter) {
	if s == "" {
		return
	}
	// The common case, where no recipient can begin: no "to=", nor a "t"
	// or "to" at the end, or text the scanner has looked through for
	// museTo (found), such as a tool call's with its many "=".
	if c := s[len(s)-1]; g.clen == 0 && (g.found || c != 't' && c != 'o' && strings.IndexByte(s, '=') < 0) {
		g.emit(s, at, out)
		return
	}
	start := g.candStart(s)
	switch {
	case start < 0: // nothing may be a recipient
		g.releaseCand(g.clen, out)
		g.emit(s, at, out)
		return
	case start < g.clen: // the candidate goes on from inside what is held
		g.releaseCand(start, out)
		g.cand = append(g.cand, piece{s, at})
		g.clen += len(s)
	default: // a new candidate in s
		cut := start - g.clen
		g.releaseCand(g.clen, out)
		g.emit(s[:cut], at, out)
		g.cand = append(g.cand, piece{s[cut:], at + cut})
		g.clen += len(s) - cut
	}
	if g.clen > maxHeader {
		g.releaseCand(g.clen, out)
	}
}

// candStart returns where, in the held candidate followed by s, the
// longest tail that may still be a recipient written in a body begins
// ("to=" and recipient characters, or a trailing "to" or "t"); -1 when none
// does. Since '=' is no recipient character, such a tail begins at the last
// "to=", or is a bare "t" or "to" at the very end.
//
// Such a "to=" is the three bytes before the run of recipient characters
// that ends s: where that run begins 3 bytes or more into s, s's bytes
// before it tell, with no search of s (Extract's body text is long, and a
// tool call's holds many "="); otherwise the "to=" may lie in what is
// held, and toStart searches.
func (g *museGrammar) candStart(s string) int {
	j := len(s) - 1 // the last byte of s that is no recipient character
	for j >= 0 && museName(s[j]) {
		j--
	}
	switch {
	case j >= 2:
		if s[j] == '=' && s[j-1] == 'o' && s[j-2] == 't' {
			return g.clen + j - 2
		}
	case j < 0 || s[j] == '=':
		if i := g.toStart(s); i >= 0 {
			return i
		}
	}
	return g.endStart(s)
}

// toStart returns where, in the held candidate followed by s, the last
// "to=" begins that recipient characters alone follow; -1 when none does.
func (g *museGrammar) toStart(s string) int {
	if i := lastIndex(s, "to="); i >= 0 {
		if allNames(s[i+3:]) {
			return g.clen + i
		}
	} else if i := g.junction(s); i >= 0 && allNames(s[i+3-g.clen:]) {
		return i
	} else if g.clen >= 3 && allNames(s) {
		return 0 // the held "to=..." goes on
	}
	return -1
}

// endStart returns where a bare "t" or "to" that ends the held candidate
// followed by s begins; -1 when none does.
func (g *museGrammar) endStart(s string) int {
	n := g.clen + len(s)
	switch {
	case n >= 2 && g.byteAt(n-2, s) == 't' && g.byteAt(n-1, s) == 'o':
		return n - 2
	case s[len(s)-1] == 't':
		return n - 1
	}
	return -1
}

// junction returns where a "to=" that straddles the held candidate and s
// begins, or -1.
func (g *museGrammar) junction(s string) int {
	for i := max(0, g.clen-2); i < g.clen; i++ {
		ok := true
		for j := range 3 {
			if i+j >= g.clen+len(s) || g.byteAt(i+j, s) != "to="[j] {
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
func (g *museGrammar) byteAt(i int, s string) byte {
	if i >= g.clen {
		return s[i-g.clen]
	}
	return g.candByte(i)
}

// candByte returns byte i of the held candidate, looking from its end,
// where the bytes asked for are.
func (g *museGrammar) candByte(i int) byte {
	end := g.clen
	for j := len(g.cand) - 1; j >= 0; j-- {
		start := end - len(g.cand[j].s)
		if i >= start {
			return g.cand[j].s[i-start]
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
func (g *museGrammar) releaseCand(n int, out emitter) {
	if n == 0 {
		return
	}
	keep := g.cand[:0]
	for _, p := range g.cand {
		switch {
		case n >= len(p.s):
			g.emit(p.s, p.at, out)
			n -= len(p.s)
		case n > 0:
			g.emit(p.s[:n], p.at, out)
			keep = append(keep, piece{p.s[n:], p.at + n})
			n = 0
		default:
			keep = append(keep, p)
		}
	}
	g.cand = keep
	g.clen = 0
	for _, p := range keep {
		g.clen += len(p.s)
	}
}

// candRecipient returns the recipient the held candidate names, when it is
// a whole "to=name".
func (g *museGrammar) candRecipient() (string, bool) {
	if g.clen < 4 {
		return "", false
	}
	start := g.segs.slab.Begin(g.clen)
	for _, p := range g.cand {
		g.segs.slab.WriteString(p.s)
	}
	r, ok := strings.CutPrefix(g.segs.slab.End(start), "to=")
	return r, ok && r != ""
}

// emit sends body text where the body's route sends it.
func (g *museGrammar) emit(s string, at int, out emitter) {
	switch {
	case s == "":
	case g.route == museToReasoning:
		out(phaseReasoning, s, at)
	case g.route == museToContent:
		out(phaseContent, s, at)
	default:
		g.segs.add(s)
	}
}

// marker applies marker k.
func (g *museGrammar) marker(k, at int, out emitter) {
	switch g.phase {
	case museInHeader:
		switch k {
		case mmMessage:
			g.openHeader(at, out)
		case mmTo: // not reached: museTo is found only in a body
			g.text(museTo, at, out)
		default: // a header cut short by a new one or a terminator: metadata, dropped
			g.startHeader(k == mmStart)
		}
	case museInBody:
		switch k {
		case mmTo: // the grammar's own: text, which begins what may be a recipient
			g.releaseCand(g.clen, out)
			g.cand = append(g.cand, piece{museTo, at})
			g.clen = len(museTo)
		case mmMessage:
			if r, ok := g.candRecipient(); ok {
				// "to=name<|message|>" inside a body: the model began a
				// message without ending the last one.
				cand := g.cand
				g.cand, g.clen = g.cand[:0], 0
				g.open(r, routeOf(r), cand, at, out)
				return
			}
			g.releaseCand(g.clen, out)
			g.open("", museToContent, nil, at, out) // a bare header: content
		default:
			g.releaseCand(g.clen, out)
			g.startHeader(k == mmStart)
		}
	default: // not reached: nothing counts after a hand-off
		out(phaseContent, museMarkers[k], at)
	}
}

// startHeader begins reading a header: after <|start|> (a role word may
// come first), or after a terminator. The message before it has ended.
func (g *museGrammar) startHeader(afterStart bool) {
	g.segs.end()
	g.phase, g.headerRead = museInHeader, headerRead{hg: hgLead}
	if afterStart {
		g.hg = hgLeadRole
	}
	g.header.reset()
	g.prefix = ""
}

// openHeader ends the header at <|message|> (at) and starts the body.
// The header's grammar has read all of it: its recipient is the word
// after its one "to=", if any, up to the spaces after it or its end.
func (g *museGrammar) openHeader(at int, out emitter) {
	var recipient string
	var route museRoute
	switch g.hg {
	case hgSelf, hgTrailSelf: // the grammar has read it: no piece to look at
		recipient, route = "self", museToReasoning
	case hgUser, hgTrailUser:
		recipient, route = "user", museToContent
	default:
		if g.nameAt > 0 {
			end := g.nameEnd
			if end == 0 {
				end = len(g.prefix) + g.header.n
			}
			if g.nameEnd == 0 && end-g.nameAt == len(g.tool) && g.headerEnds(g.tool) {
				recipient = g.tool // the tool called last, called again, the header's end
			} else {
				i, off := g.pieceAt(g.nameAt)
				switch s := g.headerPiece(i); {
				case end <= off+len(s): // one piece holds it, as a rule
					recipient = s[g.nameAt-off : end-off]
				case end-g.nameAt == len(g.tool) && g.headerHas(g.nameAt, i, off, g.tool):
					recipient = g.tool
				default:
					recipient = g.headerSpan(g.nameAt, i, off, end)
					g.tool = recipient
				}
			}
		}
		route = routeOf(recipient)
	}
	// The text of a tool channel's header from its "to=" on, for muse_glimmer.
	var from []piece
	if skip := g.nameAt - len(museTo) - len(g.prefix); g.handOff && route == museToTool && skip >= 0 {
		for _, p := range g.header.ps {
			switch {
			case skip >= len(p.s):
				skip -= len(p.s)
			default:
				from = append(from, piece{p.s[skip:], p.at + skip})
				skip = 0
			}
		}
	}
	g.header.reset()
	g.prefix = ""
	g.open(recipient, route, from, at, out)
}

// pieceAt returns the piece of the header's text (prefix, then header)
// that holds offset from, -1 for the prefix, and the offset it begins at,
// looking from the end, where the recipient lies.
func (g *museGrammar) pieceAt(from int) (i, off int) {
	off = len(g.prefix) + g.header.n
	for i = len(g.header.ps) - 1; i >= 0; i-- {
		if off -= len(g.header.ps[i].s); from >= off {
			return i, off
		}
	}
	return -1, 0
}

// headerPiece returns piece i of the header's text, -1 for the prefix.
func (g *museGrammar) headerPiece(i int) string {
	if i < 0 {
		return g.prefix
	}
	return g.header.ps[i].s
}

// headerHas reports whether the header's text has w from offset from
// on, in piece i, which begins at offset off, and the pieces after it,
// read where it lies: the tool the last header named is not joined from
// the pieces a delta cut it in.
func (g *museGrammar) headerHas(from, i, off int, w string) bool {
	s, ps := g.headerPiece(i)[from-off:], g.header.ps[i+1:]
	for {
		n := min(len(s), len(w))
		for j := range n { // a few bytes a piece: no call to compare them
			if s[j] != w[j] {
				return false
			}
		}
		if w = w[n:]; w == "" {
			return true
		}
		if len(ps) == 0 {
			return false
		}
		s, ps = ps[0].s, ps[1:]
	}
}

// headerEnds reports whether the header's text (prefix, then header) ends
// in w, read from its end, where the recipient lies: the tool the last
// header named is not joined, nor its first piece looked for (pieceAt).
func (g *museGrammar) headerEnds(w string) bool {
	ps := g.header.ps
	for j := len(ps) - 1; j >= 0; j-- { // w is what is left to find
		s := ps[j].s
		if len(s) > len(w) { // the piece the recipient begins in
			s = s[len(s)-len(w):]
		}
		t := w[len(w)-len(s):]
		if n := len(s); n >= 4 && n <= 8 { // a ~4-byte delta's piece, most tokens: two words that overlap
			if marker.Word32(s) != marker.Word32(t) || marker.Word32(s[n-4:]) != marker.Word32(t[n-4:]) {
				return false
			}
		} else {
			for k := range len(s) { // a few bytes: no call to compare them
				if s[k] != t[k] {
					return false
				}
			}
		}
		if w = w[:len(w)-len(s)]; w == "" {
			return true
		}
	}
	return strings.HasSuffix(g.prefix, w)
}

// headerSpan returns the header's text from offset from, in piece i,
// which begins at offset off, to offset to, after that piece: joined.
func (g *museGrammar) headerSpan(from, i, off, to int) string {
	slab := &g.segs.slab
	start := slab.Begin(to - from)
	for ; off < to; i++ {
		s := g.headerPiece(i)
		slab.WriteString(s[max(from, off)-off : min(to, off+len(s))-off])
		off += len(s)
	}
	return slab.End(start)
}

// open starts the body of a message to recipient, which route routes
// (routeOf), at its <|message|> (at). head is the header's text from its
// "to=" on, which muse_glimmer hands to content with a tool channel.
func (g *museGrammar) open(recipient string, route museRoute, head []piece, at int, out emitter) {
	g.segs.end()
	g.phase, g.route, g.recipient = museInBody, route, recipient
	g.over = g.route != museToReasoning
	if g.route == museToReasoning {
		g.selfOpens++
	}
	if g.route != museToTool {
		return
	}
	if g.handOff {
		for _, p := range head {
			out(phaseContent, p.s, p.at)
		}
		out(phaseContent, museMessage, at)
		g.phase = museHandedOff
		return
	}
	g.segs.begin("", recipient, "")
}

// museStartOf returns where a response begins: forced into a reasoning body,
// or where the prompt's text from its last <|start|> leaves the grammar.
func museStartOf(cfg reasoning.Config, tok tokenizer.Tokenizer, handOff bool) *museGrammar {
	g := &museGrammar{handOff: handOff}
	if forced(cfg) {
		g.phase, g.route, g.recipient = museInBody, museToReasoning, "self"
		return g
	}
	p := &museGrammar{handOff: handOff, segs: segmentBuilder{off: true}}
	if !replay(p, museMarkers, 1<<mmStart, cfg, tok) {
		return g
	}
	g.phase, g.route, g.recipient, g.over = p.phase, p.route, p.recipient, p.over
	switch p.phase {
	case museInHeader:
		g.headerRead, g.prefix = p.headerRead, p.header.String()
	case museInBody:
		if p.route == museToTool {
			g.segs.begin("", p.recipient, "")
		}
	}
	return g
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

func init() {
	register("muse_glimmer", newMuseGlimmer, museEntry, about{engine: vllm, models: []string{"muse-glimmer"},
		summary: "recipient-routed channels: `to=self` is reasoning, `to=user` content, tool calls to content",
		aliases: []string{"muse"}})
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

func init() {
	register("muse_spark", newMuseSpark, museEntry, about{engine: dynamo, models: []string{"muse-spark"},
		summary: "as `muse_glimmer`, tool calls as segments",
		aliases: []string{"muse_spark_open"}})
}

func buildMuse(tok tokenizer.Tokenizer, cfg reasoning.Config, handOff bool) (reasoning.Parser, error) {
	return newShell(&museSpec, tok, cfg, museStartOf(cfg, tok, handOff))
}

// museEntry describes Muse's names for the registry-wide tests.
var museEntry = catalog.Entry{Markers: museFraming, Headers: true}
