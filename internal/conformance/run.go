package conformance

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reasoning-go/reasoning"
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
	streamWant := c.Want
	if c.StreamWant != nil {
		streamWant = *c.StreamWant
	}
	newParser := func(tok tokenizer.Tokenizer) reasoning.Parser {
		p, err := reasoning.New(name, tok, c.opts(tok)...)
		if err != nil {
			t.Fatalf("New(%q): %v", name, err)
		}
		return p
	}
	p := newParser(nil)
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
		checkCollect(t, ch, newParser(nil), streamWant)
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
		checkCollect(t, ch, newParser(tok), streamWant)
	}
}

// checkCollect streams ch through p and compares with want.
func checkCollect(t *testing.T, ch Chunking, p reasoning.Parser, want reasoning.Message) {
	t.Helper()
	got := reasoning.Collect(p, ch.Deltas)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Collect mismatch, chunking %s %s (-want +got):\n%s", ch.Name, quoted(ch.Deltas), diff)
	}
	if m := p.ExtractStreaming(reasoning.Delta{Text: "after the end"}); !m.IsZero() {
		t.Errorf("chunking %s: a delta after Finish emitted %+v", ch.Name, m)
	}
	if m := p.Finish(); !m.IsZero() {
		t.Errorf("chunking %s: a second Finish emitted %+v", ch.Name, m)
	}
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
	ptok := tok
	if c.NoTokenizer {
		ptok = nil
	}
	p, err := reasoning.New(f.Parser, ptok, c.opts(tok)...)
	if err != nil {
		t.Fatalf("New(%q): %v", f.Parser, err)
	}
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
