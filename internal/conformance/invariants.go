package conformance

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// fillers are the text around markers in generated corpora: CJK, emoji with
// ZWJ, invalid UTF-8, whitespace runs, code.
var fillers = []string{
	"", "a", "The answer is 42.", "思考一下。", "👩‍💻 ok", "\xff\xfe", "\xe4\xb8", " ", "\n\n", "\t \r\n  ",
	"if a < b && c > d { return }", "<", ">", "</", "<<", "x<y",
}

// Corpus returns outputs built from markers: each marker alone and between
// fillers, pairs and triples of markers, markers cut short, doubled and
// altered (lookalikes such as "</thin", "<think >", "<<think>>"), all mixed
// with the fillers. The same seed gives the same corpus.
func Corpus(markers []string, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 7))
	var pieces []string
	for _, m := range markers {
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

// Filler returns n bytes or so of ordinary prose without any marker, for
// benchmarks and long streams.
func Filler(n int) string {
	const line = "The quick brown fox jumps over the lazy dog; 6 × 7 = 42, and 東京 is far. "
	return strings.Repeat(line, n/len(line)+1)[:n]
}

// Settings are the request settings the invariants run under for a
// family: thinking on, off, unset and null; WithForceReasoning on and off;
// prompts that end in each marker.
func Settings(markers []string) []Options {
	yes, no := true, false
	sets := []Options{
		{},
		{Kwargs: map[string]any{"enable_thinking": true, "thinking": true}},
		{Kwargs: map[string]any{"enable_thinking": false, "thinking": false}},
		{Kwargs: map[string]any{"enable_thinking": nil}},
		{ForceReasoning: &yes},
		{ForceReasoning: &no},
	}
	for _, m := range markers {
		prompt := "<|im_start|>assistant\n" + m + "\n"
		sets = append(sets, Options{Prompt: &prompt})
	}
	return sets
}

// ToyVocab returns an in-memory vocabulary in which every marker is one
// token, so that per-token chunkings carry the markers' IDs.
func ToyVocab(markers []string) *tokenizer.Vocab {
	named := map[string]int{}
	for i, m := range markers {
		named[m] = 1000 + i
	}
	v, err := tokenizer.NewVocab(named)
	if err != nil {
		panic(err)
	}
	return v
}

// CheckInvariants checks the guarantees of the design for one registered
// name on its generated corpus, under every setting: nothing lost or
// invented, streaming equal to Extract under text and token chunkings,
// nothing emitted after Finish, and ID methods that accept any IDs.
func CheckInvariants(t *testing.T, name string) {
	e, ok := catalog.Lookup(name)
	if !ok {
		t.Fatalf("parser %q has no catalog entry: register it with parsers.register", name)
	}
	checkNeedsConfig(t, name, e)
	markers := slices.Concat(e.Markers, e.Boundaries)
	tok := ToyVocab(markers)
	bytes := ToyVocab(e.Boundaries) // every marker is several tokens: the ID methods read text
	corpus := Corpus(markers, seed(name))
	for si, set := range Settings(markers) {
		for ci, out := range corpus {
			newParser := func(tok tokenizer.Tokenizer) reasoning.Parser {
				p, err := reasoning.New(name, Tokenizer(name, tok), set.opts(tok)...)
				if err != nil {
					t.Fatalf("New(%q) with settings %d: %v", name, si, err)
				}
				return p
			}
			want := newParser(nil).Extract(out)
			wantSegs := segmentsOf(newParser(nil), out)
			if err := Conserves(out, want, wantSegs, e); err != nil {
				t.Fatalf("settings %d output %q: %v", si, out, err)
			}
			chunkings := TextChunkings(out, uint64(ci))
			tcs, err := TokenChunkings(tok, out)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, newParser(tok).Extract(out)); diff != "" {
				t.Fatalf("settings %d output %q: Extract with a tokenizer mismatch (-text +tokens):\n%s", si, out, diff)
			}
			for _, ch := range chunkings {
				checkCollect(t, ch, newParser(nil), want, wantSegs)
			}
			for _, ch := range tcs {
				checkCollect(t, ch, newParser(tok), want, wantSegs)
			}
			if t.Failed() {
				t.Fatalf("settings %d output %q", si, out)
			}
			checkIDMethods(t, newParser, tok, bytes, out, want, markers, e.Boundaries)
			if t.Failed() {
				t.Fatalf("settings %d output %q", si, out)
			}
		}
	}
	// IDs that are not in any vocabulary are data too.
	p, _ := reasoning.New(name, Tokenizer(name, tok))
	odd := []int{-1, 1 << 40, 0, tok.Base() + 255, tok.Base() + 256}
	p.IsReasoningEnd(odd)
	p.IsReasoningEndStreaming(odd, odd[3:])
	p.IsReasoningEndStreaming(odd[:1], odd) // a delta longer than ids
	p.ExtractContentIDs(odd)
	p.CountReasoningTokens(odd)
	p.IsReasoningEnd(nil)
	p.ExtractContentIDs(nil)
	p.CountReasoningTokens(nil)
}

// checkIDMethods ties the ID-level methods to the text split. With one token
// per byte (bytes), reasoning tokens are reasoning bytes, so the count is the
// length of the split's reasoning; and the end check and the content IDs
// (decoded) agree between that vocabulary and one in which every marker is a
// single token (tok).
// Boundaries are single tokens or nothing, so the two vocabularies are
// compared only on outputs without them. Its cost is linear in the output:
// each method reads the IDs a bounded number of times.
func checkIDMethods(t *testing.T, fresh func(tokenizer.Tokenizer) reasoning.Parser, tok, bytes tokenizer.Tokenizer, out string, want reasoning.Message, markers, boundaries []string) {
	p, q := fresh(tok), fresh(bytes)
	t.Helper()
	ids, bids := tok.Encode(out), bytes.Encode(out)
	if n := p.CountReasoningTokens(ids); n < 0 || n > len(ids) {
		t.Errorf("CountReasoningTokens = %d of %d IDs", n, len(ids))
	}
	for _, i := range []int{0, 1, len(ids) / 2, len(ids) - 1, len(ids)} {
		if i >= 0 && i <= len(ids) {
			p.IsReasoningEndStreaming(ids[:i], ids[i:]) // a delta past the end
		}
	}
	checkStreamingEnd(t, func() reasoning.Parser { return fresh(tok) }, p, tok, ids, markers)
	checkStreamingEnd(t, func() reasoning.Parser { return fresh(bytes) }, q, bytes, bids, markers)
	for _, b := range boundaries {
		if strings.Contains(out, b) {
			return
		}
	}
	if n := q.CountReasoningTokens(bids); n != len(want.Reasoning) {
		t.Errorf("CountReasoningTokens over byte tokens = %d, want %d, the reasoning's length", n, len(want.Reasoning))
	}
	if a, b := p.IsReasoningEnd(ids), q.IsReasoningEnd(bids); a != b {
		t.Errorf("IsReasoningEnd = %v with single-token markers, %v with byte tokens", a, b)
	}
	a, b := p.ExtractContentIDs(ids), q.ExtractContentIDs(bids)
	if (a == nil) != (b == nil) || tok.Decode(a) != bytes.Decode(b) {
		t.Errorf("ExtractContentIDs = %q with single-token markers, %q with byte tokens", tok.Decode(a), bytes.Decode(b))
	}
}

// Conserves checks guarantee 1 on one split of out: reasoning and content
// are each made of out's bytes in order (nothing invented), and together
// they hold every byte of out but markers, the tails of tail markers and,
// for a family that strips some, whitespace (nothing lost).
func Conserves(out string, m reasoning.Message, segs []reasoning.Segment, e catalog.Entry) error {
	if !strings.HasPrefix(m.Content, e.Prefix) {
		return fmt.Errorf("content %q does not begin with the family's prefix %q", m.Content, e.Prefix)
	}
	m.Content = m.Content[len(e.Prefix):]
	if !subsequence(m.Reasoning, out) {
		return fmt.Errorf("reasoning %q is not made of the output's bytes", m.Reasoning)
	}
	if !subsequence(m.Content, out) {
		return fmt.Errorf("content %q is not made of the output's bytes", m.Content)
	}
	got := len(m.Reasoning) + len(m.Content)
	for _, s := range segs {
		if !subsequence(s.Text, out) {
			return fmt.Errorf("segment %q is not made of the output's bytes", s.Text)
		}
		got += len(s.Text)
	}
	if got > len(out) {
		return fmt.Errorf("reasoning %q, content %q and segments hold more than the output", m.Reasoning, m.Content)
	}
	if e.Headers {
		return nil // header text (roles, channel names) is dropped besides the markers
	}
	rest := withoutMarkers(withoutTails(out, e), e.Markers)
	least := len(rest)
	if e.StripsSpace {
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

// CheckInvariantsVocab checks, for one registered name, that a real model
// vocabulary changes nothing: on the name's generated corpus, under every
// setting, Extract with tok equals Extract with text alone, and streaming
// one real token per delta (with its ID), per detokenized token and three
// tokens per delta gives the same. A name the vocabulary cannot serve (New
// fails, say because a marker is not one token of it) is reported by the
// returned error, for the caller to decide. Bytes the vocabulary cannot
// produce (invalid UTF-8 its decoder replaces) are replaced as it would.
func CheckInvariantsVocab(t *testing.T, name string, tok tokenizer.Tokenizer) error {
	e, ok := catalog.Lookup(name)
	if !ok {
		t.Fatalf("parser %q has no catalog entry: register it with parsers.register", name)
	}
	if e.Config != nil {
		tok = tokenizer.WithConfig(tok, e.Config) // the family's metadata, not the model's
	}
	if _, err := reasoning.New(name, tok); err != nil {
		return err
	}
	markers := slices.Concat(e.Markers, e.Boundaries)
	// The corpus as this vocabulary can produce it: where the model could
	// not emit an output's bytes (invalid UTF-8 that its decoder replaces
	// or drops), the output its tokens decode to stands in.
	var corpus []string
	var chunkings [][]Chunking
	for i, out := range Corpus(markers, seed(name)) {
		if i%3 != 0 { // a third of it: real encoding is slow, and the rest is TestInvariants' business
			continue
		}
		tcs, err := TokenChunkings(tok, out)
		if err != nil {
			var b strings.Builder
			for _, id := range tok.Encode(out) {
				b.WriteString(tok.Decode([]int{id}))
			}
			out = b.String()
			if tcs, err = TokenChunkings(tok, out); err != nil {
				t.Fatalf("output %q: %v", out, err)
			}
		}
		corpus = append(corpus, out)
		chunkings = append(chunkings, tcs)
	}
	text := Tokenizer(name, nil)
	for si, set := range Settings(markers) {
		for ci, out := range corpus {
			newParser := func(tok tokenizer.Tokenizer) reasoning.Parser {
				p, err := reasoning.New(name, tok, set.opts(tok)...)
				if err != nil {
					t.Fatalf("New(%q) with settings %d: %v", name, si, err)
				}
				return p
			}
			want := newParser(text).Extract(out)
			wantSegs := segmentsOf(newParser(text), out)
			if diff := cmp.Diff(want, newParser(tok).Extract(out)); diff != "" {
				t.Fatalf("settings %d output %q: Extract with the vocabulary differs (-text +vocabulary):\n%s", si, out, diff)
			}
			for _, ch := range chunkings[ci] {
				checkCollect(t, ch, newParser(tok), want, wantSegs)
			}
			if t.Failed() {
				t.Fatalf("settings %d output %q", si, out)
			}
		}
	}
	return nil
}
