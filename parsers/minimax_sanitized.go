package parsers

import (
	"unicode"
	"unicode/utf8"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/marker"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// newMiniMaxM2Sanitized builds the "minimax_m2_sanitized" parser (the vLLM
// pull request's MiniMaxM2SanitizedReasoningParser: minimax_m2, with
// spaced-out file names in content joined; see normalizePaths).
//
// Markers: as minimax_m2: <think> and </think>; <minimax:tool_call> ends
// reasoning and stays in content.
// Starts in: reasoning, as minimax_m2.
// Thinking switch: none.
// Truncation: an output without </think> is all reasoning.
// Repeats: as minimax_m2. Reasoning is never rewritten, nor are the IDs
// ExtractContentIDs returns.
// Streaming: as minimax_m2; content also holds back a run of whitespace and
// dots after a name (at most 64 bytes: a longer run is left alone), and up
// to 17 bytes after it, until they show whether the run is rewritten.
// Finish rewrites or returns what is held.
// Upstream: spec field-names §12; vllm/reasoning/minimax_m2_sanitized_reasoning_parser.py
// @ee33461a, vllm/parser/path_normalizer.py and
// tests/reasoning/test_minimax_m2_sanitized_reasoning_parser.py@8eedc75d.
// vLLM normalises each streamed content delta alone, so a name cut across
// deltas is missed there; ours agrees with its extract (spec policy 2).
// Upstream's false positive is kept ("see v2 . Next" gives "see v2.Next").
// Upstream makes the run one "." and drops any Unicode whitespace in it;
// ours keeps its dots ("a . . py" is "a..py", "Step2... Next" is
// "Step2...Next") and leaves a run with other whitespace than ASCII space,
// tab and line ends alone, so that only such whitespace is dropped (spec
// policy 3; cases "policy:3/..."). Upstream joins a run of any length;
// ours leaves one longer than 64 bytes alone, so that a stream holds back
// a bounded amount (case "ours:minimax_m2_sanitized/long-run-kept").
func newMiniMaxM2Sanitized(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	p, err := minimaxM2Family.newParser(tok, cfg)
	if err != nil {
		return nil, err
	}
	return &sanitized{Parser: p}, nil
}

func init() {
	register("minimax_m2_sanitized", newMiniMaxM2Sanitized, minimaxM2Family.entry(), about{engine: vllmPR,
		summary: "as `minimax_m2`, with spaced-out file names in content joined (`main . py` → `main.py`)"})
}

// sanitized is a minimax_m2 parser whose content goes through the path
// normaliser: the path rule, then the name rule over its output.
type sanitized struct {
	reasoning.Parser
	paths pathRule
	names nameRule
}

func (p *sanitized) Extract(output string) reasoning.Message {
	m := p.Parser.Extract(output)
	m.Content = normalizePaths(m.Content)
	return m
}

// normalizePaths applies the normaliser to a whole text; the streaming
// parser runs the same rules delta by delta. It joins a spaced-out file
// name: the run of spaces, tabs, line ends and dots (at least one dot)
// between a name and an extension of 1–16 ASCII letters and digits loses
// its whitespace when
//
//   - (rule a) the name ends a path, a run of characters other than
//     whitespace and "'`<>| with a / or \ inside it, and the extension is
//     followed by the end, whitespace or one of "'`),;:][|\/; or
//   - (rule b, over rule a's result) the name is a word of letters,
//     digits, _ and - (at most 256, not after a letter, digit, _, -, ., /
//     or \), the extension is followed by no letter, digit or _, and it is
//     one of nameExtensions or the name has a _, - or digit.
//
// So "main . py" is "main.py" and "the end. Done" stays. A match of rule b
// that is not rewritten still consumes its extension ("foo . bar . py"
// stays).
func normalizePaths(s string) string {
	var paths pathRule
	var names nameRule
	return normFeed(&names, normFeed(&paths, s, true), true)
}

func (p *sanitized) ExtractStreaming(d reasoning.Delta) reasoning.Message {
	m := p.Parser.ExtractStreaming(d)
	if m.Content != "" {
		m.Content = normFeed(&p.names, normFeed(&p.paths, m.Content, false), false)
	}
	return m
}

func (p *sanitized) Finish() reasoning.Message {
	m := p.Parser.Finish()
	m.Content = normFeed(&p.names, normFeed(&p.paths, m.Content, true), true)
	return m
}

// EndIDs are minimax_m2's, for a Gate's thinking budget.
func (p *sanitized) EndIDs() []int {
	if e, ok := p.Parser.(reasoning.EndMarker); ok {
		return e.EndIDs()
	}
	return nil
}

// A normRule is one rule of the normaliser: where a rewrite may begin, what
// it is, and what every other character does to the rule's state.
type normRule interface {
	filter() *normFilter
	// may reports whether r, at the current position, may begin a run
	// that the rule rewrites.
	may(r rune) bool
	// try decides the run beginning at t[i]: undecided while t may end
	// before that is known (eof false); otherwise matched, with the end of
	// the run of whitespace and dots and of the whole match, and whether it
	// is rewritten, or not matched.
	try(t string, i int, eof bool) (v verdict, sepEnd, end int, rewrite bool)
	// The run t[i:sepEnd] is rewritten as its dots.
	// step takes the character r as ordinary text.
	step(r rune)
}

type verdict uint8

const (
	noMatch verdict = iota
	matched
	undecided
)

// normFilter is what every rule holds between deltas: the text it has not
// decided yet, and what it joins output in.
type normFilter struct {
	hold string      // undecided text: a run that may be rewritten, or a rune cut in two
	buf  []byte      // output of one call, when it is not a piece of the input
	slab marker.Slab // joins held text with new, and output that is not a piece of the input
}

// normFeed runs rule over s, after the text it held; eof ends the text. It
// returns the output, a substring of the input when nothing is rewritten
// or was held.
func normFeed[R normRule](rule R, s string, eof bool) string {
	f := rule.filter()
	t := s
	if f.hold != "" {
		t, f.hold = f.slab.Join(f.hold, s), ""
	}
	o := normOut{f: f, t: t}
	i := 0
	for i < len(t) {
		r, size, ok := runeAt(t, i, eof)
		if !ok {
			break
		}
		if rule.may(r) {
			v, sepEnd, end, rewrite := rule.try(t, i, eof)
			if v == undecided {
				break
			}
			if v == matched {
				if rewrite {
					for k := i; k < sepEnd; k++ {
						if t[k] == '.' {
							o.lit('.')
						}
					}
					o.span(sepEnd, end)
				} else {
					o.span(i, end)
				}
				i = end
				continue
			}
		}
		rule.step(r)
		o.span(i, i+size)
		i += size
	}
	f.hold = t[i:]
	return o.result()
}

// normOut gathers one call's output: a span of its text while the output is
// that, else bytes copied into the filter's buffer.
type normOut struct {
	f          *normFilter
	t          string
	start, end int
	copying    bool
}

func (o *normOut) span(i, j int) {
	switch {
	case o.copying:
		o.f.buf = append(o.f.buf, o.t[i:j]...)
	case o.start == o.end:
		o.start, o.end = i, j
	case o.end == i:
		o.end = j
	default:
		o.copy()
		o.f.buf = append(o.f.buf, o.t[i:j]...)
	}
}

func (o *normOut) lit(b byte) {
	if !o.copying {
		o.copy()
	}
	o.f.buf = append(o.f.buf, b)
}

func (o *normOut) copy() {
	o.copying = true
	o.f.buf = append(o.f.buf[:0], o.t[o.start:o.end]...)
}

func (o *normOut) result() string {
	if !o.copying {
		return o.t[o.start:o.end]
	}
	start := o.f.slab.Begin(len(o.f.buf))
	o.f.slab.Write(o.f.buf)
	return o.f.slab.End(start)
}

// runeAt decodes the character at t[i]; ok is false when t ends inside it
// and more may come. Invalid UTF-8 is one byte, an ordinary character.
func runeAt(t string, i int, eof bool) (r rune, size int, ok bool) {
	if t[i] < utf8.RuneSelf {
		return rune(t[i]), 1, true
	}
	if !eof && !utf8.FullRuneInString(t[i:]) {
		return 0, 0, false
	}
	r, size = utf8.DecodeRuneInString(t[i:])
	return r, size, true
}

// isSpace is Python's \s in a str pattern: Unicode whitespace and the
// separators U+001C to U+001F.
func isSpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

// dropSpace reports whether r is whitespace the normaliser drops: ASCII
// space, tab and line ends. Other whitespace still ends a path and may
// follow an extension, but is kept, so a run that holds it is left alone
// (spec policy 3: only such whitespace may go).
func dropSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

func isAlnum(r rune) bool {
	return r < utf8.RuneSelf && (r|0x20 >= 'a' && r|0x20 <= 'z' || r >= '0' && r <= '9')
}

// maxSepRun bounds the run of dots and whitespace between a name and its
// extension that the normaliser joins: a longer run is left alone, so that
// what a stream holds back, and reads again, stays bounded (a model that
// floods newlines).
const maxSepRun = 64

// sepAndExt reads what follows a name at t[i]: the run of dots and
// droppable whitespace, with the number of dots and whether it has
// whitespace, then the extension, ASCII letters and digits. next is the
// character after the extension (-1 at the end of the text). ok is false
// while t may end before the extension does; end is sepEnd, or more than 16
// past it, when there is no extension that fits, and sepEnd is end for a
// run longer than maxSepRun.
func sepAndExt(t string, i int, eof bool) (sepEnd, end int, dots int, spaced bool, next rune, ok bool) {
	j := i
	for j < len(t) {
		if j-i > maxSepRun {
			return j, j, dots, spaced, 0, true // too long a run to join
		}
		r, size, full := runeAt(t, j, eof)
		if !full {
			return 0, 0, 0, false, 0, false
		}
		if r == '.' {
			dots++
		} else if dropSpace(r) {
			spaced = true
		} else {
			break
		}
		j += size
	}
	if j == len(t) && !eof {
		return 0, 0, 0, false, 0, false
	}
	sepEnd = j
	for j < len(t) && j-sepEnd <= 16 && isAlnum(rune(t[j])) {
		j++
	}
	if j-sepEnd > 16 { // too long to be an extension
		return sepEnd, j, dots, spaced, 0, true
	}
	if j == len(t) {
		if !eof {
			return 0, 0, 0, false, 0, false
		}
		return sepEnd, j, dots, spaced, -1, true
	}
	next, _, full := runeAt(t, j, eof)
	if !full {
		return 0, 0, 0, false, 0, false
	}
	return sepEnd, j, dots, spaced, next, true
}

// pathRule is the normaliser's rule (a): a name at the end of a path.
// Where it stands in the current run of path characters, which starts over
// after a rewrite:
type pathRule struct {
	normFilter
	run   bool // the run has a character
	slash bool // its last character is a slash with a character before it
	path  bool // such a slash has a character after it: the run ends a path
	// empty: in the stretch after the run's last such slash (from the
	// second character after it) an extension after dots alone already
	// matched. Upstream takes that as its match there, and it changes
	// nothing here, so no later run in the stretch is rewritten.
	empty bool
}

func (p *pathRule) filter() *normFilter { return &p.normFilter }

func (p *pathRule) may(r rune) bool { return p.path && (r == '.' || isSpace(r)) }

func (p *pathRule) try(t string, i int, eof bool) (verdict, int, int, bool) {
	sepEnd, end, dots, spaced, next, ok := sepAndExt(t, i, eof)
	switch {
	case !ok:
		return undecided, 0, 0, false
	case dots == 0 || end == sepEnd || end-sepEnd > 16 || !endsPath(next):
		return noMatch, 0, 0, false
	case p.slash && t[i] == '.' && dots > 1:
		// Right after a slash the run's first dot still belongs to the
		// stretch before it; upstream prefers the match one byte on, in
		// the stretch after the slash.
		return noMatch, 0, 0, false
	case !spaced:
		// Dots alone: a match that changes nothing here (upstream's
		// changes one of several dots; ours keeps them).
		p.empty = true
		return noMatch, 0, 0, false
	case p.empty:
		return noMatch, 0, 0, false
	}
	p.run, p.slash, p.path, p.empty = false, false, false, false // the scan starts over after the match
	return matched, sepEnd, end, true
}

// endsPath reports whether r (-1: the end of the text) may follow a path's
// extension.
func endsPath(r rune) bool {
	switch r {
	case -1, '"', '\'', '`', ')', ',', ';', ':', ']', '|', '[', '\\', '/':
		return true
	}
	return isSpace(r)
}

func (p *pathRule) step(r rune) {
	switch r {
	case '"', '\'', '`', '<', '>', '|':
		p.run, p.slash, p.path, p.empty = false, false, false, false // not a path character
		return
	}
	if isSpace(r) {
		p.run, p.slash, p.path, p.empty = false, false, false, false
		return
	}
	if p.slash { // the stretch after the slash begins after r
		p.path, p.empty = true, false
	}
	p.slash, p.run = (r == '/' || r == '\\') && p.run, true
}

// nameExtensions are the extensions rule (b) joins to any name.
var nameExtensions = map[string]bool{
	"c": true, "cc": true, "cfg": true, "conf": true, "cpp": true, "cs": true, "css": true, "csv": true,
	"gd": true, "go": true, "h": true, "hpp": true, "html": true, "ini": true, "java": true, "js": true,
	"json": true, "jsx": true, "lua": true, "md": true, "php": true, "py": true, "rb": true, "rs": true,
	"scss": true, "sh": true, "sql": true, "svg": true, "swift": true, "toml": true, "ts": true,
	"tscn": true, "tsx": true, "txt": true, "xml": true, "yaml": true, "yml": true,
}

// nameRule is the normaliser's rule (b): a stand-alone name. Where it
// stands in the current run of name characters:
type nameRule struct {
	normFilter
	after   bool // the last character is one a name may not follow: a letter, digit, _, -, ., / or \
	inRun   bool // inside a run of letters, digits, _ and -
	name    bool // the run may be a name: it began with a letter or digit where a name may begin, and is at most 256 long
	n       int  // the run's length
	special bool // the run has a _, - or digit
}

func (p *nameRule) filter() *normFilter { return &p.normFilter }

func (p *nameRule) may(r rune) bool { return p.inRun && p.name && (r == '.' || isSpace(r)) }

func (p *nameRule) try(t string, i int, eof bool) (verdict, int, int, bool) {
	sepEnd, end, dots, spaced, next, ok := sepAndExt(t, i, eof)
	switch {
	case !ok:
		return undecided, 0, 0, false
	case dots == 0 || end == sepEnd || end-sepEnd > 16 || next == '_':
		return noMatch, 0, 0, false
	case !spaced:
		// Dots alone: a match that changes nothing here; its extension,
		// after a dot, could not begin a name anyway.
		return noMatch, 0, 0, false
	}
	rewrite := p.special || listedExtension(t[sepEnd:end])
	// The match is consumed either way: its extension begins no name.
	p.after, p.inRun, p.name, p.n, p.special = true, true, false, end-sepEnd, false
	return matched, sepEnd, end, rewrite
}

func (p *nameRule) step(r rune) {
	nameChar := isAlnum(r) || r == '_' || r == '-'
	switch {
	case nameChar && p.inRun:
		p.n++
		p.special = p.special || r == '_' || r == '-' || r >= '0' && r <= '9'
		p.name = p.name && p.n <= 256
	case nameChar:
		p.inRun, p.n = true, 1
		p.name = isAlnum(r) && !p.after
		p.special = r >= '0' && r <= '9'
	default:
		p.inRun, p.name = false, false
	}
	p.after = nameChar || r == '.' || r == '/' || r == '\\'
}

// listedExtension reports whether ext (at most 16 ASCII letters and
// digits) is one of nameExtensions, in any case, without allocating.
func listedExtension(ext string) bool {
	var b [16]byte
	n := copy(b[:], ext)
	for i := range n {
		b[i] |= 0x20 * byte(bit(b[i] >= 'A' && b[i] <= 'Z'))
	}
	return nameExtensions[string(b[:n])]
}
