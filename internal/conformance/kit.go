package conformance

import (
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/reasoningtest"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Factory returns a Factory for the registered name that builds its parser
// with reasoning.New, as every caller does, for the conformance kit. The
// kit's own registry applies StreamReasoning and NonEmptyContent around the
// parser, as New applies them around a family's, so they are left to it.
func Factory(name string) reasoning.Factory {
	return func(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
		cfg.StreamReasoning, cfg.NonEmptyContent = true, false
		return reasoning.New(name, tok, func(c *reasoning.Config) { *c = cfg })
	}
}

// KitConfig maps a registered name and its catalog entry to the
// conformance kit's Config: the markers and what the family drops, the
// tokenizer metadata of a family that needs some (see Tokenizer), and a
// seed derived from the name.
func KitConfig(name string, e catalog.Entry) reasoningtest.Config {
	var tails []reasoningtest.Tail
	for _, m := range e.Tails {
		tails = append(tails, reasoningtest.Tail{Marker: m, Chars: e.TailChars, End: e.TailEnd})
	}
	var blocks []reasoningtest.ToolBlock
	for _, b := range e.ToolBlocks {
		blocks = append(blocks, reasoningtest.ToolBlock{Open: b[0], Close: b[1]})
	}
	return reasoningtest.Config{
		ToolBlocks:     blocks,
		Markers:        e.Markers,
		Boundaries:     e.Boundaries,
		StripsSpace:    e.StripsSpace,
		ContentPrefix:  e.Prefix,
		DropsHeaders:   e.Headers,
		Tails:          tails,
		MarkersAreText: e.MarkersAreText,
		Adapt:          func(tok tokenizer.Tokenizer) tokenizer.Tokenizer { return Tokenizer(name, tok) },
		Seed:           seed(name),
	}
}

// entry returns the catalog entry of a registered name, failing tb when it
// has none.
func entry(tb testing.TB, name string) catalog.Entry {
	tb.Helper()
	e, ok := catalog.Lookup(name)
	if !ok {
		tb.Fatalf("parser %q has no catalog entry: register it with parsers.register", name)
	}
	return e
}

// A Chunking is one way of cutting an output into deltas.
type Chunking = reasoningtest.Chunking

// TextChunkings returns the text-only ways the kit cuts output
// (reasoningtest.Chunkings).
func TextChunkings(output string, seed uint64) []Chunking {
	return reasoningtest.Chunkings(output, seed)
}

// TwoWaySplits returns every cut of output into two deltas.
func TwoWaySplits(output string) []Chunking { return reasoningtest.TwoWaySplits(output) }

// TokenChunkings returns the chunkings a serving stack produces with tok
// (reasoningtest.TokenChunkings).
func TokenChunkings(tok tokenizer.Tokenizer, output string) ([]Chunking, error) {
	return reasoningtest.TokenChunkings(tok, output)
}

// MergeSegments joins the pieces of each segment, in order.
func MergeSegments(pieces []reasoning.Segment) []reasoning.Segment {
	return reasoningtest.MergeSegments(pieces)
}

// Corpus returns outputs built from markers (reasoningtest.Corpus).
func Corpus(markers []string, seed uint64) []string { return reasoningtest.Corpus(markers, seed) }

// ToyVocab returns a vocabulary in which every marker is one token
// (reasoningtest.ToyVocab).
func ToyVocab(markers []string) *tokenizer.Vocab { return reasoningtest.ToyVocab(markers) }

// MarkerIDs returns the IDs tok gives each of markers, then those of
// text: a pool to draw random sequences of markers and text from.
func MarkerIDs(tok tokenizer.Tokenizer, markers []string, text string) []int {
	var ids []int
	for _, m := range markers {
		ids = append(ids, tok.Encode(m)...)
	}
	return append(ids, tok.Encode(text)...)
}

// Conserves checks guarantee 1 on one split of out, for the family e
// describes (reasoningtest.Conserves).
func Conserves(out string, m reasoning.Message, segs []reasoning.Segment, e catalog.Entry) error {
	return reasoningtest.Conserves(out, m, segs, KitConfig("", e))
}
