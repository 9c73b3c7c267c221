package reasoningtest

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// fillers are the text around markers in generated corpora: CJK, emoji with
// ZWJ, invalid UTF-8, whitespace runs, code.
var fillers = []string{
	"", "a", "The answer is 42.", "思考一下。", "👩‍💻 ok", "\xff\xfe", "\xe4\xb8", " ", "\n\n", "\t \r\n  ",
	"if a < b && c > d { return }", "<", ">", "</", "<<", "x<y",
}

// Corpus returns outputs built from markers: each marker alone and between
// fillers, pairs of markers, markers cut short, doubled and altered
// (lookalikes such as "</thin", "<think >", "<<think>>"), all mixed with
// text that includes CJK, emoji, whitespace runs and invalid UTF-8. The
// same seed gives the same corpus.
func Corpus(markers []string, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 7))
	var pieces []string
	for _, m := range markers {
		if m == "" {
			continue
		}
		pieces = append(pieces, m, m[:len(m)/2], m[:len(m)-1], m[:len(m)-1]+" "+m[len(m)-1:],
			string(m[0])+m+string(m[len(m)-1]), strings.ToUpper(m))
	}
	if len(pieces) == 0 {
		pieces = []string{"<think>", "</think>"}
	}
	out := []string{""}
	for _, m := range markers {
		out = append(out, m, m+m, "a"+m+"b", " \n"+m+"\n ")
		for _, n := range markers {
			out = append(out, m+"x"+n+"y", "思"+m+n+"答")
		}
	}
	for range 200 {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			if r.IntN(2) == 0 {
				b.WriteString(pieces[r.IntN(len(pieces))])
			} else {
				b.WriteString(fillers[r.IntN(len(fillers))])
			}
		}
		out = append(out, b.String())
	}
	return out
}

// ToyVocab returns an in-memory vocabulary in which every marker is one
// token (IDs from 1000 up, in order) and every other byte a token of its
// own, so that per-token chunkings carry the markers' IDs.
func ToyVocab(markers []string) *tokenizer.Vocab {
	named := map[string]int{}
	for i, m := range markers {
		if m != "" {
			named[m] = 1000 + i // a marker listed twice keeps its last ID
		}
	}
	v, err := tokenizer.NewVocab(named)
	if err != nil {
		panic(err) // unreachable: names are non-empty, IDs distinct
	}
	return v
}

// Conserves reports, as an error, how one split of output breaks the
// guarantee that nothing is lost or invented: reasoning, content and
// segments must each be made of output's bytes in order, and together hold
// every byte of output but c's markers, tails and, if c.StripsSpace,
// whitespace. Content must begin with c.ContentPrefix, which is not counted.
func Conserves(output string, m reasoning.Message, segs []reasoning.Segment, c Config) error {
	if !strings.HasPrefix(m.Content, c.ContentPrefix) {
		return fmt.Errorf("content %q does not begin with the family's prefix %q", m.Content, c.ContentPrefix)
	}
	m.Content = m.Content[len(c.ContentPrefix):]
	if !subsequence(m.Reasoning, output) {
		return fmt.Errorf("reasoning %q is not made of the output's bytes", m.Reasoning)
	}
	if !subsequence(m.Content, output) {
		return fmt.Errorf("content %q is not made of the output's bytes", m.Content)
	}
	got := len(m.Reasoning) + len(m.Content)
	for _, s := range segs {
		if !subsequence(s.Text, output) {
			return fmt.Errorf("segment %q is not made of the output's bytes", s.Text)
		}
		got += len(s.Text)
	}
	if got > len(output) {
		return fmt.Errorf("reasoning %q, content %q and segments hold more than the output", m.Reasoning, m.Content)
	}
	if c.DropsHeaders {
		return nil // header text (roles, channel names) is dropped besides the markers
	}
	rest := withoutMarkers(withoutTails(output, c.Tails), c.Markers)
	least := len(rest)
	if c.StripsSpace {
		least -= strings.Count(rest, " ") + strings.Count(rest, "\n") + strings.Count(rest, "\t") + strings.Count(rest, "\r")
	}
	if got < least {
		return fmt.Errorf("reasoning %q and content %q lose text: %d bytes, at least %d expected", m.Reasoning, m.Content, got, least)
	}
	return nil
}

// subsequence reports whether s is made of t's bytes in order.
func subsequence(s, t string) bool {
	i := 0
	for j := 0; i < len(s) && j < len(t); j++ {
		if s[i] == t[j] {
			i++
		}
	}
	return i == len(s)
}

// withoutMarkers deletes every marker occurrence, earliest first.
func withoutMarkers(s string, markers []string) string {
	var b strings.Builder
	for s != "" {
		pos, n := len(s), 0
		for _, m := range markers {
			if m == "" {
				continue
			}
			if j := strings.Index(s, m); j >= 0 && j < pos {
				pos, n = j, len(m)
			}
		}
		b.WriteString(s[:pos])
		if n == 0 {
			break
		}
		s = s[pos+n:]
	}
	return b.String()
}

// withoutTails deletes the tail after each tail marker in s: the run of
// its Chars bytes that follows it and one End byte closing it. The marker
// itself stays, for withoutMarkers.
func withoutTails(s string, tails []Tail) string {
	if len(tails) == 0 {
		return s
	}
	var out []byte
	for i := 0; i < len(s); {
		var t *Tail
		for k := range tails {
			if m := tails[k].Marker; m != "" && strings.HasPrefix(s[i:], m) {
				t = &tails[k]
				break
			}
		}
		if t == nil {
			out = append(out, s[i])
			i++
			continue
		}
		out = append(out, t.Marker...)
		i += len(t.Marker)
		for i < len(s) && strings.IndexByte(t.Chars, s[i]) >= 0 {
			i++
		}
		if i < len(s) && s[i] == t.End {
			i++
		}
	}
	return string(out)
}
