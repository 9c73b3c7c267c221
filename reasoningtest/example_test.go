package reasoningtest_test

import (
	"fmt"
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/reasoningtest"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// naive is a family whose streaming parser looks for </think> in each delta
// on its own, so a marker cut across two deltas is missed.
type naive struct{ ended, finished bool }

func newNaive(tokenizer.Tokenizer, reasoning.Config) (reasoning.Parser, error) { return &naive{}, nil }

func (p *naive) Extract(output string) reasoning.Message {
	r, c, found := strings.Cut(output, "</think>")
	if !found {
		return reasoning.Message{Reasoning: output}
	}
	return reasoning.Message{Reasoning: r, Content: c}
}

func (p *naive) ExtractStreaming(d reasoning.Delta) reasoning.Message {
	if p.finished {
		return reasoning.Message{}
	}
	if p.ended {
		return reasoning.Message{Content: d.Text}
	}
	m := p.Extract(d.Text)
	p.ended = m.Content != "" || strings.Contains(d.Text, "</think>")
	return m
}

func (p *naive) Finish() reasoning.Message               { p.finished = true; return reasoning.Message{} }
func (p *naive) IsReasoningEnd([]int) bool               { return false }
func (p *naive) IsReasoningEndStreaming(_, _ []int) bool { return false }
func (p *naive) ExtractContentIDs([]int) []int           { return nil }
func (p *naive) CountReasoningTokens([]int) int          { return 0 }

// Check finds the naive family's three bugs, each on the smallest output
// it could: the streaming parser misses a marker cut across two deltas,
// takes a marker typed as ordinary tokens for one, and the ID methods
// ignore the tokenizer. (Here it is asked about one output, under one
// setting; without NoCorpus it generates hundreds from the markers.)
func Example() {
	err := reasoningtest.Check(newNaive, reasoningtest.Config{
		Markers:  []string{"</think>"},
		Outputs:  []string{"Let me think. </think>The answer is 4."},
		NoCorpus: true,
		Settings: []reasoningtest.Setting{{Name: "default"}},
	})
	fmt.Println(err)
	// Output:
	// reasoningtest: 3 checks failed:
	// streaming equals Extract, setting "default", chunking per-byte-with-empties: Collect = {Reasoning: "</think>", Content: ""}, Extract = {Reasoning: "", Content: ""}
	// 	output "</think>" (shrunk from 38 bytes)
	// 	deltas ["</think" ">"]
	// IDs beat text, setting "default", chunking markers typed as ordinary tokens: with its markers typed as ordinary tokens, reasoning "" and content "" lose text: 0 bytes, at least 8 expected
	// 	output "</think>" (shrunk from 38 bytes)
	// 	deltas ["</think>"[1061 1048 1117 1105 1106 1111 1108 1063]]
	// ID methods agree with the text split, setting "default": CountReasoningTokens over byte tokens = 0, want 1, the length of reasoning "."
	// 	output "." (shrunk from 38 bytes)
}
