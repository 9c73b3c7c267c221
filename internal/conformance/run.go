package conformance

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// LoadVocab returns the real vocabulary in the named folder, or skips or
// fails tb when it is missing.
var LoadVocab func(tb testing.TB, name string) tokenizer.Tokenizer = loadVocab

// Run checks every case of the file at path against the parsers registered
// in reasoning.Default.
func Run(t *testing.T, path string) {
	t.Helper()
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) { CheckCase(t, f.Parser, c) })
	}
	for _, c := range f.IDCases {
		t.Run("ids/"+c.Name, func(t *testing.T) { CheckIDCase(t, f, c) })
	}
}

// RunVocab checks every case of the file at path once more with a real
// vocabulary: Extract with the tokenizer, and Collect one real token per
// delta (with the tokens' IDs), per detokenized token and per three tokens.
func RunVocab(t *testing.T, path, vocab string) {
	t.Helper()
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Cases {
		c.Vocab = vocab
		t.Run(c.Name, func(t *testing.T) { CheckCase(t, f.Parser, c) })
	}
}

// CheckCase checks one case: Extract, then Collect under every text
// chunking, every two-way split, the case's own deltas, and, with a real
// vocabulary, the token chunkings.
func CheckCase(t *testing.T, name string, c Case) {
	t.Helper()
	CheckCaseWith(t, name, c, nil)
}

// CheckCaseWith is CheckCase with base in place of no tokenizer: for a
// family that cannot be built without one (hf reads the model's metadata
// from it), or to see a case through a given vocabulary. The text
// chunkings then run with base too (their deltas carry no IDs), and so do
// the token chunkings of base's own encoding. A nil base is CheckCase.
func CheckCaseWith(t *testing.T, name string, c Case, base tokenizer.Tokenizer) {
	t.Helper()
	streamWant := c.Want
	if c.StreamWant != nil {
		streamWant = *c.StreamWant
	}
	newParser := func(tok tokenizer.Tokenizer) reasoning.Parser {
		p, err := reasoning.New(name, Tokenizer(name, tok), c.opts(tok)...)
		if err != nil {
			t.Fatalf("New(%q): %v", name, err)
		}
		return p
	}
	p := newParser(base)
	wantSegs := segmentsOf(p, c.Output)
	if c.WantSegments != nil {
		if diff := cmp.Diff(c.WantSegments, wantSegs); diff != "" {
			t.Fatalf("ExtractSegments(%q) mismatch (-want +got):\n%s", c.Output, diff)
		}
	}
	if diff := cmp.Diff(c.Want, p.Extract(c.Output)); diff != "" {
		t.Fatalf("Extract(%q) mismatch (-want +got):\n%s", c.Output, diff)
	}
	// Extract leaves the streaming state alone: a second call agrees.
	if diff := cmp.Diff(c.Want, p.Extract(c.Output)); diff != "" {
		t.Fatalf("second Extract(%q) mismatch (-want +got):\n%s", c.Output, diff)
	}
	chunkings := TextChunkings(c.Output, seed(c.Name))
	if len(c.Output) <= 512 {
		chunkings = append(chunkings, TwoWaySplits(c.Output)...)
	}
	if c.Deltas != nil {
		chunkings = append(chunkings, Chunking{"case-deltas", texts(c.Deltas...)})
	}
	for _, ch := range chunkings {
		checkCollect(t, ch, newParser(base), streamWant, wantSegs)
	}
	if base != nil {
		tcs, err := TokenChunkings(base, c.Output)
		if err != nil {
			t.Fatalf("base tokenizer: %v", err)
		}
		for _, ch := range tcs {
			checkCollect(t, ch, newParser(base), streamWant, wantSegs)
		}
	}
	if c.Vocab == "" {
		return
	}
	tok := LoadVocab(t, c.Vocab)
	if diff := cmp.Diff(c.Want, newParser(tok).Extract(c.Output)); diff != "" {
		t.Fatalf("Extract(%q) with vocabulary %s mismatch (-want +got):\n%s", c.Output, c.Vocab, diff)
	}
	tcs, err := TokenChunkings(tok, c.Output)
	if err != nil {
		t.Fatalf("vocabulary %s: %v", c.Vocab, err)
	}
	for _, ch := range tcs {
		checkCollect(t, ch, newParser(tok), streamWant, wantSegs)
	}
}

// checkCollect streams ch through p and compares with want, and, for a
// parser with segments, the segments gathered along the way with wantSegs.
func checkCollect(t *testing.T, ch Chunking, p reasoning.Parser, want reasoning.Message, wantSegs []reasoning.Segment) {
	t.Helper()
	got, segs := collect(p, ch.Deltas)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Collect mismatch, chunking %s %s (-want +got):\n%s", ch.Name, quoted(ch.Deltas), diff)
	}
	if diff := cmp.Diff(wantSegs, segs); diff != "" {
		t.Errorf("streamed segments mismatch, chunking %s %s (-want +got):\n%s", ch.Name, quoted(ch.Deltas), diff)
	}
	if m := p.ExtractStreaming(reasoning.Delta{Text: "after the end"}); !m.IsZero() {
		t.Errorf("chunking %s: a delta after Finish emitted %+v", ch.Name, m)
	}
	if m := p.Finish(); !m.IsZero() {
		t.Errorf("chunking %s: a second Finish emitted %+v", ch.Name, m)
	}
}

// collect streams deltas through p and returns what it emitted, joined only
// after the last call: a string a parser returned and then changed (a
// buffer reused too early) would show as a mismatch.
func collect(p reasoning.Parser, deltas []reasoning.Delta) (reasoning.Message, []reasoning.Segment) {
	seg, _ := p.(reasoning.Segmenter)
	var msgs []reasoning.Message
	var pieces []reasoning.Segment
	add := func(m reasoning.Message) {
		msgs = append(msgs, m)
		if seg != nil {
			pieces = append(pieces, seg.Segments()...)
		}
	}
	for _, d := range deltas {
		add(p.ExtractStreaming(d))
	}
	add(p.Finish())
	var r, c strings.Builder
	for _, m := range msgs {
		r.WriteString(m.Reasoning)
		c.WriteString(m.Content)
	}
	return reasoning.Message{Reasoning: r.String(), Content: c.String()}, MergeSegments(pieces)
}

// MergeSegments joins the pieces of each segment, in order.
func MergeSegments(pieces []reasoning.Segment) []reasoning.Segment {
	var out []reasoning.Segment
	for _, s := range pieces {
		if n := len(out); n > 0 && out[n-1].Index == s.Index {
			out[n-1].Text += s.Text
			out[n-1].Done = out[n-1].Done || s.Done
			continue
		}
		out = append(out, s)
	}
	return out
}

// segmentsOf returns the segments of a whole output for a parser that has
// them, else nil.
func segmentsOf(p reasoning.Parser, output string) []reasoning.Segment {
	if seg, ok := p.(reasoning.Segmenter); ok {
		return MergeSegments(seg.ExtractSegments(output))
	}
	return nil
}

// CheckIDCase checks the ID-level methods on one case.
func CheckIDCase(t *testing.T, f File, c IDCase) {
	t.Helper()
	var tok tokenizer.Tokenizer
	if c.Vocab != "" {
		tok = LoadVocab(t, c.Vocab)
	} else {
		v, err := tokenizer.NewVocab(f.ToyVocab)
		if err != nil {
			t.Fatal(err)
		}
		tok = v
	}
	ids := spell(tok, c.Tokens)
	ptok := Tokenizer(f.Parser, tok) // with the metadata of a family that needs some
	if c.NoTokenizer {
		ptok = nil
	}
	p, err := reasoning.New(f.Parser, ptok, c.opts(tok)...)
	if err != nil {
		t.Fatalf("New(%q): %v", f.Parser, err)
	}
	e, _ := catalog.Lookup(f.Parser)
	checkStreamingEnd(t, func() reasoning.Parser {
		q, err := reasoning.New(f.Parser, ptok, c.opts(tok)...)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}, p, tok, ids, slices.Concat(e.Markers, e.Boundaries))
	if c.IsReasoningEnd != nil {
		if got := p.IsReasoningEnd(ids); got != *c.IsReasoningEnd {
			t.Errorf("IsReasoningEnd(%v = %q) = %v, want %v", ids, c.Tokens, got, *c.IsReasoningEnd)
		}
	}
	if c.IsReasoningEndStreaming != nil {
		delta := ids[len(ids)-len(spell(tok, c.Tokens[len(c.Tokens)-c.Delta:])):]
		if got := p.IsReasoningEndStreaming(ids, delta); got != *c.IsReasoningEndStreaming {
			t.Errorf("IsReasoningEndStreaming(%v, %v) = %v, want %v", ids, delta, got, *c.IsReasoningEndStreaming)
		}
	}
	if c.ContentTokens != nil {
		var tokens []string
		if err := json.Unmarshal(c.ContentTokens, &tokens); err != nil {
			t.Fatalf("content_tokens: %v", err)
		}
		got := p.ExtractContentIDs(ids)
		if tokens == nil {
			if got != nil {
				t.Errorf("ExtractContentIDs(%v = %q) = %v, want nil (reasoning has not ended)", ids, c.Tokens, got)
			}
		} else if want := spell(tok, tokens); got == nil || !cmp.Equal(want, got) {
			t.Errorf("ExtractContentIDs(%v = %q) = %#v, want %#v", ids, c.Tokens, got, want)
		}
	}
	if c.ReasoningTokens != nil {
		if got := p.CountReasoningTokens(ids); got != *c.ReasoningTokens {
			t.Errorf("CountReasoningTokens(%v = %q) = %d, want %d", ids, c.Tokens, got, *c.ReasoningTokens)
		}
	}
}

// checkStreamingEnd checks IsReasoningEndStreaming against IsReasoningEnd
// over ids, in passes whose number does not grow with len(ids): fresh
// parsers are asked token by token and two tokens at a time, and
// must agree with one another at every prefix; IsReasoningEnd (which reads
// the whole prefix) is asked at no more than maxEndChecks prefixes, those
// where an answer can change: where the one-token answers change and just
// before, where the decoded text ends one of markers and just after, the
// first and last few, and evenly spaced ones. A streaming check that drifts
// from the whole answer shows at one of them.
func checkStreamingEnd(t *testing.T, fresh func() reasoning.Parser, p reasoning.Parser, tok tokenizer.Tokenizer, ids []int, markers []string) {
	t.Helper()
	n := len(ids)
	if n == 0 {
		return
	}
	one := make([]bool, n+1) // one[i]: the one-token answer after i IDs
	q := fresh()
	for i := 1; i <= n; i++ {
		one[i] = q.IsReasoningEndStreaming(ids[:i], ids[i-1:i])
	}
	two := fresh()
	for prev := 0; prev < n; prev += 2 {
		i := min(prev+2, n)
		if got := two.IsReasoningEndStreaming(ids[:i], ids[prev:i]); got != one[i] {
			t.Errorf("IsReasoningEndStreaming over %v at %d = %v two at a time, %v one at a time", ids, i, got, one[i])
			return
		}
	}
	var at []int // prefixes to ask IsReasoningEnd about, most telling first
	at = append(at, n, 1)
	for i := 2; i <= n; i++ {
		if one[i] != one[i-1] {
			at = append(at, i, i-1)
		}
	}
	for _, i := range markerEnds(tok, ids, markers) {
		at = append(at, i, i+1)
	}
	at = append(at, 2, 3, n-1, n-2)
	for k := 1; k < 8; k++ {
		at = append(at, n*k/8)
	}
	asked := map[int]bool{}
	for _, i := range at {
		if i < 1 || i > n || asked[i] {
			continue
		}
		if len(asked) == maxEndChecks {
			break
		}
		asked[i] = true
		if want := p.IsReasoningEnd(ids[:i]); one[i] != want {
			t.Errorf("IsReasoningEndStreaming over %v, one at a time, at %d = %v; IsReasoningEnd = %v", ids, i, one[i], want)
			return
		}
	}
}

// maxEndChecks is how many prefixes checkStreamingEnd asks IsReasoningEnd
// about at most, so that it reads ids a bounded number of times.
const maxEndChecks = 32

// markerEnds returns the lengths of the prefixes of ids whose decoded text
// ends with one of markers (with a nil tok, none), in order.
func markerEnds(tok tokenizer.Tokenizer, ids []int, markers []string) []int {
	longest := 0
	for _, m := range markers {
		longest = max(longest, len(m))
	}
	if tok == nil || longest == 0 {
		return nil
	}
	var ends []int
	var tail []byte // the decoded text's last bytes, at least longest of them when there are
	for i := range ids {
		tail = append(tail, tok.Decode(ids[i:i+1])...)
		for _, m := range markers {
			if m != "" && strings.HasSuffix(string(tail), m) {
				ends = append(ends, i+1)
				break
			}
		}
		if len(tail) > 2*longest {
			tail = append(tail[:0], tail[len(tail)-longest:]...)
		}
	}
	return ends
}

// quoted prints deltas so that a failure reproduces.
func quoted(ds []reasoning.Delta) string {
	if len(ds) > 64 {
		return fmt.Sprintf("(%d deltas)", len(ds))
	}
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = fmt.Sprintf("%q", d.Text)
		if d.IDs != nil {
			parts[i] += fmt.Sprint(d.IDs)
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// seed derives a chunking seed from a case name, so that a failure repeats.
func seed(name string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(name); i++ {
		h = (h ^ uint64(name[i])) * 1099511628211
	}
	return h
}
