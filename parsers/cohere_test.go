package parsers_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/internal/conformance"
	"github.com/reasoning-go/reasoning/reasoningtest"
)

// A citation's tail ("</co:" then " 0:[1,2]" and ">") streamed in deltas
// of every size, cut every two ways and as a tokenizer cuts it splits as
// Extract does: the tail's characters alone go to the grammar without the
// driver (tagGrammar.takeHeld, directHeld), and a delta the grammar
// refuses (one that ends the tail, or text after it) goes to the driver.
// Builds that count work (reasoning_work) check besides that every byte
// fed is placed or held.
func TestCohereCitationTailChunked(t *testing.T) {
	outs := []string{
		// content: the tail ends at '>', at other text, at a marker, at the end
		"<|START_RESPONSE|>see <co>x</co: 0:[1,2],1:[3]> and y<|END_RESPONSE|>",
		"<|START_RESPONSE|>a <co>b</co: 0:[1]>\n\n<co>c</co:   12:[0] ,>d<|END_RESPONSE|>",
		"<|START_RESPONSE|>see <co>x</co: doc1> z<|END_RESPONSE|>",
		"<|START_RESPONSE|>see <co>x</co: 0:[1]<|END_RESPONSE|>after",
		"<|START_RESPONSE|>see <co>x</co: 0:[1]<co>y</co: 2>>z",
		"<|START_RESPONSE|>see <co>x</co: 0:[1",
		"<|START_RESPONSE|>see <co>x</co: 0:[1] <|START_ACTION|>[{\"a\": 1}]<|END_ACTION|> t",
		// at the start of an answer, where whitespace is trimmed
		"<|START_RESPONSE|></co: 0:[1]>   x</co: 1>",
		"<|START_RESPONSE|></co: 0:[1]   \n x",
		"</co: 0:[1]> begins</co:3> the output",
		// reasoning: trimmed at both ends of the block
		"<|START_THINKING|>  think <co>a</co: 0:[1]>  \n more</co: 9> <|END_THINKING|>  <|START_RESPONSE|>ok</co: 1:[2]>",
		"<|START_THINKING|></co: 1> a <co>b</co: 0:[1]<|END_THINKING|><|START_RESPONSE|>c",
		"<|START_THINKING|>r</co: 1 ,2 <</co: 3>x<|END_THINKING|>",
		"a</co: 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1>b",
	}
	for _, name := range []string{"cohere_command3", "cohere_command4"} {
		e, ok := catalog.Lookup(name)
		if !ok {
			t.Fatalf("no catalog entry for %s", name)
		}
		tok := conformance.ToyVocab(slices.Concat(e.Markers, e.Boundaries))
		for _, out := range outs {
			want := newParser(t, name, nil).Extract(out)
			var chunkings []conformance.Chunking
			for size := 1; size <= 13; size++ {
				c := conformance.Chunking{Name: fmt.Sprintf("%d-byte", size)}
				for i := 0; i < len(out); i += size {
					c.Deltas = append(c.Deltas, reasoning.Delta{Text: out[i:min(len(out), i+size)]})
				}
				chunkings = append(chunkings, c)
				if size <= 3 { // empty deltas between them, in a tail too
					e := conformance.Chunking{Name: c.Name + " with empty deltas"}
					for _, d := range c.Deltas {
						e.Deltas = append(e.Deltas, d, reasoning.Delta{})
					}
					chunkings = append(chunkings, e)
				}
			}
			chunkings = append(chunkings, conformance.TwoWaySplits(out)...)
			chunkings = append(chunkings, conformance.TextChunkings(out, 7)...)
			for _, c := range chunkings {
				checkTailStream(t, name, out, newParser(t, name, nil), c, want)
			}
			tc, err := conformance.TokenChunkings(tok, out)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range tc {
				p := newParser(t, name, tok)
				checkTailStream(t, name, out, p, c, p.Extract(out))
			}
		}
	}
}

func checkTailStream(t *testing.T, name, out string, p reasoning.Parser, c conformance.Chunking, want reasoning.Message) {
	t.Helper()
	if got, _ := reasoningtest.Collect(p, c.Deltas); got != want {
		t.Errorf("%s, %s: %q streams as %+v, Extract gives %+v", name, c.Name, out, got, want)
	}
}
