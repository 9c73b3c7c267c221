package parsers

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
)

// recipientOf returns the recipient a header's text names: its first
// word that begins with "to=", without it; "" when none does. Words are
// separated by runs of spaces.
func recipientOf(header string) string {
	for from := 0; ; {
		i := strings.Index(header[from:], "to=")
		if i < 0 {
			return ""
		}
		i += from
		if i == 0 || inSpaces(header[i-1]) { // a word begins there
			word := header[i+3:]
			for j := 0; j < len(word); j++ {
				if inSpaces(word[j]) {
					return word[:j]
				}
			}
			return word
		}
		from = i + 1
	}
}

// TestMuseHeaderRecipient checks the recipient Muse's grammar takes from
// a header it has read piece by piece (where its grammar found "to=" and
// the name's end) against recipientOf on the header's text, on seeded
// random headers cut at random, after <|start|> or a terminator, part of
// them held by the prompt: both agree wherever the header is still one at
// <|message|>.
func TestMuseHeaderRecipient(t *testing.T) {
	const seed = 20
	r := rand.New(rand.NewPCG(seed, 3))
	words := []string{"to=", "t", "o", "=", " ", "  ", "\t", "\n", "assistant", "self", "user", "sel", "f", "uses", "weather.get", "a", "x_1"}
	pick := func(from ...string) string { return from[r.IntN(len(from))] }
	checked, prompted := 0, 0
	for range 20000 {
		var b strings.Builder
		if r.IntN(2) == 0 { // well formed: [spaces] [role spaces] [to=name] [spaces]
			b.WriteString(pick("", " ", "\n "))
			b.WriteString(pick("", "assistant ", "tool\t"))
			b.WriteString(pick("", "to=", "to=self", "to=user", "to=weather.get", "to=t"))
			b.WriteString(pick("", " ", " \t "))
		}
		for range r.IntN(4) {
			b.WriteString(words[r.IntN(len(words))])
		}
		header, start := b.String(), r.IntN(2) == 0
		cut := r.IntN(len(header) + 1) // the prompt holds header[:cut]
		var g *museGrammar
		switch {
		case start && r.IntN(2) == 0:
			cfg := reasoning.Config{PromptText: "<|start|>" + header[:cut]}
			g = museStartOf(cfg, nil, r.IntN(2) == 0)
			g.segs.off = true
		default:
			g = &museGrammar{segs: segmentBuilder{off: true}}
			g.startHeader(start)
			cut = 0
		}
		if !feedHeader(g, header, cut, r) {
			continue // not a header: its text went to a body
		}
		checked++
		if cut > 0 && strings.Contains(header[cut:], "to=") {
			prompted++
		}
		g.openHeader(len(header), discard)
		if want := recipientOf(header); g.recipient != want {
			t.Fatalf("header %q (prompt %q, after <|start|> %v): recipient %q, want %q (seed %d)",
				header, header[:cut], start, g.recipient, want, seed)
		}
	}
	if checked < 2000 || prompted < 200 {
		t.Fatalf("only %d of the random headers were headers at <|message|>, %d with a prompt and a \"to=\" after it", checked, prompted)
	}
}

// TestMuseHeldBare checks what museSpec.heldBare says of Muse's grammar:
// from every state, its header's grammar refuses the first byte of every
// marker the scanner watches in a header (the framing markers), so that
// takeHeld refuses any text that holds one.
func TestMuseHeldBare(t *testing.T) {
	if !museSpec.heldBare {
		t.Skip("museSpec.heldBare is off")
	}
	for _, m := range museFraming {
		for g := range hgStates {
			if n := headerMoves[g][m[0]]; n != hgBad {
				t.Errorf("state %d over %q (the first byte of %q) goes to %d, not hgBad", g, m[0], m, n)
			}
		}
	}
}

// TestMuseHeaderEnds checks headerEnds, the header's text (prefix, then
// its pieces) ends in w, on pieces of every length it compares alike
// (up to 3 bytes, 4 to 8, 9 and more), with w matching or differing at the
// first, a middle and the last byte of a piece, beginning inside a piece,
// and reaching back into the prefix or past the whole text.
func TestMuseHeaderEnds(t *testing.T) {
	for _, c := range []struct {
		prefix string
		ps     []string
		w      string
		want   bool
	}{
		{"", nil, "", true},
		{"", []string{"to=", "weather", ".get"}, "", true},
		{"", []string{"to=", "weather", ".get"}, "weather.get", true},
		{"", []string{"to=", "Xeather", ".get"}, "weather.get", false}, // the first byte of a piece of 4 to 8
		{"", []string{"to=", "weaXher", ".get"}, "weather.get", false},
		{"", []string{"to=", "weatheX", ".get"}, "weather.get", false},
		{"", []string{"to=", "weather", ".gex"}, "weather.get", false},
		{"", []string{"to=", "weather.g", "et"}, "weather.get", true},
		{"", []string{"to=", "weatXer.g", "et"}, "weather.get", false}, // the byte no word of a piece of 8 would reach
		{"", []string{"to=", "Xeather.g", "et"}, "weather.get", false},
		{"", []string{"to=", "weather.X", "et"}, "weather.get", false},
		{"", []string{"to=", "wea", "ther.get"}, "weather.get", true},
		{"", []string{"to=", "wXa", "ther.get"}, "weather.get", false},
		{"", []string{"to=", "wea", "ther.gXt"}, "weather.get", false},
		{"", []string{"to=weather", ".get"}, "weather.get", true}, // w begins inside a piece
		{"", []string{"to=Xeather", ".get"}, "weather.get", false},
		{"", []string{"weather.get"}, "weather.get", true},
		{"", []string{"weather.gets"}, "weather.get", false},
		{"", []string{"to=", "weather", ".get"}, "to=weather.get", true},
		{"", []string{"to=", "weather", ".get"}, " to=weather.get", false}, // past the whole text
		{"to=ab", nil, "", true},
		{"to=ab", nil, "ab", true},
		{"to=ab", nil, "xb", false},
		{"to=wea", []string{"ther", ".get"}, "weather.get", true},
		{"to=wXa", []string{"ther", ".get"}, "weather.get", false},
		{"wea", []string{"ther", ".get"}, "xweather.get", false},
	} {
		g := &museGrammar{prefix: c.prefix}
		for _, s := range c.ps {
			g.header.ps = append(g.header.ps, piece{s: s})
			g.header.n += len(s)
		}
		if want := strings.HasSuffix(c.prefix+strings.Join(c.ps, ""), c.w); want != c.want {
			t.Fatalf("case %q %q %q: want %v, but the text ends in w is %v", c.prefix, c.ps, c.w, c.want, want)
		}
		if got := g.headerEnds(c.w); got != c.want {
			t.Errorf("headerEnds(%q) on prefix %q, pieces %q = %v, want %v", c.w, c.prefix, c.ps, got, c.want)
		}
	}
}

// TestMuseCandStart checks candStart, which searches for a "to=" only
// where the run of recipient characters that ends the text may follow
// one, against the search it skips (toStart, then endStart), on every
// text of up to 6 bytes over the bytes it tells apart, alone and after
// longer text, after each candidate a body may hold, in one piece or two.
func TestMuseCandStart(t *testing.T) {
	const alphabet = "to=a. "
	var texts []string
	var grow func(s string)
	grow = func(s string) {
		if s != "" {
			texts = append(texts, s)
		}
		if len(s) < 6 {
			for i := range len(alphabet) {
				grow(s + alphabet[i:i+1])
			}
		}
	}
	grow("")
	for _, held := range [][]string{nil, {"t"}, {"to"}, {"t", "o"}, {"to="}, {"to", "="}, {"to=a"}, {"to=", "a.b"}} {
		g := &museGrammar{}
		for _, p := range held {
			g.cand = append(g.cand, piece{p, g.clen})
			g.clen += len(p)
		}
		for _, short := range texts {
			// After longer text that the run of recipient characters
			// reaches into, or not, in its first bytes or later.
			for _, pad := range []string{"", "to=aaaa", "a. a. a.", "=aaaaaaa", "o=aaaaaa", "aaaaaaaa"} {
				s := pad + short
				want := g.toStart(s)
				if want < 0 {
					want = g.endStart(s)
				}
				if got := g.candStart(s); got != want {
					t.Errorf("held %q, text %q: candStart %d, want %d", held, s, got, want)
				}
			}
		}
	}
}

// TestMuseHeaderRecipientAgain checks the recipient Muse's grammar takes
// from headers it reads one after another, piece by piece, against
// recipientOf on each header's text, where the tool a header named last
// is named again, or a name that shares its end, begins or all but one
// byte with it: the grammar reads a tool named again where it lies (see
// museGrammar.tool). With muse_glimmer's hand-off, the text handed to
// content is the header's from its recipient's "to=" on, then
// <|message|>.
func TestMuseHeaderRecipientAgain(t *testing.T) {
	const seed = 21
	r := rand.New(rand.NewPCG(seed, 4))
	names := []string{"weather.get", "weather.get", "weather.gets", "xweather.get", "weather.ge", "eather.get", "weather.gex", "w", "se", "self", "user", ""}
	pick := func(from ...string) string { return from[r.IntN(len(from))] }
	checked, again := 0, 0
	for _, handOff := range []bool{false, true} {
		g := &museGrammar{handOff: handOff, segs: segmentBuilder{off: true}}
		last := ""
		for range 20000 {
			name := pick(names...)
			header := pick("", " ", "assistant ") + pick("to=", "to", "t=") + name + pick("", "", " ", " \t")
			g.startHeader(r.IntN(2) == 0)
			if !feedHeader(g, header, 0, r) {
				continue // not a header: its text went to a body
			}
			checked++
			want := recipientOf(header)
			if want != "" && want == g.tool {
				again++
			}
			var handed strings.Builder
			g.openHeader(len(header), func(_ phase, s string, _ int) { handed.WriteString(s) })
			if g.recipient != want {
				t.Fatalf("header %q after a header naming %q (hand-off %v): recipient %q, want %q (seed %d)",
					header, last, handOff, g.recipient, want, seed)
			}
			if g.phase == museHandedOff {
				if w := header[strings.Index(header, museTo):] + museMessage; handed.String() != w {
					t.Fatalf("header %q: handed %q to content, want %q (seed %d)", header, handed.String(), w, seed)
				}
				g.phase = museInBody
			}
			last = want
		}
	}
	if checked < 10000 || again < 500 {
		t.Fatalf("only %d of the random headers were headers at <|message|>, %d naming the tool called last", checked, again)
	}
}

// feedHeader feeds g header's text from offset from in pieces of 1 to 5
// bytes, while g reads a header, and reports whether it still does.
func feedHeader(g *museGrammar, header string, from int, r *rand.Rand) bool {
	for at := from; at < len(header) && g.phase == museInHeader; {
		n := min(len(header)-at, 1+r.IntN(5))
		g.text(header[at:at+n], at, discard)
		at += n
	}
	return g.phase == museInHeader
}
