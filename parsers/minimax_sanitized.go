package parsers

import (
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

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
// dots after a name while it may go on (at most 64 bytes: a longer run is
// left alone), and after a run with a dot up to 17 bytes more, until they
// show whether the run is rewritten; a run that ends without a dot never
// is, and goes out with the delta that ends it. Finish rewrites or returns
// what is held.
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
	q := &sanitized{Parser: p}
	if sh, ok := p.(*shell); ok && sh.beginWith('<') {
		q.base = sh
		return q, nil
	}
	return sanitizedVia{q}, nil
}

func init() {
	register("minimax_m2_sanitized", newMiniMaxM2Sanitized, minimaxM2Family.entry(), about{engine: vllmPR,
		summary: "as `minimax_m2`, with spaced-out file names in content joined (`main . py` → `main.py`)"})
}

// sanitized is a minimax_m2 parser whose content goes through the path
// normaliser: the path rule, then the name rule over its output.
type sanitized struct {
	reasoning.Parser
	// base is the Parser as its shell, whose markers all begin with "<"
	// (nil when not, and then the parser is a sanitizedVia; nil too while
	// decided runs the rules over content the base decided):
	// ExtractStreaming takes a delta with no "<" that the shell's fast
	// path sends to content whole itself, and hands one the fast path
	// hands to the scanner to the scanner (shell.toContent).
	base  *shell
	paths pathRule
	names nameRule
	// slow: a rule holds text other than rule (b)'s run of whitespace
	// with no dot, so the next delta goes through rule (b)'s feed, and
	// through rule (a)'s when rule (a) holds text (ExtractStreaming).
	slow  bool
	whole wholeNorm // Extract's
}

// Extract is minimax_m2's, with its content through the normaliser. Where
// the content is several pieces of the output, the shell joins them into a
// buffer the parser owns (shell.extractOwned), which the normaliser then
// rewrites in place (runOwned): one copy of the content, not two.
func (p *sanitized) Extract(output string) reasoning.Message {
	sh, ok := p.Parser.(*shell)
	if !ok {
		m := p.Parser.Extract(output)
		m.Content = p.whole.run(m.Content)
		return m
	}
	m, own := sh.extractOwned(output)
	if own != nil {
		m.Content = p.whole.runOwned(own)
	} else {
		m.Content = p.whole.run(m.Content)
	}
	return m
}

// wholeNorm runs the normaliser over whole texts, one after the other,
// keeping the room its rules take (cuts, slab) from one to the next.
type wholeNorm struct {
	paths pathRule
	names nameRule // and the runs either rule rewrites, and the output
}

// run returns normalizePaths(s).
func (w *wholeNorm) run(s string) string {
	w.cut(s)
	return w.names.emitWhole(s)
}

// runOwned returns normalizePaths of buf's text, rewritten in buf itself,
// whose bytes the result then holds: buf is the caller's, who writes it no
// more. The rules read buf's text as a string that lives only until they
// have found the runs to rewrite, before buf is written.
func (w *wholeNorm) runOwned(buf []byte) string {
	w.cut(unsafe.String(unsafe.SliceData(buf), len(buf)))
	return w.names.cutInPlace(buf)
}

// cut finds the runs normalizePaths(s) rewrites (names.cuts), the two rules
// in one pass. Only a try at a spaced run can rewrite text, and every try in
// a run reads the same extension after it, so a run not followed by one (of
// 1 to 16 letters and digits) is passed over at once. The state either rule
// tries in depends only on the text since the last character that ended its
// run (whitespace or one of "'`<>| for rule a, any character that is no
// name's for rule b), or since its last match, after which it starts over:
// so it goes from one spaced run to the next, found by its dots, and reads
// back from each only as far as that, the name before it and, when a slash
// may precede that, rule a's stretch (pathAt). Rule (b) reads rule (a)'s
// output, which is s but at the runs rule (a) rewrites: there rule (b) finds
// no spaced run, and what follows stands in the extension, after a dot.
func (w *wholeNorm) cut(s string) {
	a, b := &w.paths, &w.names
	b.cuts = b.cuts[:0]
	la, lb := 0, 0 // where the last match of rule a, and of either rule, ended
	for k := 0; ; {
		d := strings.IndexByte(s[k:], '.')
		if d < 0 {
			break
		}
		d += k
		// The run of dots and droppable whitespace at the dot, s[start:end],
		// and the extension after it, s[end:x].
		end, seen, c := d+1, uint8(0), uint8(0)
		for end < len(s) {
			if c = normClass[s[end]]; c&cRun == 0 {
				break
			}
			seen |= c
			end++
		}
		k = end
		if c&cAlnum == 0 {
			continue // no extension
		}
		// The whitespace before the dot: an earlier run ends before a byte
		// no run has, a match in a letter or digit, so none of it is theirs.
		start := d
		for start > 0 && normClass[s[start-1]]&cDrop != 0 {
			start--
		}
		if start == d && seen&cDrop == 0 {
			continue // not spaced
		}
		dots := 1 // the run's: the dot, and any after it
		if seen&cDot != 0 {
			dots = dotsIn(s[start:end])
		}
		x := end + 1
		for lim := min(len(s), end+17); x < lim && normClass[s[x]]&cAlnum != 0; x++ {
		}
		if x-end > 16 {
			continue
		}
		next := rune(-1) // after the extension
		if x < len(s) {
			if next = rune(s[x]); next >= utf8.RuneSelf {
				next, _ = utf8.DecodeRuneInString(s[x:])
			}
		}
		// The run of name characters before the run, s[n:start].
		t := s[lb:start]
		i := len(t)
		for i > 0 {
			c := normClass[t[i-1]]
			if c&cName == 0 {
				break
			}
			i--
		}
		n := lb + i
		// Rule a: what precedes the name may hold a slash. Where the name
		// reads back to the end of a match of rule b (n == lb > la), what
		// precedes it is that match's extension after its run, which has
		// droppable whitespace: the stretch (pathAt) ends there, with none.
		// endsPath(next), its ASCII case here (it is not inlined).
		if n > la && n != lb && normClass[s[n-1]]&(cDrop|cBreak) == 0 &&
			(uint32(next) < utf8.RuneSelf && pathEnds[next] || uint32(next) >= utf8.RuneSelf && endsPath(next)) {
			// pathAt's common match, without its call: a short run after a
			// name that a slash ends, in a stretch that quickPath accepts.
			// A stretch with no slash (slashBack) has no match.
			if m := n - 2; m > la && n < start && normClass[s[n-1]]&cSlash != 0 &&
				normClass[s[m]]&(cDot|cDrop|cBreak|cLead) == 0 && end-start <= maxSepRun && quickPath(s, la, m) {
				b.cuts = append(b.cuts, nameCut{start, end, dots})
				la, lb, k = x, x, x
				continue
			}
			if slashBack(s, la, n) {
				if cut, e := a.pathAt(s, la, n, start, end, x); e > 0 {
					b.cuts = append(b.cuts, cut)
					la, lb, k = e, e, e
					continue
				}
			}
		}
		// Rule b: a name begins with a letter or digit, not after a dot,
		// slash or backslash, nor where a match ended (it would go on from
		// the extension), and is at most 256 long; the run it tries at is
		// at most maxSepRun long.
		if n == start || start-n > 256 || normClass[s[n]]&cAlnum == 0 ||
			n > 0 && (n == lb || normClass[s[n-1]]&(cDot|cSlash) != 0) ||
			end-start > maxSepRun || next == '_' {
			continue
		}
		if listedExtension(s[end:x]) || special(s[n:start]) {
			b.cuts = append(b.cuts, nameCut{start, end, dots})
		}
		lb, k = x, x
	}
}

// special reports whether name, a run of name characters, has a digit, _
// or -.
func special(name string) bool {
	for i := range len(name) {
		if normClass[name[i]]&cSpecial != 0 {
			return true
		}
	}
	return false
}

// slashBack reports whether the stretch before s[n] (pathAt's), read back to
// la, may have a slash: false when it has none, up to la or to ASCII
// whitespace or one of "'`<>|.
func slashBack(s string, la, n int) bool {
	t := s[la:n]
	i := len(t)
	for i > 0 && normClass[t[i-1]]&(cSlash|cDrop|cBreak|cLead) == 0 {
		i--
	}
	return i > 0 && normClass[t[i-1]]&(cDrop|cBreak) == 0
}

// quickPath reports whether the stretch before s[m] (pathAt's), read back to
// la, begins after ASCII whitespace or one of "'`<>| and has no dot nor
// byte that may begin a Unicode space: then a slash after it, at s[m+1],
// makes a path, which the run after the name matches at its first byte.
func quickPath(s string, la, m int) bool {
	t := s[la:m]
	i := len(t)
	for i > 0 && normClass[t[i-1]]&(cDot|cDrop|cBreak|cLead) == 0 {
		i--
	}
	return i > 0 && normClass[t[i-1]]&(cDrop|cBreak) != 0
}

// pathAt runs rule (a) at the spaced run s[start:end] of a whole text,
// which the extension s[end:x] follows and then a character that may end a
// path, when the text s[n:start] before it is a run of name characters,
// preceded by one that does not end a path, and la is where the rule last
// started over. It returns the run rewritten and the end of the match, 0
// when there is none.
func (p *pathRule) pathAt(s string, la, n, start, end, x int) (nameCut, int) {
	// The stretch the state is read from, s[from:start], the slashes in
	// it before the name and whether it has a dot.
	from, seen := n, uint8(0)
	lo, lo2 := -1, -1 // the lowest slash, and the next one
	for ; from > la; from-- {
		c := normClass[s[from-1]]
		if c&(cDot|cSlash|cDrop|cBreak|cLead) == 0 {
			continue // ordinary
		}
		if c&(cDrop|cBreak|cLead) != 0 {
			if c&cLead == 0 {
				break
			}
			if r, size := utf8.DecodeRuneInString(s[from-1 : start]); isSpace(r) {
				from += size - 1
				break
			}
		}
		if c&cSlash != 0 {
			lo, lo2 = from-1, lo
		}
		seen |= c
	}
	if seen&cSlash == 0 {
		return nameCut{}, 0 // no path
	}
	if seen&cDot == 0 && end-start <= maxSepRun {
		// A slash with a character before it and one after it makes a
		// path, where the run matches at its first byte, unless a slash
		// ends the stretch: then a try may decide at the next (sep).
		if lo == from {
			lo = lo2
		}
		slash, path := n == start && normClass[s[start-1]]&cSlash != 0 && start-1 > from, lo >= 0 && lo < start-1
		if !slash {
			if !path {
				return nameCut{}, 0
			}
			return nameCut{start, end, dotsIn(s[start:end])}, x
		}
		p.run, p.slash, p.path, p.empty = true, slash, path, false
	} else {
		// A dot may have marked the stretch (empty), and a try after the
		// run's first byte may be the one that matches.
		p.pathState = pathState{}
		p.skip(s, from, start, true)
	}
	if !p.path && !p.slash {
		return nameCut{}, 0
	}
	e := p.sep(s, start, end, true)
	if len(p.cuts) == 0 {
		return nameCut{}, 0
	}
	cut := nameCut{p.cuts[0], p.cuts[1], dotsIn(s[p.cuts[0]:p.cuts[1]])}
	p.cuts = p.cuts[:0]
	return cut, e
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
	var w wholeNorm
	return w.run(s)
}

// ExtractStreaming is minimax_m2's, with its content through the
// normaliser. A delta with no "<" that minimax_m2 would send whole to
// content as it comes is not handed to it: the pass over its bytes the
// normaliser makes finds that it has no "<". Where minimax_m2's
// fast path would hand the delta to its scanner instead (it has a "<", or
// the scanner holds text), the delta goes to the scanner (shell.scan).
// A short delta that ends in an ASCII character, after no text rule (a)
// holds, goes through the rules here, from one scan of its bytes'
// classes: a run of name characters, after no held text but a run of
// whitespace with no dot (sanitized.slow), and one after a space, tab or
// line end, outside a path and after no held text, as one step of each
// rule; any other through rule (a) as its feed takes such a delta; when
// rule (a) takes it whole (pathRule.short) and it has no dot, after no
// held text but a run of whitespace with no dot that it ends, it goes
// through rule (b) in the same pass: no try in it may match, and only a
// run of whitespace after a name at its end is held; one whose dots are
// all in a run at its end goes through rule (b) in dotted. Any other goes
// through each rule's feed (rule (b)'s alone when rule (a) took it here).
// Without a base shell (sanitized.base nil), the delta is content, and
// goes through the rules alone.
func (p *sanitized) ExtractStreaming(d reasoning.Delta) reasoning.Message {
	s, ids, sh := d.Text, d.IDs, p.base
	n := len(s)
	if n == 0 { // a delta: content is not empty
		return p.viaBase(s, ids)
	}
	if sh != nil {
		if !sh.toContent(s) {
			return p.notContent(s, ids, sh)
		}
		if ids != nil && sh.idBits != 0 {
			// quietFew, then quietIDs, written out: a bool of quietFew's
			// would be made and tested again.
			sh.idMode = true
			if (len(ids) != 1 || sh.idBits&(1<<(ids[0]&63)) != 0) && !sh.quietIDs(ids) {
				return p.viaBase(s, ids)
			}
		}
	}
	// With sh set, the shell's fast path now sends s whole to content
	// unless s has a "<": the shell's scanner then reads it (shell.scan).
	//
	// A delta no longer than the longest run joined: a run of whitespace
	// at its end that rule (b) holds below is one a try may still join.
	if p.paths.hold != "" || n > maxSepRun || s[n-1] >= utf8.RuneSelf {
		if sh != nil {
			if n > maxSepRun || hasOpen(s) { // in a longer s, the scanner looks for "<"
				return p.decided(sh.scan(s))
			}
			sh.took(n)
		}
		return reasoning.Message{Content: p.feed(s)}
	}
	// The classes s has (seen), those all its bytes have (all), those all
	// but its first have (rest: cName when they are a name's), and its last
	// byte's (last).
	c0 := normClass[s[0]]
	seen, rest, last := c0, uint8(cName), c0
	switch {
	case n == 4: // the common delta
		c1, c2, c3 := normClass[s[1]], normClass[s[2]], normClass[s[3]]
		seen, rest, last = c0|c1|c2|c3, rest&c1&c2&c3, c3
	case n < 4: // a short token: s[1] and s[n-1] are all of s[1:]
		if n > 1 {
			c1, c2 := normClass[s[1]], normClass[s[n-1]]
			seen, rest, last = c0|c1|c2, rest&c1&c2, c2
		}
	case n <= 8: // s[1:5] and s[n-3:], which may overlap: a byte read twice changes neither
		w, v := s[1:5], s[n-3:]
		c1, c2, c3, c4 := normClass[w[0]], normClass[w[1]], normClass[w[2]], normClass[w[3]]
		c5, c6, c7 := normClass[v[0]], normClass[v[1]], normClass[v[2]]
		seen, rest, last = c0|c1|c2|c3|c4|c5|c6|c7, rest&c1&c2&c3&c4&c5&c6&c7, c7
	default:
		k := 1
		for ; k+4 <= n; k += 4 {
			w := s[k : k+4]
			c1, c2, c3, c4 := normClass[w[0]], normClass[w[1]], normClass[w[2]], normClass[w[3]]
			seen |= c1 | c2 | c3 | c4
			rest &= c1 & c2 & c3 & c4
		}
		for ; k < n; k++ {
			c := normClass[s[k]]
			seen |= c
			rest &= c
		}
		last = normClass[s[n-1]]
	}
	if c0&rest != 0 && !p.slow {
		// A run of name characters, the common delta: it has no "<", and
		// it neither begins nor goes on with a run of either rule. Rule
		// (a) steps over it as over one ordinary character; rule (b)'s
		// run of name characters goes on or begins with it, and a run of
		// whitespace it held ends.
		if sh != nil {
			sh.took(n)
		}
		p.paths.ordinary()
		b := &p.names
		if b.st&nInRun != 0 {
			b.st |= seen & cSpecial
			b.n += n
		} else {
			b.st, b.n = nameBegins(b.st, c0)|seen&cSpecial, n
		}
		if held := b.hold; held != "" {
			b.phase, b.hold = noTry, ""
			return reasoning.Message{Content: b.slab.Append(held, s)}
		}
		return reasoning.Message{Content: s}
	}
	if c0 == cDrop && rest != 0 && n > 1 && !p.slow && p.names.hold == "" && !p.paths.path && !p.paths.slash {
		// A run of name characters after a space, tab or line end, the
		// common token, outside a path and after no held run: what the
		// rules below make of it in fewer steps. Rule (a), outside a path,
		// steps over it as over one ordinary character (its run goes on
		// after a name's character); rule (b)'s run of name characters
		// begins at s[1], where no name's character precedes it, and it
		// holds nothing.
		if sh != nil {
			sh.took(n)
		}
		p.paths.run = true
		p.names.st, p.names.n = nameBegins(0, normClass[s[1]])|seen&cSpecial, n-1
		return reasoning.Message{Content: s}
	}
	if sh != nil {
		if seen&cBreak != 0 && hasOpen(s) { // "<" has cBreak
			return p.decided(sh.scan(s))
		}
		sh.took(n)
	}
	// Rule (a), which holds nothing, as its feed reads a short delta.
	if !p.paths.path && !p.paths.slash && seen&(cSlash|cLead) == 0 {
		// Outside a path only a slash can begin one.
		p.paths.run = last&(cDrop|cBreak) == 0
	} else if seen&(cDot|cSlash|cDrop|cBreak|cLead) == 0 {
		p.paths.ordinary() // as short
	} else if k := p.paths.short(s, seen); k < n {
		out, ok := "", false
		if seen&cLead == 0 { // small turns away a byte that may begin a Unicode space
			out, ok = p.paths.small(s, k)
		}
		if !ok { // only where short read nothing (k 0): bulk reads s from the start
			out = p.paths.bulk(s, false)
		}
		return reasoning.Message{Content: p.feedNames(out)}
	}
	if p.slow || p.names.hold != "" && normClass[s[0]]&cRun != 0 {
		return reasoning.Message{Content: p.feedNames(s)}
	}
	if seen&cDot != 0 {
		return reasoning.Message{Content: p.dotted(s)}
	}
	// Rule (b): a held run ends here, and no try in s matches. The state
	// after s depends only on its last run of name characters and the
	// character before it; when s ends in whitespace, a try begins there
	// if that run is a name.
	held := p.names.hold
	switch {
	case rest != 0 && n > 1: // a run of name characters after one that is not
		p.names.st, p.names.n = nameBegins(afterOf(c0), normClass[s[1]])|seen&cSpecial, n-1
	case last&cName != 0 && n == 4:
		// As nameEnds, unrolled: not all of s[1:] is a name's.
		switch c1, c2 := normClass[s[1]], normClass[s[2]]; {
		case c2&cName == 0:
			p.names.st, p.names.n = nameBegins(afterOf(c2), last)|last&cSpecial, 1
		default: // c1 is not a name's
			p.names.st, p.names.n = nameBegins(afterOf(c1), c2)|(c2|last)&cSpecial, 2
		}
	case last&cName != 0:
		p.names.nameEnds(s, n)
	case last&cDrop == 0:
		p.names.st = afterOf(last)
	default:
		j := n - 1
		for j > 0 && normClass[s[j-1]]&cDrop != 0 {
			j--
		}
		if j > 0 {
			if c := normClass[s[j-1]]; c&cName != 0 {
				p.names.nameEnds(s, j)
			} else {
				p.names.st = afterOf(c)
			}
		}
		if p.names.st&(nInRun|nName) == nInRun|nName && p.names.n <= 256 {
			p.names.try = nameTry{run: n - j, spaced: true, special: p.names.st&cSpecial != 0}
			p.names.phase, p.names.st, p.names.hold = tryRun, 0, s[j:]
			if held != "" {
				return reasoning.Message{Content: p.names.slab.Append(held, s[:j])}
			}
			return reasoning.Message{Content: s[:j]}
		}
		p.names.st = 0
	}
	if held != "" {
		p.names.phase, p.names.hold = noTry, ""
		return reasoning.Message{Content: p.names.slab.Append(held, s)}
	}
	return reasoning.Message{Content: s}
}

// sanitizedVia is a sanitized parser whose base is not a shell whose
// markers all begin with "<" (sanitized.base): each delta goes through
// the base.
type sanitizedVia struct{ *sanitized }

func (p sanitizedVia) ExtractStreaming(d reasoning.Delta) reasoning.Message {
	return p.viaBase(d.Text, d.IDs)
}

// viaBase is ExtractStreaming for a delta s with ids that the base takes.
func (p *sanitized) viaBase(s string, ids []int) reasoning.Message {
	return p.decided(p.Parser.ExtractStreaming(reasoning.Delta{Text: s, IDs: ids}))
}

// hasOpen reports whether s, at most maxSepRun bytes, has a "<", which
// begins every marker of the base (see sanitized.base).
func hasOpen(s string) bool { return hasByte(s, '<') }

// notContent is ExtractStreaming for a delta s with ids that its shell sh
// does not send whole to content (toContent).
func (p *sanitized) notContent(s string, ids []int, sh *shell) reasoning.Message {
	if sh.toScan(s) && (sh.quietFew(ids) || sh.quietIDs(ids)) {
		return p.decided(sh.scan(s))
	}
	return p.viaBase(s, ids)
}

// decided returns m, the base's message, with its content through the
// rules: as ExtractStreaming takes a delta, with no base meanwhile, so
// that it is taken as content.
func (p *sanitized) decided(m reasoning.Message) reasoning.Message {
	if m.Content != "" {
		sh := p.base
		p.base = nil
		m.Content = p.ExtractStreaming(reasoning.Delta{Text: m.Content}).Content
		p.base = sh
	}
	return m
}

// dotted is ExtractStreaming's rule (b) for s, a short delta with a dot
// that rule (a) took whole, after no held text but a run of whitespace
// with no dot that s ends: when its dots are all in a run at its end, or
// in one that at most 16 letters and digits follow to its end, a try there
// is undecided, and it begins when a name precedes the run. Any other such
// delta goes through feedNames.
func (p *sanitized) dotted(s string) string {
	b := &p.names
	n := len(s)
	// The run, s[j:x], and the extension a try there may have begun, s[x:].
	x := n
	if normClass[s[n-1]]&cAlnum != 0 {
		for x--; x > 0 && normClass[s[x-1]]&cAlnum != 0; x-- {
		}
		if n-x > 16 {
			return p.feedNames(s)
		}
	}
	j, dots, seen := x, 0, uint8(0)
	for j > 0 {
		c := normClass[s[j-1]]
		if c&cRun == 0 {
			break
		}
		dots += int(c & cDot)
		seen |= c
		j--
	}
	if j == x || hasByte(s[:j], '.') {
		return p.feedNames(s)
	}
	held, out := b.hold, s
	if j > 0 {
		if c := normClass[s[j-1]]; c&cName != 0 {
			b.nameEnds(s, j)
		} else {
			b.st = afterOf(c)
		}
	}
	phase := uint8(noTry)
	if b.st&(nInRun|nName) == nInRun|nName && b.n <= 256 {
		b.try = nameTry{run: x - j, dots: dots, spaced: seen&cDrop != 0, special: b.st&cSpecial != 0}
		phase, b.hold, out = tryRun, s[j:], s[:j]
		p.slow = true
	} else {
		b.hold = ""
	}
	if x == n {
		b.phase, b.st = phase, afterOf(normClass[s[n-1]])
	} else { // an extension follows the run in s
		b.nameEnds(s, n)
		b.phase = noTry
		if phase == tryRun {
			b.phase = tryExt
		}
	}
	if held != "" {
		return b.slab.Append(held, out)
	}
	return out
}

// nameEnds sets the state after t[:j], which ends in a name's character
// and holds no spaced run: it depends only on its last run of name
// characters and the character before it.
func (p *nameRule) nameEnds(t string, j int) {
	i, name := j-1, normClass[t[j-1]]
	for i > 0 && normClass[t[i-1]]&cName != 0 {
		i--
		name |= normClass[t[i]]
	}
	switch {
	case i > 0:
		p.st, p.n = nameBegins(afterOf(normClass[t[i-1]]), normClass[t[i]])|name&cSpecial, j-i
	case p.st&nInRun != 0:
		p.st |= name & cSpecial
		p.n += j
	default:
		p.st, p.n = nameBegins(p.st, normClass[t[0]])|name&cSpecial, j
	}
}

// feed runs the two rules over s, a content delta more may follow, and
// notes whether the next delta may take ExtractStreaming's quick way.
func (p *sanitized) feed(s string) string {
	return p.feedNames(p.paths.feed(s, false))
}

// feedNames is feed for s, rule (a)'s output.
func (p *sanitized) feedNames(s string) string {
	b := &p.names
	var out string
	if n := len(s); n > 0 && s[n-1] < utf8.RuneSelf && b.cut == 0 &&
		(b.phase == tryExt || b.phase == tryRun && b.try.dots != 0) {
		out = b.goOn(s)
	} else {
		out = b.feed(s, false)
	}
	p.slow = p.paths.hold != "" || b.cut != 0 || b.phase == tryExt || b.phase == tryRun && b.try.dots != 0
	return out
}

// goOn is feed for s, which ends in an ASCII character, in a try whose run
// has a dot, after no character cut in two: it reads on in the try, as
// read does, from the state it is in, without reading the text it holds
// again; it holds s too while the try is undecided, and rewrites a
// match's run where the name is special or the extension listed.
// Where the run grows longer than maxSepRun, it leaves the state as it
// was and feed reads the held text and s. What follows a try that ended
// it reads as feed does.
func (p *nameRule) goOn(s string) string {
	st, n, tr := p.st, p.n, p.try
	i := 0
	if p.phase == tryRun {
		if i, st = tr.runOn(s, i, st); i == len(s) { // the run may go on
			p.st, p.try = st, tr
			p.hold = p.slab.Append(p.hold, s)
			return ""
		}
		if tr.run > maxSepRun { // too long a run to join
			return p.feed(s, false)
		}
	}
	if i, st, n = extOn(s, i, st, n); i == len(s) { // the extension may go on
		p.st, p.n, p.try, p.phase = st, n, tr, tryExt
		p.hold = p.slab.Append(p.hold, s)
		return ""
	}
	rewrite := false
	if c := s[i]; normClass[c]&cAlnum == 0 && st&nInRun != 0 && tr.spaced && c != '_' {
		// A match (decide), rewritten when the name is special or the
		// extension listed.
		switch {
		case tr.special:
			rewrite = true
		case n > i: // the extension begun in the held text
			rewrite = listedSplit(p.hold[len(p.hold)-(n-i):], s[:i])
		default:
			rewrite = listedExtension(s[i-n : i])
		}
		st = nInRun | nAfter
	}
	// The try has ended, and s[i:] follows it.
	p.st, p.n, p.phase = st, n, noTry
	held := p.hold
	p.hold = ""
	j := p.plain(s, i)
	if j == len(s) {
		keep := j
		if p.phase != noTry { // a try at one space at the end
			keep, p.try.at = p.try.at, 0
		}
		p.hold = s[keep:]
		if rewrite { // the held text, then s, begins with the try's run
			start := p.slab.Begin(tr.dots + len(held) - tr.run + keep)
			p.slab.WriteString(manyDots[:tr.dots])
			if r := tr.run - len(held); r < 0 {
				p.slab.WriteString(held[tr.run:])
				p.slab.WriteString(s[:keep])
			} else {
				p.slab.WriteString(s[r:keep])
			}
			return p.slab.End(start)
		}
		return p.slab.Append(held, s[:keep])
	}
	// A try begins at s[j]: read on as feed does.
	if rewrite {
		p.cuts = append(p.cuts, nameCut{tr.at, tr.at + tr.run, tr.dots})
	}
	t := p.slab.Append(held, s)
	keep := p.read(t, len(held)+j, false)
	if len(p.cuts) > 0 {
		return p.emit(t, keep)
	}
	p.hold = t[keep:]
	if p.phase != noTry {
		p.try.at -= keep
	}
	return t[:keep]
}

func (p *sanitized) Finish() reasoning.Message {
	m := p.Parser.Finish()
	m.Content = p.names.feed(p.paths.feed(m.Content, true), true)
	return m
}

// EndIDs are minimax_m2's, for a Gate's thinking budget.
func (p *sanitized) EndIDs() []int {
	if e, ok := p.Parser.(reasoning.EndMarker); ok {
		return e.EndIDs()
	}
	return nil
}

// verdict is what a try decides for the run at t[i]: undecided while t
// may end before that is known (more may follow); otherwise matched, with
// the end of the run of whitespace and dots and of the whole match, and
// whether the run is rewritten (as its dots), or not matched.
type verdict uint8

const (
	noMatch verdict = iota
	matched
	undecided
)

// normFilter is what rule (a) holds between deltas: the text it has not
// decided yet, and what it joins output in.
//
// Rule (a) reads its text, held text and the delta joined, in bulk (a short
// delta no try reads, the common one, it takes whole: pathRule.feed; a held
// try that a short delta decides, it decides over both: settle). Only
// a try, which reads what follows a run of dots and droppable whitespace,
// can rewrite text, hold it back or change what a later try does (rule a's
// empty), and it can do so only at a run that has a dot and such whitespace
// (a spaced run: elsewhere it decides no match, and only marks rule a's
// empty), or in the tail of a text more may follow, where it may read to
// the end (normBounds). So rule (a) finds the next spaced run by its dot
// (nextRun, strings.IndexByte), takes the text before it at once (skip: the
// state after it depends on its last few characters), and reads one
// character at a time only the spaced runs and the tail's run, or a short
// text (at most maxShort bytes, pathRule.small) whole. A call's
// output is its text up to what it holds, with the runs it rewrote cut
// (out): a substring of the input when nothing is rewritten or was held.
type normFilter struct {
	hold string      // undecided text: a run that may be rewritten, or a rune cut in two
	cuts []int       // the runs a call rewrote, as pairs of offsets (start, end) into its text
	slab marker.Slab // joins held text with new, and output that is not a piece of the input
}

// take returns the text a call reads: what f held, then s.
func (f *normFilter) take(s string) string {
	if f.hold == "" {
		return s
	}
	t := f.hold
	if s != "" {
		start := f.slab.Begin(len(t) + len(s))
		f.slab.WriteString(t)
		f.slab.WriteString(s)
		t = f.slab.End(start)
	}
	f.hold = ""
	return t
}

// normBounds returns where a rule stops reading t, which more may follow
// unless eof: lim, len(t) or where t ends inside a character; and the
// tail, a run of dots and droppable whitespace t[tail:text] followed by at
// most 16 letters and digits t[text:lim], the only place where a try may
// read to lim. With no such run (or eof) tail and text are lim.
func normBounds(t string, eof bool) (lim, tail, text int) {
	lim = len(t)
	if eof {
		return lim, lim, lim
	}
	if lim == 0 {
		return 0, 0, 0
	}
	switch c := t[lim-1]; {
	case c >= utf8.RuneSelf:
		lim = fullEnd(t)
	case normClass[c]&(cAlnum|cRun) == 0:
		return lim, lim, lim // no tail
	}
	text = lim
	for stop := max(0, lim-17); text > stop && normClass[t[text-1]]&cAlnum != 0; text-- {
	}
	if lim-text > 16 { // an extension this long reads no further
		return lim, lim, lim
	}
	tail = text
	for tail > 0 && normClass[t[tail-1]]&cRun != 0 {
		tail--
	}
	if tail == text {
		return lim, lim, lim
	}
	return lim, tail, text
}

// tailUndecided reports whether a try at the start of the tail's run
// t[tail:text] (normBounds, which stops reading at lim) is undecided: it
// reads to the end unless the run is too long to join (sepAndExt, which
// stops at its 66th byte when there is one) or has ended without a dot.
func tailUndecided(t string, tail, text, lim int) bool {
	if n := text - tail; n > maxSepRun && (n > maxSepRun+1 || text < len(t)) {
		return false
	}
	return text == lim || dotsIn(t[tail:text]) != 0 // a run of at most 65 bytes
}

// fullEnd returns where t ends inside a character that more bytes may
// complete, else len(t): where runeAt first reports a character cut in two.
func fullEnd(t string) int {
	for k := max(0, len(t)-utf8.UTFMax+1); k < len(t); k++ {
		if t[k] >= 0xc0 && !utf8.FullRuneInString(t[k:]) {
			return k
		}
	}
	return len(t)
}

// nextRun returns the next spaced run of dots and droppable whitespace in
// t[i:to], t[start:end], reaching back to i at most; start is to when
// there is none.
func nextRun(t string, i, to int) (start, end int) {
	for k := i; k < to; {
		d := k
		if to-k >= 16 {
			if d = strings.IndexByte(t[k:to], '.'); d < 0 {
				break
			}
			d += k
		} else {
			for d < to && t[d] != '.' {
				d++
			}
			if d == to {
				break
			}
		}
		start, end = d, d+1
		for start > i && normClass[t[start-1]]&cDrop != 0 {
			start--
		}
		spaced := start < d
		for end < to && normClass[t[end]]&cRun != 0 {
			spaced = spaced || t[end] != '.'
			end++
		}
		if spaced {
			return start, end
		}
		k = end
	}
	return to, to
}

// Classes of bytes, for the rules' bulk reads (normClass).
const (
	cDot     = 1 << iota // .
	cDrop                // whitespace the normaliser drops: ASCII space, tab, line ends
	cBreak               // ends a path besides cDrop: other ASCII whitespace, "'`<>|
	cSlash               // / or \
	cName                // a name's: ASCII letters, digits, _ and -
	cAlnum               // ASCII letters and digits
	cSpecial             // makes a name special: digits, _ and -
	cLead                // may begin a Unicode space of more than one byte (U+0085 on)

	cRun = cDot | cDrop // a run's, between a name and its extension
)

// normClass is the class of each byte. Whitespace other than cDrop still
// ends a path and may follow an extension, but is kept, so a run that
// holds it is left alone (spec policy 3: only such whitespace may go).
var normClass = func() (c [256]uint8) {
	c['.'] = cDot
	for _, b := range []byte(" \t\n\r") {
		c[b] = cDrop
	}
	for _, b := range []byte("\v\f\x1c\x1d\x1e\x1f\"'`<>|") {
		c[b] = cBreak
	}
	c['/'], c['\\'] = cSlash, cSlash
	for b := range 256 {
		switch {
		case b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z':
			c[b] = cName | cAlnum
		case b >= '0' && b <= '9':
			c[b] = cName | cAlnum | cSpecial
		case b == '_' || b == '-':
			c[b] = cName | cSpecial
		}
	}
	for _, rg := range unicode.White_Space.R16 {
		for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
			if r >= utf8.RuneSelf {
				c[string(r)[0]] = cLead
			}
		}
	}
	return c
}()

// out returns t, the text a call has decided, with the runs it rewrote
// (cuts) rewritten as their dots: t itself when there are none, else one
// copy in the slab.
func (f *normFilter) out(t string) string {
	if len(f.cuts) == 0 {
		return t
	}
	if len(f.cuts) == 2 { // one run, the common case
		i, j := f.cuts[0], f.cuts[1]
		dots := dotsIn(t[i:j])
		start := f.slab.Begin(len(t) - (j - i) + dots)
		f.slab.WriteString(t[:i])
		f.slab.WriteString(manyDots[:dots])
		f.slab.WriteString(t[j:])
		f.cuts = f.cuts[:0]
		return f.slab.End(start)
	}
	n := len(t)
	for k := 0; k < len(f.cuts); k += 2 {
		n -= f.cuts[k+1] - f.cuts[k] - dotsIn(t[f.cuts[k]:f.cuts[k+1]])
	}
	start, prev := f.slab.Begin(n), 0
	for k := 0; k < len(f.cuts); k += 2 {
		f.slab.WriteString(t[prev:f.cuts[k]])
		f.slab.WriteString(manyDots[:dotsIn(t[f.cuts[k]:f.cuts[k+1]])])
		prev = f.cuts[k+1]
	}
	f.slab.WriteString(t[prev:])
	f.cuts = f.cuts[:0]
	return f.slab.End(start)
}

// dotsIn returns the number of dots in run, a run of dots and whitespace a
// few bytes long: a loop here costs less than a call of strings.Count.
func dotsIn(run string) int {
	n := 0
	for k := range len(run) {
		n += int(normClass[run[k]] & cDot)
	}
	return n
}

// manyDots holds as many dots as a run may have.
var manyDots = strings.Repeat(".", maxSepRun+1)

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
// run longer than maxSepRun, and for one that has ended without a dot (no
// try matches it, whatever follows).
func sepAndExt(t string, i int, eof bool) (sepEnd, end int, dots int, spaced bool, next rune, ok bool) {
	j, seen := i, uint8(0)
	for ; j < len(t); j++ {
		c := normClass[t[j]]
		if c&cRun == 0 || j-i > maxSepRun {
			break
		}
		dots += int(c & cDot)
		seen |= c
	}
	spaced = seen&cDrop != 0
	switch {
	case j == len(t):
		if !eof {
			return 0, 0, 0, false, 0, false
		}
	case j-i > maxSepRun:
		return j, j, dots, spaced, 0, true // too long a run to join
	case t[j] >= utf8.RuneSelf && !eof && !utf8.FullRuneInString(t[j:]):
		return 0, 0, 0, false, 0, false // no run's, if a whole character
	case dots == 0:
		return j, j, 0, spaced, 0, true
	}
	sepEnd = j
	for lim := min(len(t), j+17); j < lim && normClass[t[j]]&cAlnum != 0; j++ {
	}
	switch {
	case j-sepEnd > 16: // too long to be an extension
		return sepEnd, j, dots, spaced, 0, true
	case j == len(t):
		if !eof {
			return 0, 0, 0, false, 0, false
		}
		return sepEnd, j, dots, spaced, -1, true
	case t[j] < utf8.RuneSelf:
		return sepEnd, j, dots, spaced, rune(t[j]), true
	}
	next, _, full := runeAt(t, j, eof)
	if !full {
		return 0, 0, 0, false, 0, false
	}
	return sepEnd, j, dots, spaced, next, true
}

// pathRule is the normaliser's rule (a): a name at the end of a path.
// Where it stands in the current run of path characters, which starts over
// after a rewrite, is its pathState.
type pathRule struct {
	normFilter
	pathState
}

// pathState is where rule (a) stands in the current run of path
// characters; short reads its four flags as one word (pathState.code).
type pathState struct {
	_     [0]uint32 // the word's alignment
	run   bool      // the run has a character
	slash bool      // its last character is a slash with a character before it
	path  bool      // such a slash has a character after it: the run ends a path
	// empty: in the stretch after the run's last such slash (from the
	// second character after it) an extension after dots alone already
	// matched. Upstream takes that as its match there, and it changes
	// nothing here, so no later run in the stretch is rewritten.
	empty bool
}

// code returns the state as a number below 16, one bit a flag
// (pathStates is the way back). Each flag is a byte of the word the state
// is, 0 or 1; the product moves the word's byte i's bit to bit 24+i, where
// no other partial product has a bit, so nothing carries. Which flag is
// which bit follows the machine's byte order, so the tables are built
// from code, never from a layout written out.
func (st *pathState) code() uint8 {
	w := *(*uint32)(unsafe.Pointer(st))
	return uint8(w*(1<<24|1<<17|1<<10|1<<3)>>24) & 15
}

// pathStates is each pathState by its code.
var pathStates = func() (t [16]pathState) {
	for c := range 16 {
		st := pathState{run: c&1 != 0, slash: c&2 != 0, path: c&4 != 0, empty: c&8 != 0}
		t[st.code()] = st
	}
	return t
}()

// What short reads a byte as (pathKind, which holds each kind times 16):
// a character that neither ends a path nor is a dot or slash, a slash, a
// dot, droppable whitespace, or another character that ends a path.
const (
	kOther = iota
	kSlash
	kDot
	kDrop
	kBreak
)

// pathKind is the kind of each byte, times 16 (pathNext's index).
var pathKind = func() (t [256]uint8) {
	for b := range 256 {
		switch c := normClass[b]; {
		case c&cDrop != 0:
			t[b] = kDrop << 4
		case c&cBreak != 0:
			t[b] = kBreak << 4
		case c&cDot != 0:
			t[b] = kDot << 4
		case c&cSlash != 0:
			t[b] = kSlash << 4
		}
	}
	return t
}()

// pathStop in pathNext: a try would read the byte (a dot or droppable
// whitespace in a path).
const pathStop = 0x80

// pathNext is the state code after a byte of a kind (times 16) read in a
// state (its code), or pathStop: short's reading of a character, as a
// table.
var pathNext = func() (t [256]uint8) {
	for k := kOther; k <= kBreak; k++ {
		for c := range 16 {
			st := pathStates[c]
			switch {
			case st.path && (k == kDot || k == kDrop):
				t[k<<4|c] = pathStop
				continue
			case k == kDrop || k == kBreak:
				st = pathState{}
			default:
				if st.slash {
					st.path, st.empty = true, false
				}
				st.slash, st.run = k == kSlash && st.run, true
			}
			t[k<<4|c] = st.code()
		}
	}
	return t
}()

// feed runs rule (a) over s, after the text it held; eof ends the text.
// It returns the output (see normFilter).
func (p *pathRule) feed(s string, eof bool) string {
	if n := len(s); p.hold == "" && n > 0 && n <= maxShort && s[n-1] < utf8.RuneSelf {
		// A short delta that ends in an ASCII character (a long text is
		// read in bulk below).
		var seen uint8
		k := 0
		for ; k+4 <= n; k += 4 {
			w := s[k : k+4]
			seen |= normClass[w[0]] | normClass[w[1]] | normClass[w[2]] | normClass[w[3]]
		}
		for ; k < n; k++ {
			seen |= normClass[s[k]]
		}
		if !p.path && !p.slash && seen&(cSlash|cLead) == 0 {
			// Outside a path only a slash can begin one: s leaves no
			// path and sets only whether a run of path characters goes on.
			p.run = normClass[s[n-1]]&(cDrop|cBreak) == 0
			return s
		}
		was := p.pathState
		if k := p.short(s, seen); k == n {
			return s
		} else if !eof && seen&cLead == 0 { // bulk's small, from k
			out, _ := p.small(s, k)
			return out
		}
		p.pathState = was
	} else if p.hold != "" && n > 0 && n <= maxShort && s[n-1] < utf8.RuneSelf && !eof {
		if out, ok := p.settle(s); ok {
			return out
		}
	}
	return p.bulk(s, eof)
}

// settle is feed for s, a short delta that ends in an ASCII character,
// after held text that begins an undecided try: it decides the try over
// the held text and s without joining them. It reports false, with the
// state as it was, where it cannot decide the try here: the held text is
// no try's, the run would grow past maxSepRun, what follows the run is
// neither plainly a match's nor plainly no match's (a case try reads
// further, such as a character that is not ASCII), or what follows the
// match or the extension in s is one a try would read. Then bulk reads the
// held text and s.
func (p *pathRule) settle(s string) (string, bool) {
	h := p.hold
	if !p.path || normClass[h[0]]&cRun == 0 {
		return "", false // a character cut in two
	}
	// The run, h[:r] and then s[:k] when it fills h, and the extension
	// after it, up to s[x].
	r, dots, seen := runIn(h)
	for e := r; e < len(h); e++ {
		if normClass[h[e]]&cAlnum == 0 {
			return "", false // a character cut in two
		}
	}
	k, ext := 0, len(h)-r // the extension begun
	if ext == 0 {
		var d int
		var c uint8
		k, d, c = runIn(s)
		dots, seen = dots+d, seen|c
		if r+k > maxSepRun {
			return "", false // too long a run to join
		}
		if k == len(s) { // the run may go on
			p.hold = p.slab.Append(h, s)
			return "", true
		}
	}
	x := k
	for lim := min(len(s), k+17-ext); x < lim && normClass[s[x]]&cAlnum != 0; x++ {
	}
	switch ext += x - k; {
	case dots == 0:
		return p.settleNo(h, s, x, ext != 0, seen)
	case x == len(s) && ext <= 16: // the extension may go on
		p.hold = p.slab.Append(h, s)
		return "", true
	case ext == 0 || ext > 16 || s[x] >= utf8.RuneSelf:
		return "", false // not plainly a match: try's to say
	case !pathEnds[s[x]]:
		return p.settleNo(h, s, x, true, seen)
	case seen&cDrop == 0 || p.empty || p.slash && h[0] == '.' && dots > 1:
		return "", false // not plainly a match: try's to say
	}
	// A match: the scan starts over after it, and reads s[x:] as short.
	was := p.pathState
	p.pathState = pathState{}
	if !p.readRest(s[x:], was) {
		return "", false
	}
	p.hold = ""
	start := p.slab.Begin(dots + len(h) - r + len(s) - k)
	p.slab.WriteString(manyDots[:dots])
	p.slab.WriteString(h[r:])
	p.slab.WriteString(s[k:])
	return p.slab.End(start), true
}

// settleNo is settle where no try in the held run h matches: the run,
// whose classes are seen, has no dot, or its extension, which ends at s[x]
// and is not empty, is followed there by an ASCII character that may not
// follow a path's. It returns h and s unchanged, with the state after them
// (as if each try had been made: each decides no match and changes
// nothing); it reports false, with the state as it was, where a try would
// read s[x:]. ext is false only for a run without a dot.
//
//go:noinline
func (p *pathRule) settleNo(h, s string, x int, ext bool, seen uint8) (string, bool) {
	was := p.pathState
	if seen&cDrop != 0 {
		// The run's last whitespace ends the path; what follows it,
		// dots or the extension, begins a new run.
		p.run, p.slash, p.path, p.empty = ext, false, false, false
	} else {
		p.ordinary()
	}
	if !p.readRest(s[x:], was) {
		return "", false
	}
	p.hold = ""
	return p.slab.Append(h, s), true
}

// readRest reads rest, what follows a held run settle has decided, as
// short reads it, and reports whether it read all of it; where it did not
// (a try would read some), it puts back the state given, the one before
// settle decided.
func (p *pathRule) readRest(rest string, was pathState) bool {
	seen := uint8(0)
	for _, c := range []byte(rest) {
		seen |= normClass[c]
	}
	if rest != "" && !p.path && !p.slash && seen&(cSlash|cLead) == 0 {
		// Outside a path only a slash can begin one: rest leaves no path,
		// and sets whether a run of path characters goes on, as short's
		// loop would.
		p.run = normClass[rest[len(rest)-1]]&(cDrop|cBreak) == 0
		if seen&(cDrop|cBreak) != 0 {
			p.empty = false
		}
		return true
	}
	if p.short(rest, seen) < len(rest) {
		p.pathState = was
		return false
	}
	return true
}

// bulk is feed for a text that is long, or after held text, or that a try
// reads; it reads a short one that ends in an ASCII character in small.
func (p *pathRule) bulk(s string, eof bool) string {
	t := p.take(s)
	if n := len(t); !eof && n <= maxShort && n > 0 && t[n-1] < utf8.RuneSelf {
		if out, ok := p.small(t, 0); ok {
			return out
		}
	}
	lim, tail, text := normBounds(t, eof)
	i := 0
	if strings.IndexByte(t[:tail], '.') < 0 {
		// The common text: no spaced run before the tail, which the loop
		// below would skip at once, to decide at the tail as below.
		p.skip(t, 0, tail, eof)
		if tail == text { // no tail
			p.hold = t[lim:]
			return t[:lim]
		}
		i = tail
	}
	for i < tail {
		start, end := nextRun(t, i, tail)
		p.skip(t, i, start, eof)
		if i = start; i == tail {
			break
		}
		if i = p.sep(t, i, end, eof); i < 0 {
			return p.out(t[:len(t)-len(p.hold)])
		}
	}
	if i == tail && tail < text && p.path && tailUndecided(t, tail, text, lim) {
		p.hold = t[tail:]
		return p.out(t[:tail])
	}
	if i = p.sep(t, i, text, eof); i < 0 {
		return p.out(t[:len(t)-len(p.hold)])
	}
	p.skip(t, i, lim, eof)
	p.hold = t[lim:]
	return p.out(t[:lim])
}

// maxShort bounds the text pathRule.feed and small read one character at
// a time: a longer one is read in bulk.
const maxShort = 64

// small is bulk for t[from:], t being a short text that ends in an ASCII
// character and that more may follow, where the state is already that
// after t[:from] (short's): it reads one character at a time, as the rule
// is written, and tries at each dot or droppable whitespace inside a path.
// It reports false, with the state as at the call, when t[from:] has a
// byte that may begin a Unicode space; only a caller with from 0 may then
// hand t to bulk.
func (p *pathRule) small(t string, from int) (string, bool) {
	was := p.pathState
	for i := from; i < len(t); i++ {
		c := normClass[t[i]]
		if c&cRun != 0 && p.path {
			switch v, sepEnd, end := p.try(t, i, false); v {
			case undecided:
				p.hold = t[i:]
				return p.out(t[:i]), true
			case matched:
				p.cuts = append(p.cuts, i, sepEnd)
				i = end - 1
				continue
			}
		}
		switch {
		case c&(cDrop|cBreak) != 0:
			p.pathState = pathState{}
		case c&cLead != 0:
			p.pathState = was
			p.cuts = p.cuts[:0]
			return "", false
		default:
			if p.slash {
				p.path, p.empty = true, false
			}
			p.slash, p.run = c&cSlash != 0 && p.run, true
		}
	}
	return p.out(t), true
}

// short reads s, a short delta that ends in an ASCII character after no
// held text (or after held text already decided), whose bytes' classes
// are seen, up to where a try would read, and returns where it stopped:
// len(s) when it read all of s, 0 when s has a byte that may begin a
// Unicode space. The state is that after what it read, so that small may
// read on from there.
func (p *pathRule) short(s string, seen uint8) int {
	switch {
	case seen&(cDot|cSlash|cDrop|cBreak|cLead) == 0:
		// Inside one (or after its slash) ordinary characters go on with it.
		p.ordinary()
		return len(s)
	case seen&cLead != 0:
		return 0
	}
	// A try reads only a dot or whitespace in a path: take a character
	// at a time until one would (pathNext).
	st, kind, next := p.code(), &pathKind, &pathNext
	for k := range len(s) {
		to := next[kind[s[k]]|st]
		if to == pathStop {
			p.pathState = pathStates[st&15]
			return k
		}
		st = to
	}
	p.pathState = pathStates[st&15]
	return len(s)
}

// runIn returns the length of the run of dots and droppable whitespace
// that t begins with, its dots and its bytes' classes.
func runIn(t string) (n, dots int, seen uint8) {
	for ; n < len(t); n++ {
		c := normClass[t[n]]
		if c&cRun == 0 {
			break
		}
		dots += int(c & cDot)
		seen |= c
	}
	return n, dots, seen
}

// sep reads t[i:end], dots and droppable whitespace, one at a time from
// where a try may begin, and returns where it stopped reading: end, or
// the end of a match; -1 when a try was undecided (then it holds the rest).
func (p *pathRule) sep(t string, i, end int, eof bool) int {
	for ; i < end; i++ {
		if p.path {
			switch v, sepEnd, matchEnd := p.try(t, i, eof); v {
			case undecided:
				p.hold = t[i:]
				return -1
			case matched:
				p.cuts = append(p.cuts, i, sepEnd)
				return matchEnd
			}
		}
		if t[i] == '.' {
			p.ordinary()
		} else { // whitespace ends a path
			p.pathState = pathState{}
		}
	}
	return i
}

// skip reads t[i:j], which holds no spaced run and no tail, at once: the
// state starts over after the last character that ends a path, and only
// what follows it, a dot alone at most, can make it a path and mark it.
func (p *pathRule) skip(t string, i, j int, eof bool) {
	k, from := j, i
	lo, hi := j, j // the first and last dot or slash after it
scan:
	for ; k > i; k-- {
		c := normClass[t[k-1]]
		switch {
		case c&(cDot|cSlash|cDrop|cBreak|cLead) == 0: // ordinary
		case c&(cDot|cSlash) != 0:
			if hi == j {
				hi = k - 1
			}
			lo = k - 1
		case c&(cDrop|cBreak) != 0:
			from = k
			break scan
		case c&cLead != 0:
			if r, size := utf8.DecodeRuneInString(t[k-1 : j]); isSpace(r) {
				from = k - 1 + size
				break scan
			}
		}
	}
	if k > i {
		p.pathState = pathState{}
	}
	if from < lo { // ordinary characters
		p.ordinary()
	}
	for ; lo <= hi && lo < j; lo++ {
		c := t[lo]
		if c == '.' && p.path {
			// A dot alone: no match, though a match of dots alone
			// marks the stretch (empty).
			p.try(t, lo, eof)
		}
		if p.slash {
			p.path, p.empty = true, false
		}
		p.slash, p.run = normClass[c]&cSlash != 0 && p.run, true
	}
	if hi+1 < j { // ordinary characters
		p.ordinary()
	}
}

// ordinary steps over a run of characters that are neither dots, slashes
// nor characters that end a path, as over one.
func (p *pathRule) ordinary() {
	if p.slash { // the stretch after the slash begins after it
		p.path, p.empty = true, false
	}
	p.slash, p.run = false, true
}

// try decides rule (a)'s try at the run at t[i], inside a path, which more
// may follow unless eof: on a match it also returns where the run and the
// match end, and the scan starts over after it. settle decides the same
// try over held text and a delta: a rule that try gains, settle must
// decline or share.
func (p *pathRule) try(t string, i int, eof bool) (v verdict, sepEnd, end int) {
	sepEnd, end, dots, spaced, next, ok := sepAndExt(t, i, eof)
	switch {
	case !ok:
		return undecided, 0, 0
	case dots == 0 || end == sepEnd || end-sepEnd > 16 || !endsPath(next):
		return noMatch, 0, 0
	case p.slash && t[i] == '.' && dots > 1:
		// Right after a slash the run's first dot still belongs to the
		// stretch before it; upstream prefers the match one byte on, in
		// the stretch after the slash.
		return noMatch, 0, 0
	case !spaced:
		// Dots alone: a match that changes nothing here (upstream's
		// changes one of several dots; ours keeps them).
		p.empty = true
		return noMatch, 0, 0
	case p.empty:
		return noMatch, 0, 0
	}
	p.pathState = pathState{} // the scan starts over after the match
	return matched, sepEnd, end
}

// endsPath reports whether r (-1: the end of the text) may follow a path's
// extension.
func endsPath(r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		return pathEnds[r]
	}
	return r == -1 || isSpace(r)
}

// pathEnds are the ASCII characters that may follow a path's extension.
var pathEnds = func() (e [utf8.RuneSelf]bool) {
	for r := range rune(utf8.RuneSelf) {
		e[r] = strings.ContainsRune("\"'`),;:]|[\\/", r) || isSpace(r)
	}
	return e
}()

// nameExtensions are the extensions rule (b) joins to any name.
var nameExtensions = map[string]bool{
	"c": true, "cc": true, "cfg": true, "conf": true, "cpp": true, "cs": true, "css": true, "csv": true,
	"gd": true, "go": true, "h": true, "hpp": true, "html": true, "ini": true, "java": true, "js": true,
	"json": true, "jsx": true, "lua": true, "md": true, "php": true, "py": true, "rb": true, "rs": true,
	"scss": true, "sh": true, "sql": true, "svg": true, "swift": true, "toml": true, "ts": true,
	"tscn": true, "tsx": true, "txt": true, "xml": true, "yaml": true, "yml": true,
}

// nameRule is the normaliser's rule (b): a stand-alone name. A stream's
// rule reads each byte once: where it stands in the current run of name
// characters and the try in progress, which reads on across deltas, are
// carried from one call to the next, and the text held is only kept, not
// read again; the next delta is written after it in the slab, so that
// held text is copied once. Most tries, at one space with no dot, cannot
// match: those end at once, with the run, and plain reads on as outside a
// try. Over a whole text it reads only the spaced runs (wholeNorm.run).
type nameRule struct {
	hold  string      // undecided text: from the start of the try in progress, or a character cut in two
	cut   int         // the bytes at the end of hold that begin a character cut in two, not read yet
	cuts  []nameCut   // the runs the call rewrites
	slab  marker.Slab // holds held text and the delta after it, and output that is not a piece of the input
	st    uint8       // where it stands in the current run of name characters (nAfter, ...)
	n     int         // the run's length
	phase uint8       // outside a try, or in its run or its extension
	try   nameTry
}

// Rule (b)'s state: flags of where it stands in the current run of name
// characters, and cSpecial when the run has a _, - or digit.
const (
	nAfter = 1 // the last character is one a name may not follow: a letter, digit, _, -, ., / or \
	nInRun = 2 // inside a run of letters, digits, _ and -
	nName  = 4 // the run began with a letter or digit where a name may begin (and is a name while at most 256 long)
)

// Rule (b)'s phases: outside a try, or reading a try's run of dots and
// droppable whitespace, or its extension.
const (
	noTry = iota
	tryRun
	tryExt
)

// nameTry is a try of rule (b) in progress (sepAndExt, read a byte at a
// time): at a run of dots and droppable whitespace after a name.
type nameTry struct {
	at      int  // where it began, an offset into the text the call reads (held text, then the delta)
	run     int  // the run's bytes read
	dots    int  // the run's dots
	spaced  bool // the run has droppable whitespace
	special bool // the name has a _, - or digit
}

// nameCut is a run rule (b) rewrites as its dots: offsets into the text a
// call reads.
type nameCut struct{ start, end, dots int }

// feed runs rule (b) over s, after the text it held; eof ends the text.
// It returns the text decided, with the runs rewritten.
func (p *nameRule) feed(s string, eof bool) string {
	if s == "" && !eof {
		return ""
	}
	t, i := s, 0
	if p.hold != "" {
		t, i = p.slab.Append(p.hold, s), len(p.hold)-p.cut
	}
	if !eof && p.cut == 0 && t[len(t)-1] < utf8.RuneSelf &&
		(p.phase == noTry || p.phase == tryRun && p.try.dots == 0) {
		// The common delta: no try in it may match.
		if i = p.plain(t, i); i == len(t) {
			keep := len(t)
			if p.phase != noTry {
				keep, p.try.at = p.try.at, 0
			}
			p.hold = t[keep:]
			return t[:keep]
		}
		if p.phase == noTry {
			// plain stopped where a try begins: begin it, as read would.
			k := normClass[t[i]]
			p.try = nameTry{at: i, run: 1, dots: int(k & cDot), spaced: k&cDrop != 0, special: p.st&cSpecial != 0}
			p.phase, p.st = tryRun, afterOf(k)
			i++
		}
	}
	keep := p.read(t, i, eof)
	if len(p.cuts) > 0 {
		return p.emit(t, keep)
	}
	p.hold = t[keep:]
	if p.phase != noTry {
		p.try.at -= keep
	}
	return t[:keep]
}

// read reads t[i:] and returns where the text it holds begins (len(t)
// when it holds none). Unless eof, it reads no further than a character t
// ends inside, which it holds.
func (p *nameRule) read(t string, i int, eof bool) (keep int) {
	end := len(t)
	if !eof && end > 0 && t[end-1] >= utf8.RuneSelf {
		end = fullEnd(t)
	}
	st, n, phase := p.st, p.n, p.phase
scan:
	for {
		switch phase {
		case noTry:
			p.st, p.n, p.phase = st, n, noTry
			i = p.plain(t[:end], i)
			st, n, phase = p.st, p.n, p.phase
			if phase != noTry { // a try at one space, at end
				continue
			}
			if i >= end {
				break scan
			}
			k := normClass[t[i]]
			p.try = nameTry{at: i, run: 1, dots: int(k & cDot), spaced: k&cDrop != 0, special: st&cSpecial != 0}
			phase, st = tryRun, afterOf(k)
			i++
		case tryRun:
			tr := &p.try
			i, st = tr.runOn(t[:end], i, st)
			switch {
			case tr.run > maxSepRun && i < len(t): // too long a run to join
				phase = noTry
				continue scan
			case i == end:
				break scan
			case tr.dots == 0: // the run has ended without a dot: no match
				phase = noTry
				continue scan
			}
			phase = tryExt
		case tryExt:
			i, st, n = extOn(t[:end], i, st, n)
			switch {
			case i == end:
				break scan
			case normClass[t[i]]&cAlnum != 0: // too long to be an extension
				phase = noTry
			default:
				phase = noTry
				if p.try.dots > 0 && p.decide(t, i, st&nInRun != 0, n, t[i] == '_') {
					st = nInRun | nAfter
				}
			}
		}
	}
	if phase != noTry && eof {
		phase = noTry
		if p.try.dots > 0 && p.decide(t, len(t), st&nInRun != 0, n, false) {
			st = nInRun | nAfter
		}
	}
	p.st, p.n, p.phase = st, n, phase
	p.cut = len(t) - end
	if phase != noTry {
		return p.try.at
	}
	return end
}

// runOn reads on in the try's run from t[i], in state st, and returns
// where it stopped, at a character that is no run's, the end of t or the
// run's 66th byte, and the state there.
func (tr *nameTry) runOn(t string, i int, st uint8) (int, uint8) {
	for ; i < len(t) && tr.run <= maxSepRun; i++ {
		k := normClass[t[i]]
		if k&cRun == 0 {
			break
		}
		tr.run++
		tr.dots += int(k & cDot)
		tr.spaced = tr.spaced || k&cDrop != 0
		st = afterOf(k)
	}
	return i, st
}

// extOn reads on in a try's extension from t[i], in state st after a run
// of name characters n long, and returns where it stopped, at a character
// that is no letter or digit, the end of t or the extension's 17th
// character, and the state there.
func extOn(t string, i int, st uint8, n int) (int, uint8, int) {
	for ; i < len(t); i++ {
		k := normClass[t[i]]
		if k&cAlnum == 0 || st&nInRun != 0 && n >= 16 {
			break
		}
		if st&nInRun == 0 { // nameBegins for a letter or digit
			st, n = nInRun|nAfter|(^st&nAfter)*nName, 0
		}
		n++
		st |= k & cSpecial
	}
	return i, st, n
}

// plain reads t[i:], which more text may follow, outside a try, or after
// the whitespace that began one (phase tryRun, no dot in its run so far),
// up to where a try begins at a dot or a longer run, which may match: it
// returns where it stopped, that try's start or len(t). A try at one space
// that no dot or space follows cannot match: it ends with its run, and
// plain reads on as outside one.
func (p *nameRule) plain(t string, i int) int {
	st, n := p.st, p.n
	if p.phase == tryRun {
		if normClass[t[i]]&cRun != 0 {
			return i
		}
		p.phase = noTry
	}
	for ; i < len(t); i++ {
		k := normClass[t[i]]
		if k&cName != 0 {
			if st&nInRun == 0 {
				st, n = nameBegins(st, k), 0
			}
			j, seen := i+1, k
			for ; j < len(t); j++ {
				c := normClass[t[j]]
				if c&cName == 0 {
					break
				}
				seen |= c
			}
			st |= seen & cSpecial
			n += j - i
			if i = j; i == len(t) {
				break
			}
			k = normClass[t[i]]
		}
		if k&cRun != 0 && st&(nInRun|nName) == nInRun|nName && n <= 256 {
			switch {
			case k&cDrop == 0: // a dot
			case i+1 == len(t): // the run may go on
				p.try = nameTry{at: i, run: 1, spaced: true, special: st&cSpecial != 0}
				p.phase, st = tryRun, 0
				i++
			case normClass[t[i+1]]&cRun == 0: // no dot: no match
				st = 0
				continue
			}
			break
		}
		st = afterOf(k)
	}
	p.st, p.n = st, n
	return i
}

// afterOf returns the state after a character of class k that is no
// name's: nAfter after a dot, / or \.
func afterOf(k uint8) uint8 {
	if k&(cDot|cSlash) != 0 {
		return nAfter
	}
	return 0
}

// nameBegins returns the state after a name's character of class k that
// begins a run, in state st.
func nameBegins(st, k uint8) uint8 {
	// nName when k has cAlnum and st lacks nAfter, without a branch: which
	// of the two a delta's bytes give is the text's to say.
	return nInRun | nAfter | k&cSpecial | k>>3&(^st<<2)&nName
}

// nameBegins shifts cAlnum and nAfter into nName's place: a compile error
// (a negative constant made a uint) unless both land there.
const _ = uint(cAlnum>>3-nName) + uint(nName-cAlnum>>3) + uint(nAfter<<2-nName) + uint(nName-nAfter<<2)

// decide ends the try in progress at t[i], the character after its
// extension, which is a _ or not, and reports whether it matched: a match
// is rewritten when the name is special or the extension listed, and
// consumed either way. inRun and n are the run of name characters read
// last, the extension when there is one.
func (p *nameRule) decide(t string, i int, inRun bool, n int, underscore bool) bool {
	tr := &p.try
	if !inRun || tr.dots == 0 || underscore || !tr.spaced {
		// No match; dots alone would be one that changes nothing here,
		// its extension, after a dot, beginning no name anyway.
		return false
	}
	if tr.special || listedExtension(t[i-n:i]) {
		p.cuts = append(p.cuts, nameCut{tr.at, tr.at + tr.run, tr.dots})
	}
	return true
}

// emit returns t, read, up to keep, with the runs rewritten, and holds the
// rest.
func (p *nameRule) emit(t string, keep int) string {
	out := t[:keep]
	if len(p.cuts) > 0 {
		n := keep
		for _, c := range p.cuts {
			n -= c.end - c.start - c.dots
		}
		start, prev := p.slab.Begin(n), 0
		for _, c := range p.cuts {
			p.slab.WriteString(t[prev:c.start])
			p.slab.WriteString(manyDots[:c.dots])
			prev = c.end
		}
		p.slab.WriteString(t[prev:keep])
		p.cuts = p.cuts[:0]
		out = p.slab.End(start)
	}
	p.hold = t[keep:]
	if p.phase != noTry {
		p.try.at -= keep
	}
	return out
}

// emitWhole returns the whole text t with the runs rewritten (cuts). A
// text of more than 4 KiB, for which the slab would make an allocation of
// its own, cleared first, is written to a strings.Builder, which does not
// clear it.
func (p *nameRule) emitWhole(t string) string {
	if len(p.cuts) == 0 || len(t) <= 4<<10 {
		return p.emit(t, len(t))
	}
	n := len(t)
	for _, c := range p.cuts {
		n -= c.end - c.start - c.dots
	}
	var b strings.Builder
	b.Grow(n)
	prev := 0
	for _, c := range p.cuts {
		b.WriteString(t[prev:c.start])
		if c.dots == 1 { // the common run
			b.WriteByte('.')
		} else {
			b.WriteString(manyDots[:c.dots])
		}
		prev = c.end
	}
	b.WriteString(t[prev:])
	p.cuts = p.cuts[:0]
	return b.String()
}

// cutInPlace returns buf's text with the runs rewritten (cuts), rewritten
// in buf itself, whose bytes the result then holds: buf is the caller's,
// who writes it no more. A rewritten run is shorter than the run, so each
// byte moves towards the start, past bytes already moved.
func (p *nameRule) cutInPlace(buf []byte) string {
	if len(p.cuts) == 0 {
		return unsafe.String(unsafe.SliceData(buf), len(buf))
	}
	// Where the next byte goes, and where it comes from: the text before
	// the first run stays.
	w, prev := p.cuts[0].start, p.cuts[0].start
	for _, c := range p.cuts {
		w += copy(buf[w:], buf[prev:c.start])
		if c.dots == 1 { // the common run
			buf[w] = '.'
			w++
		} else {
			w += copy(buf[w:], manyDots[:c.dots])
		}
		prev = c.end
	}
	w += copy(buf[w:], buf[prev:])
	p.cuts = p.cuts[:0]
	return unsafe.String(unsafe.SliceData(buf), w)
}

// listedExtension reports whether ext (at most 16 ASCII letters and
// digits) is one of nameExtensions, in any case, without allocating.
func listedExtension(ext string) bool {
	if len(ext) >= len(listedLast) || ext == "" || listedLast[len(ext)]>>(ext[len(ext)-1]&31)&1 == 0 {
		return false
	}
	k := packExt(ext)
	return listedTable[k*listedMul>>56] == k
}

// listedLast has, for each length up to 8, bit b&31 set for the last byte
// b of every extension of that length in nameExtensions: an extension
// whose last byte's bit is clear there (most words) is not listed, in any
// case, as b&31 is the same for a letter in either case.
var listedLast = func() (l [9]uint32) {
	for ext := range nameExtensions {
		l[len(ext)] |= 1 << (ext[len(ext)-1] & 31)
	}
	return l
}()

// listedSplit is listedExtension for the extension a+b.
func listedSplit(a, b string) bool {
	if n := len(a) + len(b); n > 8 || n == 0 {
		return false
	}
	k := packExt(a)<<(8*len(b)) | packExt(b)
	return listedTable[k*listedMul>>56] == k
}

// packExt returns ext, at most 8 ASCII letters and digits, in lower case,
// as a number: its bytes, the first the highest. Bit 0x20 makes a letter
// lower case and is set in every digit.
func packExt(ext string) uint64 {
	var k uint64
	for i := range len(ext) {
		k = k<<8 | uint64(ext[i]|0x20)
	}
	return k
}

// listedTable holds nameExtensions packed (packExt), each at the slot the
// top byte of it times listedMul gives, which no two share (the first of a
// fixed sequence of odd numbers that gives such slots); the other slots
// are 0, which packs no extension.
var listedTable, listedMul = func() (t [256]uint64, mul uint64) {
	for mul = 0x9e3779b97f4a7c15; ; mul = mul*6364136223846793005 + 1442695040888963407 | 1 {
		t = [256]uint64{}
		ok := true
		for ext := range nameExtensions {
			k := packExt(ext)
			if t[k*mul>>56] != 0 {
				ok = false
				break
			}
			t[k*mul>>56] = k
		}
		if ok {
			return t, mul
		}
	}
}()
