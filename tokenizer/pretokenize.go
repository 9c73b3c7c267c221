package tokenizer

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// gpt2Pattern is the word pattern of GPT-2, which a ByteLevel pre-tokenizer
// with use_regex splits by.
const gpt2Pattern = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`

var gpt2Regex = sync.OnceValue(func() *regexp2.Regexp {
	re, err := compileRegex(gpt2Pattern)
	if err != nil {
		panic("tokenizer: GPT-2 pattern: " + err.Error())
	}
	return re
})

// compileRegex compiles a pre-tokenizer or normalizer pattern. Hugging Face
// compiles these with Oniguruma and tiktoken with Rust's fancy-regex; both
// read \s, \p{L} and friends over all of Unicode, which is regexp2's default
// (.NET) mode. Its RE2 and ECMAScript modes would make \s ASCII-only.
//
// Case-insensitive groups of plain letters, such as the contractions
// (?i:'s|'t|'re|'ve|'m|'ll|'d), are spelled out with every character of each
// letter's case-folding orbit: Oniguruma and Rust match "'ſ" (long s) and
// "'K" (Kelvin sign) there, regexp2's (?i) does not.
func compileRegex(pattern string) (*regexp2.Regexp, error) {
	re, err := regexp2.Compile(expandFoldGroups(pattern), regexp2.None)
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %w", pattern, err)
	}
	return re, nil
}

// expandFoldGroups rewrites each (?i:...) group that holds only letters,
// digits, apostrophes and | into a plain group where every letter is a class
// of its simple case-folding orbit: (?i:'s|'t) becomes (?:'[sSſ]|'[tT]).
// Other groups are left as they are.
func expandFoldGroups(pattern string) string {
	const open = "(?i:"
	var out strings.Builder
	for {
		i := strings.Index(pattern, open)
		if i < 0 || i > 0 && pattern[i-1] == '\\' {
			out.WriteString(pattern)
			return out.String()
		}
		j := strings.IndexByte(pattern[i:], ')')
		body := ""
		if j > 0 {
			body = pattern[i+len(open) : i+j]
		}
		if j < 0 || !plainAlternatives(body) {
			out.WriteString(pattern[:i+len(open)])
			pattern = pattern[i+len(open):]
			continue
		}
		out.WriteString(pattern[:i])
		out.WriteString("(?:")
		for _, r := range body {
			if !unicode.IsLetter(r) || unicode.SimpleFold(r) == r {
				out.WriteRune(r)
				continue
			}
			out.WriteByte('[')
			for f := r; ; {
				out.WriteRune(f)
				if f = unicode.SimpleFold(f); f == r {
					break
				}
			}
			out.WriteByte(']')
		}
		out.WriteByte(')')
		pattern = pattern[i+j+1:]
	}
}

func plainAlternatives(body string) bool {
	for _, r := range body {
		if r != '|' && r != '\'' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return body != ""
}

// A piece is a part of the input on its way to the model. first reports
// whether it starts the input, which Metaspace's "first" scheme asks.
type piece struct {
	s     string
	first bool
}

// A preStep is one pre-tokenizer: it splits a piece into smaller ones.
type preStep interface {
	split(dst []piece, p piece) []piece
}

// span is a part of a piece, and whether a pattern matched it.
type span struct {
	start, end int
	match      bool
}

// splitBehavior says what Split does with the parts its pattern matches.
type splitBehavior uint8

const (
	behaviorRemoved            splitBehavior = iota // dropped
	behaviorIsolated                                // pieces of their own
	behaviorMergedWithPrevious                      // joined to the piece before
	behaviorMergedWithNext                          // joined to the piece after
	behaviorContiguous                              // runs of matches make one piece
)

var behaviors = map[string]splitBehavior{
	"Removed":            behaviorRemoved,
	"Isolated":           behaviorIsolated,
	"MergedWithPrevious": behaviorMergedWithPrevious,
	"MergedWithNext":     behaviorMergedWithNext,
	"Contiguous":         behaviorContiguous,
}

// applyBehavior appends to dst the pieces that spans (covering p.s in order)
// make under behavior b.
func applyBehavior(dst []piece, p piece, spans []span, b splitBehavior) []piece {
	if b == behaviorIsolated { // the common case, without the copy below
		for _, sp := range spans {
			if sp.start < sp.end {
				dst = append(dst, piece{s: p.s[sp.start:sp.end], first: p.first && sp.start == 0})
			}
		}
		return dst
	}
	type part struct {
		start, end int
		drop       bool
	}
	var parts []part
	switch b {
	case behaviorRemoved:
		for _, sp := range spans {
			parts = append(parts, part{sp.start, sp.end, sp.match})
		}
	case behaviorIsolated:
		for _, sp := range spans {
			parts = append(parts, part{sp.start, sp.end, false})
		}
	case behaviorContiguous:
		prev := false
		for _, sp := range spans {
			if sp.match == prev && len(parts) > 0 {
				parts[len(parts)-1].end = sp.end
			} else {
				parts = append(parts, part{sp.start, sp.end, false})
			}
			prev = sp.match
		}
	case behaviorMergedWithPrevious:
		prev := false
		for _, sp := range spans {
			if sp.match && !prev && len(parts) > 0 {
				parts[len(parts)-1].end = sp.end
			} else {
				parts = append(parts, part{sp.start, sp.end, false})
			}
			prev = sp.match
		}
	case behaviorMergedWithNext:
		prev := false
		for i := len(spans) - 1; i >= 0; i-- {
			sp := spans[i]
			if sp.match && !prev && len(parts) > 0 {
				parts[len(parts)-1].start = sp.start
			} else {
				parts = append(parts, part{sp.start, sp.end, false})
			}
			prev = sp.match
		}
		for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
			parts[i], parts[j] = parts[j], parts[i]
		}
	}
	for _, pt := range parts {
		if pt.drop || pt.start == pt.end {
			continue
		}
		dst = append(dst, piece{s: p.s[pt.start:pt.end], first: p.first && pt.start == 0})
	}
	return dst
}

// runeBuf holds a piece decoded to runes for regexp2, and the byte offset
// of each rune. An invalid byte becomes U+FFFD but keeps its own offset, so
// matches map back to the original bytes exactly.
type runeBuf struct {
	runes []rune
	offs  []int
}

var runeBufPool = sync.Pool{New: func() any { return new(runeBuf) }}

func (rb *runeBuf) fill(s string) {
	rb.runes, rb.offs = rb.runes[:0], rb.offs[:0]
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		rb.runes = append(rb.runes, r)
		rb.offs = append(rb.offs, i)
		i += n
	}
	rb.offs = append(rb.offs, len(s))
}

// regexSpans appends the spans of s that re matches and the gaps between
// them.
func regexSpans(dst []span, re *regexp2.Regexp, s string, invert bool) []span {
	rb := runeBufPool.Get().(*runeBuf)
	rb.fill(s)
	prev := 0
	m, _ := re.FindRunesMatch(rb.runes)
	for m != nil {
		start, end := rb.offs[m.Index], rb.offs[m.Index+m.Length]
		if start > prev {
			dst = append(dst, span{prev, start, invert})
		}
		if end > start {
			dst = append(dst, span{start, end, !invert})
		}
		prev = end
		m, _ = re.FindNextMatch(m)
	}
	if prev < len(s) {
		dst = append(dst, span{prev, len(s), invert})
	}
	runeBufPool.Put(rb)
	return dst
}

// splitRegex is the Split pre-tokenizer with a Regex pattern.
type splitRegex struct {
	re       *regexp2.Regexp
	behavior splitBehavior
	invert   bool
}

func (st splitRegex) split(dst []piece, p piece) []piece {
	if p.s == "" {
		return dst
	}
	var buf [64]span
	return applyBehavior(dst, p, regexSpans(buf[:0], st.re, p.s, st.invert), st.behavior)
}

// splitString is the Split pre-tokenizer with a String pattern.
type splitString struct {
	sep      string
	behavior splitBehavior
	invert   bool
}

func (st splitString) split(dst []piece, p piece) []piece {
	if p.s == "" {
		return dst
	}
	var buf [64]span
	spans := buf[:0]
	prev := 0
	for prev < len(p.s) {
		i := strings.Index(p.s[prev:], st.sep)
		if i < 0 {
			break
		}
		start := prev + i
		if start > prev {
			spans = append(spans, span{prev, start, st.invert})
		}
		spans = append(spans, span{start, start + len(st.sep), !st.invert})
		prev = start + len(st.sep)
	}
	if prev < len(p.s) {
		spans = append(spans, span{prev, len(p.s), st.invert})
	}
	return applyBehavior(dst, p, spans, st.behavior)
}

// byteLevelStep is the ByteLevel pre-tokenizer. It spells bytes as
// characters too, but the model does that part: words stay raw bytes here.
type byteLevelStep struct {
	addPrefixSpace bool
	useRegex       bool
}

func (st byteLevelStep) split(dst []piece, p piece) []piece {
	if st.addPrefixSpace && !strings.HasPrefix(p.s, " ") {
		p.s = " " + p.s
	}
	if !st.useRegex {
		return append(dst, p)
	}
	return splitRegex{re: gpt2Regex(), behavior: behaviorIsolated}.split(dst, p)
}

// prependScheme says when Metaspace puts its replacement before a word.
type prependScheme uint8

const (
	prependAlways prependScheme = iota
	prependFirst                // only before the start of the input
	prependNever
)

// parsePrependScheme reads a Metaspace prepend_scheme; files older than
// prepend_scheme say add_prefix_space (default true) instead.
func parsePrependScheme(scheme *string, addPrefixSpace *bool) (prependScheme, error) {
	switch v := stringOr(scheme, ""); v {
	case "always":
		return prependAlways, nil
	case "first":
		return prependFirst, nil
	case "never":
		return prependNever, nil
	case "":
		if boolOr(addPrefixSpace, true) {
			return prependAlways, nil
		}
		return prependNever, nil
	default:
		return 0, unsupportedf("unsupported prepend_scheme %q", v)
	}
}

// metaspaceStep is the Metaspace pre-tokenizer of SentencePiece-style
// vocabularies: spaces become the replacement (usually "▁").
type metaspaceStep struct {
	replacement string
	scheme      prependScheme
	splitWords  bool // split before each replacement
}

func (st metaspaceStep) split(dst []piece, p piece) []piece {
	p.s = strings.ReplaceAll(p.s, " ", st.replacement)
	if !strings.HasPrefix(p.s, st.replacement) &&
		(st.scheme == prependAlways || st.scheme == prependFirst && p.first) {
		p.s = st.replacement + p.s
	}
	if !st.splitWords {
		return append(dst, p)
	}
	return splitString{sep: st.replacement, behavior: behaviorMergedWithNext}.split(dst, p)
}

// preTokenizer splits normalized text into the words the model encodes.
type preTokenizer struct {
	steps     []preStep
	byteLevel bool   // a ByteLevel step is present: the model works on bytes
	metaspace string // a Metaspace step's replacement, "" if none
}

var piecePool = sync.Pool{New: func() any { return new([2][]piece) }}

// words calls fn with each word of s; first says whether s starts the input.
func (pt *preTokenizer) words(s string, first bool, fn func(string)) {
	if len(pt.steps) == 0 {
		fn(s)
		return
	}
	bufs := piecePool.Get().(*[2][]piece)
	cur := append(bufs[0][:0], piece{s, first})
	next := bufs[1][:0]
	for _, st := range pt.steps {
		next = next[:0]
		for _, p := range cur {
			next = st.split(next, p)
		}
		cur, next = next, cur
	}
	for _, p := range cur {
		fn(p.s)
	}
	clear(cur) // drop references to the text before pooling
	clear(next)
	bufs[0], bufs[1] = cur[:0], next[:0]
	piecePool.Put(bufs)
}

// buildPreTokenizer turns the "pre_tokenizer" of a tokenizer.json into a
// preTokenizer (with no steps when there is none).
func buildPreTokenizer(raw []byte) (*preTokenizer, error) {
	pt := &preTokenizer{}
	if err := pt.add(raw); err != nil {
		return nil, err
	}
	return pt, nil
}

func (pt *preTokenizer) add(raw []byte) error {
	c, ok, err := parseComponent("pre_tokenizer", raw)
	if err != nil || !ok {
		return err
	}
	if pt.byteLevel && c.Type != "Sequence" {
		// The step would see bytes spelled as characters, which this
		// package never materialises.
		return unsupportedf("unsupported pre_tokenizer %q after ByteLevel", c.Type)
	}
	switch c.Type {
	case "Sequence":
		for _, sub := range c.PreTokenizers {
			if err := pt.add(sub); err != nil {
				return err
			}
		}
		return nil
	case "Split":
		b, ok := behaviors[c.Behavior]
		if !ok {
			return unsupportedf("pre_tokenizer Split: unsupported behavior %q", c.Behavior)
		}
		switch {
		case c.Pattern == nil:
			return fmt.Errorf("pre_tokenizer Split: no pattern")
		case c.Pattern.String != nil:
			if *c.Pattern.String == "" {
				return fmt.Errorf("pre_tokenizer Split: empty pattern")
			}
			pt.steps = append(pt.steps, splitString{sep: *c.Pattern.String, behavior: b, invert: c.Invert})
		case c.Pattern.Regex != nil:
			re, err := compileRegex(*c.Pattern.Regex)
			if err != nil {
				return fmt.Errorf("pre_tokenizer Split: %w", err)
			}
			pt.steps = append(pt.steps, splitRegex{re: re, behavior: b, invert: c.Invert})
		default:
			return fmt.Errorf("pre_tokenizer Split: pattern is neither String nor Regex")
		}
		return nil
	case "ByteLevel":
		if pt.metaspace != "" {
			return unsupportedf("unsupported pre_tokenizer ByteLevel after Metaspace")
		}
		pt.byteLevel = true
		pt.steps = append(pt.steps, byteLevelStep{
			addPrefixSpace: boolOr(c.AddPrefixSpace, true),
			useRegex:       boolOr(c.UseRegex, true),
		})
		return nil
	case "Metaspace":
		st := metaspaceStep{replacement: stringOr(c.Replacement, "▁"), splitWords: boolOr(c.Split, true)}
		if utf8.RuneCountInString(st.replacement) != 1 {
			return fmt.Errorf("pre_tokenizer Metaspace: replacement %q is not one character", st.replacement)
		}
		scheme, err := parsePrependScheme(c.PrependScheme, c.AddPrefixSpace)
		if err != nil {
			return fmt.Errorf("pre_tokenizer Metaspace: %w", err)
		}
		st.scheme = scheme
		pt.metaspace = st.replacement
		pt.steps = append(pt.steps, st)
		return nil
	}
	return unsupportedf("unsupported pre_tokenizer %q", c.Type)
}
