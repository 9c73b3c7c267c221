package conformance

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/reasoningtest"
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
// The checks are the conformance kit's on a case (reasoningtest.Case).
func CheckCaseWith(t *testing.T, name string, c Case, base tokenizer.Tokenizer) {
	t.Helper()
	e, _ := catalog.Lookup(name) // a name without an entry gets no metadata
	cfg := KitConfig(name, e)
	cfg.NoCorpus, cfg.Settings, cfg.TextTokenizer = true, []reasoningtest.Setting{}, base
	if c.Vocab != "" {
		cfg.Tokenizer = LoadVocab(t, c.Vocab)
	}
	cfg.Cases = []reasoningtest.Case{{
		Name:         c.Name,
		Setting:      c.setting(""), // the case's name says which
		Output:       c.Output,
		Deltas:       c.Deltas,
		Want:         c.Want,
		StreamWant:   c.StreamWant,
		WantSegments: c.WantSegments,
	}}
	if err := reasoningtest.Check(Factory(name), cfg); err != nil {
		t.Fatal(err)
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
	ptok := Tokenizer(f.Parser, tok) // with the metadata of a family that needs some
	if c.NoTokenizer {
		ptok = nil
	}
	p, err := reasoning.New(f.Parser, ptok, c.opts(tok)...)
	if err != nil {
		t.Fatalf("New(%q): %v", f.Parser, err)
	}
	e, _ := catalog.Lookup(f.Parser)
	cfg := KitConfig(f.Parser, e)
	cfg.Adapt = func(tokenizer.Tokenizer) tokenizer.Tokenizer { return ptok }
	if err := reasoningtest.CheckIDs(Factory(f.Parser), cfg, c.setting(c.Name), tok, ids); err != nil {
		t.Error(err)
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

// seed derives a chunking seed from a case name, so that a failure repeats.
func seed(name string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(name); i++ {
		h = (h ^ uint64(name[i])) * 1099511628211
	}
	return h
}
