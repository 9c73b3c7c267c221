package parsers

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/internal/testvocab"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// TestHeldRoutes checks the shell's ways around the driver's feed for a
// delta (ExtractStreaming's fast path and quietIDs' filters, toSection,
// release, stepHeld, markerDelta) against the feed itself (feedDelta):
// each delta's message, and the segments, are those of a shell that runs
// the driver for every delta. The names are those whose markers come in
// several tokens, so that a delta often goes on with, or completes, a
// marker the scanner holds, and those whose markers are one token (beam's
// with gpt-oss's IDs, whose text tokens pass idBits often): split by the
// real vocabulary's tokens (with IDs), and by a few byte counts and at
// every "<" and after every ">" (text alone).
func TestHeldRoutes(t *testing.T) {
	vocabs := map[string]string{"beam": "gpt-oss"}
	for _, name := range []string{"muse_spark", "muse_glimmer", "inkling", "cohere_command3", "beam", "deepseek_r1", "qwen3"} {
		raw, err := os.ReadFile("../testdata/samples/" + name + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Repeat(string(raw), 3)
		var splits [][]reasoning.Delta
		for _, n := range []int{1, 2, 3, 4, 7} {
			var ds []reasoning.Delta
			for i := 0; i < len(text); i += n {
				ds = append(ds, reasoning.Delta{Text: text[i:min(len(text), i+n)]})
			}
			splits = append(splits, ds)
		}
		var ds []reasoning.Delta
		for i := 0; i < len(text); {
			j := i + 1
			for j < len(text) && text[j] != '<' && text[j-1] != '>' {
				j++
			}
			ds = append(ds, reasoning.Delta{Text: text[i:j]})
			i = j
		}
		splits = append(splits, ds)
		for i, ds := range splits {
			checkHeldRoutes(t, name, nil, ds, i)
		}
		vocab := vocabs[name]
		if vocab == "" {
			vocab = "qwen3"
		}
		tok := testvocab.Load(t, vocab)
		chs, err := conformance.TokenChunkings(tok, text)
		if err != nil {
			t.Fatal(err)
		}
		checkHeldRoutes(t, name, tok, chs[0].Deltas, -1)
	}
}

// checkHeldRoutes streams ds (split i, -1 for tokens) through two shells
// of name over tok, one by ExtractStreaming and one by feedDelta, and
// checks that they agree delta by delta.
func checkHeldRoutes(t *testing.T, name string, tok tokenizer.Tokenizer, ds []reasoning.Delta, split int) {
	t.Helper()
	cfg := reasoning.WithChatTemplateKwargs(map[string]any{"enable_thinking": true, "thinking": true})
	p, err := reasoning.New(name, tok, cfg)
	if err != nil {
		t.Fatal(err)
	}
	q, err := reasoning.New(name, tok, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ref := shellOf(t, q)
	for i, d := range ds {
		got, want := p.ExtractStreaming(d), feedDelta(ref, d)
		if got != want {
			t.Fatalf("%s split %d delta %d %q: got %+v, want %+v (the driver's feed)", name, split, i, d.Text, got, want)
		}
		if sp, ok := p.(reasoning.Segmenter); ok {
			if gs, ws := sp.Segments(), q.(reasoning.Segmenter).Segments(); !slices.Equal(gs, ws) {
				t.Fatalf("%s split %d delta %d %q: segments %+v, want %+v", name, split, i, d.Text, gs, ws)
			}
		}
	}
	if got, want := p.Finish(), q.Finish(); got != want {
		t.Fatalf("%s split %d: Finish %+v, want %+v", name, split, got, want)
	}
}

// shellOf returns the shell of p, a parser New made.
func shellOf(t *testing.T, p reasoning.Parser) *shell {
	t.Helper()
	switch q := p.(type) {
	case *shell:
		return q
	case *struct {
		*shell
		segmentsOf
	}:
		return q.shell
	}
	t.Fatalf("%T is no shell", p)
	return nil
}

// feedDelta is ExtractStreaming that runs the driver's feed for every
// delta: its last way, which every other must agree with.
func feedDelta(s *shell, d reasoning.Delta) reasoning.Message {
	ids := d.IDs
	if s.spec.textOnly {
		ids = nil
	}
	if !s.takeIDs(ids) {
		return reasoning.Message{}
	}
	if s.watch != s.live.extra {
		s.watchPending()
	}
	r, c := s.scratch()
	s.live.feed(d.Text, s.backed, s.out)
	if s.watch != s.live.extra {
		s.watchPending()
	}
	return s.joined(r, c)
}
