package parsers

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
)

// TestNormalizerAgrees checks the content normaliser of
// minimax_m2_sanitized against refNorm, a plain implementation that reads
// one character at a time (the normaliser as it was before it learnt to
// skip text in bulk), on seeded random texts built from the characters
// the rules treat specially: each rule alone and the two in a row, as the
// parser runs them, under one whole text, one byte per delta and random
// splits with empty deltas. Every call must return what refNorm's returns,
// so that text held back is released by the same delta too.
func TestNormalizerAgrees(t *testing.T) {
	seeds := uint64(400)
	if conformance.FullSweep() {
		seeds = 4000
	}
	for seed := range seeds {
		r := rand.New(rand.NewPCG(seed, 12))
		for range 10 {
			text := normText(r)
			for _, deltas := range normChunkings(r, text) {
				if err := normAgree(deltas); err != nil {
					t.Fatalf("seed %d, deltas %q (the last one ends the text): %v", seed, deltas, err)
				}
			}
		}
	}
}

// TestNormalizerShortTexts checks normalizePaths against refNorm on many
// short texts of a few pieces from a small set, the characters the rules'
// shortcuts turn on: where TestNormalizerAgrees's texts are long and
// varied, these are dense in the shapes that decide a try (a slash, a dot,
// a run, a name, an extension), in every order. Texts built so found the
// text that shows why pathAt resets its state (in TestNormalizerCases),
// which the long ones had not. One text in 64 is also streamed a byte at a
// time and in random deltas (normAgree).
func TestNormalizerShortTexts(t *testing.T) {
	pieces := []string{"a", "b", "_", "2", "/", "\\", ".", "..", " ", " ", "\n", "'", "py", "json", "x/", " . ", "c . py"}
	texts := 300_000
	if conformance.FullSweep() {
		texts = 3_000_000
	}
	seed := uint64(7)
	r := rand.New(rand.NewPCG(seed, 31))
	var b strings.Builder
	for n := range texts {
		b.Reset()
		for range 2 + r.IntN(14) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := b.String()
		if got, want := normalizePaths(text), new(refNorm).chain(text, true); got != want {
			t.Fatalf("seed %d, text %d: normalizePaths(%q) = %q, want %q", seed, n, text, got, want)
		}
		if n%64 == 0 {
			for _, deltas := range normChunkings(r, text)[1:] {
				if err := normAgree(deltas); err != nil {
					t.Fatalf("seed %d, text %d, deltas %q: %v", seed, n, deltas, err)
				}
			}
		}
	}
}

// TestNormalizerCases checks normalizePaths on cases chosen for the edge
// paths of its bulk skipping: dots and droppable whitespace at the ends of
// a text, runs of whitespace at the limit, names and paths reaching back
// over what the normaliser skips, other whitespace, and cut characters. It
// also checks that refNorm agrees with each.
func TestNormalizerCases(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{".", "."},
		{" . ", " . "},
		{"main . py", "main.py"},
		{"main .py", "main.py"},
		{"main. py", "main.py"},
		{"main.py", "main.py"},
		{"main . . py", "main..py"},
		{"main . PY", "main.PY"},
		{"main . pyc", "main . pyc"},         // not listed, and main is no special name
		{"main_2 . pyc", "main_2.pyc"},       // a _ or digit qualifies the name
		{"the end. Done", "the end. Done"},   // not listed
		{"foo . bar . py", "foo . bar . py"}, // the first match consumes bar
		{"a/b . c", "a/b.c"},                 // rule a: the name ends a path
		{"a/b . c)", "a/b.c)"},
		{"a/b . cx", "a/b.cx"},
		{"a/b . c.", "a/b . c."}, // a dot may not follow a path's extension
		{"x a/b . c", "x a/b.c"},
		{"'a/b . c'", "'a/b.c'"},
		{"a/b.c.d . py", "a/b.c.d . py"}, // rule a: a match of dots alone first; rule b: d follows a dot
		{"a/b\u00a0. c", "a/b\u00a0. c"}, // other whitespace ends the path, and is no name's
		{"a/b .\u00a0c", "a/b .\u00a0c"}, // other whitespace in the run: left alone
		{"é main . py", "é main.py"},
		{"émain . py", "émain.py"}, // a name may follow a character that is not ASCII
		{"a\xffmain . py", "a\xffmain.py"},
		{"éa/b . c", "éa/b.c"},
		{"a\u00a0b/c . d", "a\u00a0b/c.d"},
		{"x-main . py", "x-main.py"},
		{"-main . py", "-main . py"}, // a name begins with a letter or digit
		{"main" + strings.Repeat(" ", 63) + ".py", "main.py"},
		{"main" + strings.Repeat(" ", 64) + ".py", "main" + strings.Repeat(" ", 64) + ".py"},
		{"main" + strings.Repeat(" ", 70) + ". py", "main" + strings.Repeat(" ", 70) + ". py"},
		{strings.Repeat("a", 256) + " . py", strings.Repeat("a", 256) + ".py"},
		{strings.Repeat("a", 257) + " . py", strings.Repeat("a", 257) + " . py"},
		{"main . " + strings.Repeat("a", 16), "main . " + strings.Repeat("a", 16)},
		{"main2 . " + strings.Repeat("a", 16), "main2." + strings.Repeat("a", 16)},
		{"main2 . " + strings.Repeat("a", 17), "main2 . " + strings.Repeat("a", 17)},
		{"main2 . py_x", "main2 . py_x"},
		{"see a/b . c and main . py, then x/y .\tz", "see a/b.c and main.py, then x/y.z"},
		{"/.c. p /.c. p", "/.c. p /.c. p"},     // rule a: a stretch is read afresh, with nothing of the last one's try (pathAt)
		{" a/b . py/c . py", " a/b.py/c . py"}, // rule a: a stretch begins where the last match ended, so the slash there has no character before it (pathAt reads back to la, no further)
	} {
		if got := normalizePaths(c.in); got != c.want {
			t.Errorf("normalizePaths(%q) = %q, want %q", c.in, got, c.want)
		}
		if err := normAgree([]string{c.in}); err != nil {
			t.Errorf("%q: %v", c.in, err)
		}
		if err := normAgree(strings.SplitAfter(c.in, "")); err != nil {
			t.Errorf("%q per byte: %v", c.in, err)
		}
	}
}

// TestNormalizerHolds checks the normaliser against refNorm on streams
// whose deltas end where a try reads to the end of what it has, at the
// limits of what it may read.
func TestNormalizerHolds(t *testing.T) {
	a16, a17 := strings.Repeat("a", 16), strings.Repeat("a", 17)
	for _, deltas := range [][]string{
		{"main " + a16, " x"},
		{"main " + a17, " x"},
		{"main . " + a16, " x"},
		{"main2 . " + a16, ""},
		{"main" + strings.Repeat(" ", 64), ". py"},
		{"main" + strings.Repeat(" ", 64) + "py", ". x"},
		{"main" + strings.Repeat(" ", 65) + "py", ". x"},
		{"main" + strings.Repeat(" ", 65) + "\xe2", "\x80\x83"},
		{"main" + strings.Repeat(" ", 64) + "\xe2", "\x80\x83"},
		{"main" + strings.Repeat(" ", 64) + ".", "py"},
		{"main" + strings.Repeat(" ", 63) + ".", "py"},
		{"a/b" + strings.Repeat(" ", 64) + "py", ". x"},
		{"a/b" + strings.Repeat(".", 70), "py"},
		{"a/b" + strings.Repeat(".", 64), "py"},
		{"main" + strings.Repeat(" ", 65), ". py"},
		{"main" + strings.Repeat(" ", 66), ". py"},
		{"main" + strings.Repeat(" ", 200), ". py"},
		{"a/b .", " c", ")"},
		{"a/b.c", ".d . py", ""},
		{"a/b..", ". c"},
		{"main \xe2\x80", "\x83. py"},
		{"main .\xe2\x80", "\x83py"},
		{"main . py\xe2", "\x80\x83"},
		{"main", " ", ".", " ", "p", "y", ""},
		{"see v2 . N", "ext"},
		// A held run that no try matches, decided without the tries
		// (settleNo): no dot, and an extension an ASCII character that may
		// not follow a path follows, with and without whitespace in the run.
		{"a/b", " ", " /c", "d . e", ""},
		{"a/b", ".", "py(c", " . e", ""},
		{"a/b", " .", "py(/c", "d . e", ""},
	} {
		if err := normAgree(deltas); err != nil {
			t.Errorf("deltas %q: %v", deltas, err)
		}
	}
}

// TestNormalizerCommonText checks the normaliser against refNorm on
// streams whose texts have no dot before their tail, which each rule takes
// at once (the common delta), and whose next delta decides what that text
// left: a word not held that is still a name for what follows, a held run
// of whitespace, and paths that go on across deltas.
func TestNormalizerCommonText(t *testing.T) {
	for _, deltas := range [][]string{
		{"see main", " . py", ""},                         // rule b holds nothing ("see main" has no dot), then " . py"
		{"see ma", "in . p", "y", ""},                     // the word goes on across deltas
		{"x, main", " . py", ""},                          // no name before the tail: not held, and main is a name
		{"x, main", " . py and", " v2", " . Next"},        // then v2 . Next, joined as upstream joins it
		{strings.Repeat("a", 257) + " main", " . py", ""}, // too long a name before the tail: not held
		{"-x main", " . py", ""},                          // -x is no name
		{"see a/b", "c", " . d", ""},                      // rule a: a path without a tail, going on
		{"see a/", "bcd", " . e", ""},                     // ordinary characters after a slash make it a path
		{"a/b", "cdef", "gh . py", ""},                    // and go on with one
		{"a/b", " c", ". d", ""},                          // rule a holds nothing: the tail " c" after a path has no dot
		{"a/b c", "d . e", ""},                            // whitespace ended the path; d is a name's
		{"main ", ". py", ""},                             // a hold of whitespace alone
		{"main \t", "\n. py", ""},
	} {
		if err := normAgree(deltas); err != nil {
			t.Errorf("deltas %q: %v", deltas, err)
		}
	}
}

// TestNormalizerReleases checks what the two rules in a row return for
// each delta of streams where a run of whitespace after a name or a path
// is held while it may go on, and released as soon as it ends without a
// dot: such a run is never rewritten, whatever follows it.
func TestNormalizerReleases(t *testing.T) {
	for _, c := range []struct{ deltas, want []string }{
		{[]string{"see main", " foo", " bar", ""}, []string{"see main", " foo", " bar", ""}},
		{[]string{"see main ", "foo", ""}, []string{"see main", " foo", ""}},
		{[]string{"see main  ", "\tfoo", ""}, []string{"see main", "  \tfoo", ""}},
		{[]string{"see a/b", " c", "d", ""}, []string{"see a/b", " c", "d", ""}},
		{[]string{"see a/b ", "c", ""}, []string{"see a/b", " c", ""}},
		{[]string{"run main ", ". ", "py", ""}, []string{"run main", "", "", ".py"}},
		{[]string{"run main ", ". ", "py now"}, []string{"run main", "", ".py now"}},
	} {
		var paths pathRule
		var names nameRule
		for i, d := range c.deltas {
			if got := names.feed(paths.feed(d, i == len(c.deltas)-1), i == len(c.deltas)-1); got != c.want[i] {
				t.Errorf("deltas %q: delta %d gave %q, want %q", c.deltas, i, got, c.want[i])
			}
		}
		if err := normAgree(c.deltas); err != nil {
			t.Errorf("deltas %q: %v", c.deltas, err)
		}
	}
}

// TestNormalizerSlashes checks Extract's normaliser (and the streams)
// against refNorm on texts whose runs lie around slashes, which its rule
// (a) jumps to, and at the ends of the text, next to whitespace that is
// not ASCII and after runs too long to join.
func TestNormalizerSlashes(t *testing.T) {
	long := strings.Repeat(" ", 70)
	for _, text := range []string{
		". py", " . py", "main . ", "main .", "/ . c", "a/ . c", "/b . c", "a /b . c", "a/b/ . c", "a//b . c",
		"a\\b . c", "a/b\\c . d", "a/b c/d . e", "a/b . c/d . e", "a/b . c d/e . f", "</x>a/b . c",
		"a\u3000/b . c", "a\u3000b/c . d", "é/b . c", "a/é . c", "\u00a0/b . c", "a/b" + long + ". c x/y . z",
		"a/b.c.d . py", "a/b.c x/y . z", "x, a/bc . d", "a/b\u2003. c", "v2/a . b/c . d", "a/b . c . py", "a/b . c\u3000x . py",
	} {
		if err := normAgree([]string{text}); err != nil {
			t.Errorf("%q: %v", text, err)
		}
		if err := normAgree(strings.SplitAfter(text, "")); err != nil {
			t.Errorf("%q per byte: %v", text, err)
		}
	}
}

// TestExtractKeepsText checks that minimax_m2_sanitized's Extract of an
// output whose content has runs of dots and whitespace, and paths, but
// nothing to rewrite, allocates nothing once its parser has run an
// Extract, and returns content that is a piece of the output.
func TestExtractKeepsText(t *testing.T) {
	p, err := reasoning.New("minimax_m2_sanitized", conformance.Tokenizer("minimax_m2_sanitized", nil), thinkingOn)
	if err != nil {
		t.Fatal(err)
	}
	out := "Look at it.</think>See scripts/main.py, then a/b . c. Done. The end . Next: x/y.z " + strings.Repeat("more text. ", 20)
	m := p.Extract(out)
	if !strings.Contains(m.Content, "a/b . c. Done") || !within(m.Content, out) {
		t.Fatalf("Extract(%q).Content = %q, want a piece of the output, left as it is", out, m.Content)
	}
	if n := testing.AllocsPerRun(100, func() { p.Extract(out) }); n != 0 {
		t.Errorf("Extract(%q): %v allocations, want 0", out, n)
	}
}

// FuzzNormalizer checks the normaliser against refNorm (normAgree) on
// texts the fuzzer finds, split where cuts says: each byte of cuts takes
// up to 15 bytes of the text as a delta, and the rest of the text is the
// last delta, which ends it.
func FuzzNormalizer(f *testing.F) {
	for _, s := range []string{"scripts/monkey_character . gd, main . py", "see v2 . Next", "a/b .\n json", "x, main . py", "a/b . py(c . e"} {
		f.Add(s, []byte{4, 4, 1, 0, 7})
	}
	f.Fuzz(func(t *testing.T, text string, cuts []byte) {
		var deltas []string
		rest := text
		for _, c := range cuts {
			n := min(len(rest), int(c%16))
			deltas = append(deltas, rest[:n])
			rest = rest[n:]
		}
		deltas = append(deltas, rest)
		if err := normAgree(deltas); err != nil {
			t.Fatalf("deltas %q: %v", deltas, err)
		}
	})
}

// TestNormClass checks the byte classes of the normaliser's bulk reads
// against the predicates its tries use, and that every Unicode space of
// more than one byte begins with a byte of class cLead.
func TestNormClass(t *testing.T) {
	for b := range 256 {
		r, c := rune(b), normClass[b]
		if b >= utf8.RuneSelf {
			if c&^cLead != 0 {
				t.Errorf("byte %#x: class %#b, want cLead at most", b, c)
			}
			continue
		}
		for _, k := range []struct {
			class uint8
			want  bool
		}{
			{cDot, r == '.'},
			{cDrop, dropSpace(r)},
			{cBreak, !dropSpace(r) && (isSpace(r) || strings.ContainsRune("\"'`<>|", r))},
			{cSlash, r == '/' || r == '\\'},
			{cName, isAlnum(r) || r == '_' || r == '-'},
			{cAlnum, isAlnum(r)},
			{cSpecial, r >= '0' && r <= '9' || r == '_' || r == '-'},
			{cLead, false},
		} {
			if got := c&k.class != 0; got != k.want {
				t.Errorf("byte %q: class %#b has %#b %v, want %v", r, c, k.class, got, k.want)
			}
		}
	}
	for r := rune(utf8.RuneSelf); r <= unicode.MaxRune; r++ {
		if isSpace(r) && normClass[string(r)[0]]&cLead == 0 {
			t.Errorf("%U is a space, but its first byte is not of class cLead", r)
		}
	}
}

// TestPathTables checks the tables short reads rule (a) by against the
// rule written out a byte at a time: every state's code leads back to it
// (pathStates), and each byte in each state gives the state after it, or a
// stop where it is a dot or droppable whitespace in a path (pathNext over
// pathKind).
func TestPathTables(t *testing.T) {
	seen := map[uint8]bool{}
	for c := range 16 {
		st := pathState{run: c&1 != 0, slash: c&2 != 0, path: c&4 != 0, empty: c&8 != 0}
		code := st.code()
		if code > 15 || seen[code] || pathStates[code] != st {
			t.Fatalf("state %+v: code %d (seen %v), back to %+v", st, code, seen[code], pathStates[code])
		}
		seen[code] = true
		for b := range 256 {
			cl := normClass[b]
			want, stop := st, false
			switch {
			case st.path && (b == '.' || cl&cDrop != 0):
				stop = true
			case cl&(cDrop|cBreak) != 0:
				want = pathState{}
			default:
				if want.slash {
					want.path, want.empty = true, false
				}
				want.slash, want.run = (b == '/' || b == '\\') && want.run, true
			}
			to := pathNext[pathKind[b]|code]
			if stop != (to == pathStop) || !stop && pathStates[to&15] != want {
				t.Errorf("byte %q in %+v: table gives %#x, want %+v (stop %v)", rune(b), st, to, want, stop)
			}
		}
	}
}

// normPieces are what normText builds texts from: the characters each rule
// treats specially, whitespace the normaliser keeps, extensions listed and
// not, characters cut in two and invalid UTF-8, with runs near the
// limits of the rules (64 bytes of whitespace, 16-byte extensions,
// 256-byte names).
var normPieces = []string{
	" ", " ", " ", "\t", "\n", "\r", "\v", "\f", "\x1c", "\u00a0", "\u0085", "\u1680", "\u2003", "\u2028", "\u3000",
	".", ".", ".", "..", " . ", ". ", " .", "/", "/", "\\", "\"", "'", "`", "<", ">", "|", "(", ")", ",", ";", ":", "[", "]",
	"_", "-", "0", "7", "a", "b", "x", "Z", "py", "PY", "gd", "json", "tscn", "md", "c", "h", "txt", "foo", "main", "v2",
	"é", "中", "\xff", "\xe2\x80", "\x80", "\xf0\x9f",
	strings.Repeat(" ", 62), strings.Repeat("\n", 65), strings.Repeat("a", 15), strings.Repeat("c", 16), strings.Repeat("b1", 9), strings.Repeat("n", 250),
}

// normText returns a random text of up to 40 pieces of normPieces, and now
// and then a sample of the kind of text the rules rewrite.
func normText(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(41) {
		if r.IntN(8) == 0 {
			b.WriteString([]string{"scripts/monkey_character . gd", "main . py", "a/b .\n json", "v2 . Next", "x/y.z"}[r.IntN(5)])
			continue
		}
		b.WriteString(normPieces[r.IntN(len(normPieces))])
	}
	return b.String()
}

// normChunkings splits text into deltas: whole, one byte each, and random
// splits (with empty deltas among them).
func normChunkings(r *rand.Rand, text string) [][]string {
	chs := [][]string{{text}, strings.SplitAfter(text, "")}
	for range 3 {
		var deltas []string
		for rest := text; rest != ""; {
			n := min(len(rest), r.IntN(12))
			deltas = append(deltas, rest[:n])
			rest = rest[n:]
		}
		if r.IntN(2) == 0 {
			deltas = append(deltas, "") // the end comes in a delta of its own
		}
		chs = append(chs, deltas)
	}
	return chs
}

// normAgree feeds deltas, the last one ending the text, to each rule alone
// and to the two in a row, on the normaliser and on refNorm, and as content
// to the parser (sanitized over contentOnly: each delta, then Finish), and
// the whole text to normalizePaths and to runOwned, which rewrites it in
// place (Extract's), and says where they first differ: in output, or in
// the state rule (a) keeps after a delta (its flags and held text), which
// a later delta's output may not show.
func normAgree(deltas []string) error {
	var paths pathRule
	var names, chained nameRule
	var chainedPaths pathRule
	parser := sanitized{Parser: contentOnly{}}
	var ref, refNames, refChained, refParser refNorm
	for i, d := range deltas {
		eof := i == len(deltas)-1
		if got, want := paths.feed(d, eof), ref.feed(refPathRule, d, eof); got != want {
			return fmt.Errorf("rule a, delta %d: got %q, want %q", i, got, want)
		}
		if st := (refPathState{paths.run, paths.slash, paths.path, paths.empty}); !eof && (st != ref.path || paths.hold != ref.hold) {
			return fmt.Errorf("rule a, delta %d: state %+v hold %q, want %+v hold %q", i, st, paths.hold, ref.path, ref.hold)
		}
		if got, want := names.feed(d, eof), refNames.feed(refNameRule, d, eof); got != want {
			return fmt.Errorf("rule b, delta %d: got %q, want %q", i, got, want)
		}
		got := chained.feed(chainedPaths.feed(d, eof), eof)
		if want := refChained.chain(d, eof); got != want {
			return fmt.Errorf("both rules, delta %d: got %q, want %q", i, got, want)
		}
		if got, want := parser.ExtractStreaming(reasoning.Delta{Text: d}).Content, refParser.chain(d, false); got != want {
			return fmt.Errorf("parser, delta %d: got %q, want %q", i, got, want)
		}
		if a := &parser.paths; (refPathState{a.run, a.slash, a.path, a.empty}) != refParser.path || a.hold != refParser.hold {
			return fmt.Errorf("parser, delta %d: rule a state %+v hold %q, want %+v hold %q", i, refPathState{a.run, a.slash, a.path, a.empty}, a.hold, refParser.path, refParser.hold)
		}
	}
	if got, want := parser.Finish().Content, refParser.chain("", true); got != want {
		return fmt.Errorf("parser, Finish: got %q, want %q", got, want)
	}
	var whole refNorm
	text := strings.Join(deltas, "")
	want := whole.chain(text, true)
	if got := normalizePaths(text); got != want {
		return fmt.Errorf("normalizePaths: got %q, want %q", got, want)
	}
	var owned wholeNorm
	if got := owned.runOwned([]byte(text)); got != want {
		return fmt.Errorf("runOwned (in place): got %q, want %q", got, want)
	}
	return nil
}

// contentOnly is a parser whose every delta is content, held by nothing.
type contentOnly struct{ reasoning.Parser }

func (contentOnly) ExtractStreaming(d reasoning.Delta) reasoning.Message {
	return reasoning.Message{Content: d.Text}
}

func (contentOnly) Finish() reasoning.Message { return reasoning.Message{} }

// refNorm is the normaliser read one character at a time: rule a, rule b,
// or the two in a row (chain). Text it holds is joined with plain string
// concatenation.
type refNorm struct {
	hold    string
	path    refPathState
	name    refNameState
	chained *refNorm // rule b's state, for chain
}

type refRule int

const (
	refPathRule refRule = iota
	refNameRule
)

// chain runs rule a, then rule b over its output, as the parser does.
func (n *refNorm) chain(s string, eof bool) string {
	if n.chained == nil {
		n.chained = new(refNorm)
	}
	return n.chained.feed(refNameRule, n.feed(refPathRule, s, eof), eof)
}

// feed is the old normFeed: it returns the output of the rule over s, after
// the text it held; eof ends the text.
func (n *refNorm) feed(rule refRule, s string, eof bool) string {
	t := n.hold + s
	n.hold = ""
	var out strings.Builder
	i := 0
	for i < len(t) {
		r, size, ok := runeAt(t, i, eof)
		if !ok {
			break
		}
		var may bool
		if rule == refPathRule {
			may = n.path.path && (r == '.' || isSpace(r))
		} else {
			may = n.name.inRun && n.name.name && (r == '.' || isSpace(r))
		}
		if may {
			var v verdict
			var sepEnd, end int
			var rewrite bool
			if rule == refPathRule {
				v, sepEnd, end, rewrite = n.path.try(t, i, eof)
			} else {
				v, sepEnd, end, rewrite = n.name.try(t, i, eof)
			}
			if v == undecided {
				break
			}
			if v == matched {
				if rewrite {
					out.WriteString(strings.Repeat(".", strings.Count(t[i:sepEnd], ".")))
					out.WriteString(t[sepEnd:end])
				} else {
					out.WriteString(t[i:end])
				}
				i = end
				continue
			}
		}
		if rule == refPathRule {
			n.path.step(r)
		} else {
			n.name.step(r)
		}
		out.WriteString(t[i : i+size])
		i += size
	}
	n.hold = t[i:]
	return out.String()
}

// dropSpace reports whether r is whitespace the normaliser drops: ASCII
// space, tab and line ends.
func dropSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

func isAlnum(r rune) bool {
	return r < utf8.RuneSelf && (r|0x20 >= 'a' && r|0x20 <= 'z' || r >= '0' && r <= '9')
}

// refSepAndExt is the old sepAndExt, but that a run which has ended
// without a dot (a whole character that is no dot nor droppable whitespace
// follows it) is decided at once, with no extension: no try matches it,
// whatever follows, so no text is held for it.
func refSepAndExt(t string, i int, eof bool) (sepEnd, end int, dots int, spaced bool, next rune, ok bool) {
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
	if dots == 0 && j < len(t) {
		return j, j, 0, spaced, 0, true
	}
	sepEnd = j
	for j < len(t) && j-sepEnd <= 16 && isAlnum(rune(t[j])) {
		j++
	}
	if j-sepEnd > 16 {
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

// refPathState is the old pathRule's state.
type refPathState struct{ run, slash, path, empty bool }

func (p *refPathState) try(t string, i int, eof bool) (verdict, int, int, bool) {
	sepEnd, end, dots, spaced, next, ok := refSepAndExt(t, i, eof)
	switch {
	case !ok:
		return undecided, 0, 0, false
	case dots == 0 || end == sepEnd || end-sepEnd > 16 || !endsPath(next):
		return noMatch, 0, 0, false
	case p.slash && t[i] == '.' && dots > 1:
		return noMatch, 0, 0, false
	case !spaced:
		p.empty = true
		return noMatch, 0, 0, false
	case p.empty:
		return noMatch, 0, 0, false
	}
	*p = refPathState{}
	return matched, sepEnd, end, true
}

func (p *refPathState) step(r rune) {
	switch r {
	case '"', '\'', '`', '<', '>', '|':
		*p = refPathState{}
		return
	}
	if isSpace(r) {
		*p = refPathState{}
		return
	}
	if p.slash {
		p.path, p.empty = true, false
	}
	p.slash, p.run = (r == '/' || r == '\\') && p.run, true
}

// refNameState is the old nameRule's state.
type refNameState struct {
	after, inRun, name, special bool
	n                           int
}

func (p *refNameState) try(t string, i int, eof bool) (verdict, int, int, bool) {
	sepEnd, end, dots, spaced, next, ok := refSepAndExt(t, i, eof)
	switch {
	case !ok:
		return undecided, 0, 0, false
	case dots == 0 || end == sepEnd || end-sepEnd > 16 || next == '_':
		return noMatch, 0, 0, false
	case !spaced:
		return noMatch, 0, 0, false
	}
	rewrite := p.special || nameExtensions[strings.ToLower(t[sepEnd:end])]
	p.after, p.inRun, p.name, p.n, p.special = true, true, false, end-sepEnd, false
	return matched, sepEnd, end, rewrite
}

func (p *refNameState) step(r rune) {
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

// TestListedExtension checks listedExtension against nameExtensions: every
// extension listed, in any case, and seeded random strings of letters and
// digits up to 9 long, most of them not listed.
func TestListedExtension(t *testing.T) {
	for ext := range nameExtensions {
		for _, e := range []string{ext, strings.ToUpper(ext), strings.ToUpper(ext[:1]) + ext[1:]} {
			if !listedExtension(e) {
				t.Errorf("listedExtension(%q) = false, want true", e)
			}
		}
	}
	const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		b := make([]byte, r.IntN(10))
		for i := range b {
			b[i] = alnum[r.IntN(len(alnum))]
		}
		if got, want := listedExtension(string(b)), nameExtensions[strings.ToLower(string(b))]; got != want {
			t.Errorf("listedExtension(%q) = %v, want %v", b, got, want)
		}
	}
}

// TestListedLast checks listedExtension, whose first test is on an
// extension's length and last byte (listedLast), against nameExtensions:
// every listed extension, in either case, with its last byte made each
// letter and digit and with each letter and digit after it, and strings
// of 1 to 9 bytes, x's and then each letter and digit.
func TestListedLast(t *testing.T) {
	const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	check := func(e string) {
		t.Helper()
		if got, want := listedExtension(e), nameExtensions[strings.ToLower(e)]; got != want {
			t.Errorf("listedExtension(%q) = %v, want %v", e, got, want)
		}
	}
	for ext := range nameExtensions {
		for _, base := range []string{ext, strings.ToUpper(ext)} {
			for i := range len(alnum) {
				check(base[:len(base)-1] + alnum[i:i+1])
				check(base + alnum[i:i+1])
			}
		}
	}
	for n := 1; n <= 9; n++ {
		for i := range len(alnum) {
			check(strings.Repeat("x", n-1) + alnum[i:i+1])
		}
	}
}

// TestNormalizerShortcuts checks the two reads cut makes before it calls
// pathAt, on the stretch before a name: quickPath, that the stretch before
// the slash ending it has no dot and begins after ASCII whitespace or one
// of "'`<>| (then rule a matches without pathAt), and slashBack, that the
// stretch may have a slash after la (else pathAt is not called). Where
// either says no wrongly, the output stays the same and only the work
// grows, so no test of the output sees it.
func TestNormalizerShortcuts(t *testing.T) {
	type read struct {
		name string
		f    func(s string, la, n int) bool
	}
	quick, back := read{"quickPath", quickPath}, read{"slashBack", slashBack}
	for _, c := range []struct {
		read
		s    string
		la   int
		want bool
	}{
		{quick, " ab", 0, true},
		{quick, "\tab", 0, true},
		{quick, "'ab", 0, true},
		{quick, "x|ab", 0, true},
		{quick, "x ab", 0, true},
		{quick, "x a/b", 0, true},
		{quick, " a.b", 0, false}, // a dot
		{quick, " ab.", 0, false},
		{quick, " ab cd", 4, false}, // the whitespace lies before la
		{quick, " ab cd", 2, true},

		{back, " ab", 0, false},
		{back, "\nab", 0, false},
		{back, "`ab", 0, false},
		{back, "x/y ab", 0, false}, // the slash lies before the whitespace
		{back, "a/b", 0, true},
		{back, " a/b", 0, true},
		{back, "x /ab", 0, true},
		{back, "x ab/", 0, true},
		{back, "ab", 0, false},     // no slash up to la
		{back, "a/b cd", 4, false}, // the slash lies before la, which pathAt reads back to
		{back, "a/bcd", 2, false},
		{back, "a/bcd", 1, true},
	} {
		if got := c.f(c.s, c.la, len(c.s)); got != c.want {
			t.Errorf("%s(%q, %d, %d) = %t, want %t", c.name, c.s, c.la, len(c.s), got, c.want)
		}
	}
}

// TestNormalizerSpacedWord checks ExtractStreaming's shortcut for a delta
// of a word after a space (or a tab or line end), the common token, which
// it takes outside a path and after no held run, and which then leaves
// rule (b) in the state its rules give (the word begins a run, a name
// when it begins with a letter or digit, special when it has a digit, _
// or -, and as long as the word, up to rule (b)'s limit of 256 for a
// name): after each prefix, which leaves the rules in one state or
// another, the word, then a suffix whose output turns on that state, agree
// with refNorm (normAgree), and through the parser with its shell the
// streamed content is its Extract's.
func TestNormalizerSpacedWord(t *testing.T) {
	prefixes := []string{"", "x", "x.", "a/b", "a/", "see v2", "main ", "main . ", "f(", "'", "a/b ", strings.Repeat("n", 255), "x\v", ".."}
	words := []string{" ab", " a2", " _x", " -y", " 9", " x_y-z9", "\tab", "\nab", " main", " " + strings.Repeat("w", 60)}
	suffixes := []string{"", " . py", ". py", " .json", ".\npy", " . txt_", " . gd ", "/x . gd", "\n", strings.Repeat("v", 196) + " . py"}
	tok := conformance.Tokenizer("minimax_m2_sanitized", nil)
	for _, pre := range prefixes {
		for _, w := range words {
			for _, suf := range suffixes {
				deltas := []string{pre, w, suf}
				if err := normAgree(deltas); err != nil {
					t.Fatalf("deltas %q: %v", deltas, err)
				}
				p, err := reasoning.New("minimax_m2_sanitized", tok, thinkingOn)
				if err != nil {
					t.Fatal(err)
				}
				stream := []string{"</think>" + pre, w, suf}
				var got strings.Builder
				for _, d := range stream {
					got.WriteString(p.ExtractStreaming(reasoning.Delta{Text: d}).Content)
				}
				got.WriteString(p.Finish().Content)
				if want := p.Extract(strings.Join(stream, "")).Content; got.String() != want {
					t.Fatalf("deltas %q: streamed content %q, Extract's %q", stream, got.String(), want)
				}
			}
		}
	}
}
