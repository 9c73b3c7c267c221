package reasoning_test

import (
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/reasoning-go/reasoning"
	_ "github.com/reasoning-go/reasoning/parsers"
	"github.com/reasoning-go/reasoning/tokenizer"
)

func Example() {
	p, err := reasoning.New("deepseek_r1", nil) // nil tokenizer: text only
	if err != nil {
		log.Fatal(err)
	}
	m := p.Extract("<think>2 + 2 is 4.</think>The answer is 4.")
	fmt.Printf("reasoning: %q\ncontent: %q\n", m.Reasoning, m.Content)
	// Output:
	// reasoning: "2 + 2 is 4."
	// content: "The answer is 4."
}

func ExampleParser_streaming() {
	p, err := reasoning.New("deepseek_r1", nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range []string{"Add 2 and 2.</th", "ink>The answer", " is 4."} {
		if m := p.ExtractStreaming(reasoning.Delta{Text: d}); !m.IsZero() {
			fmt.Printf("reasoning=%q content=%q\n", m.Reasoning, m.Content)
		}
	}
	fmt.Println("finish zero:", p.Finish().IsZero())
	// Output:
	// reasoning="Add 2 and 2." content=""
	// reasoning="" content="The answer"
	// reasoning="" content=" is 4."
	// finish zero: true
}

func ExampleWithThinking() {
	out := "Let me think.</think>Hello!"
	for _, on := range []bool{true, false} {
		p, err := reasoning.New("qwen3", nil, reasoning.WithThinking(on))
		if err != nil {
			log.Fatal(err)
		}
		m := p.Extract(out)
		fmt.Printf("thinking %v: reasoning=%q content=%q\n", on, m.Reasoning, m.Content)
	}
	// Output:
	// thinking true: reasoning="Let me think." content="Hello!"
	// thinking false: reasoning="" content="Let me think.</think>Hello!"
}

func ExampleWithPrompt() {
	// The thinking-disabled prefill already closed reasoning in the prompt.
	prompt := "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"
	p, err := reasoning.New("qwen3", nil, reasoning.WithPrompt(prompt, nil))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%+v\n", p.Extract("Hello! How can I help?"))
	// Output:
	// {Reasoning: Content:Hello! How can I help?}
}

func ExampleParser_IsReasoningEnd() {
	// Token IDs need the model's tokenizer; this one knows only the markers.
	tok, err := tokenizer.NewVocab(map[string]int{"<think>": 151667, "</think>": 151668})
	if err != nil {
		log.Fatal(err)
	}
	p, err := reasoning.New("qwen3", tok)
	if err != nil {
		log.Fatal(err)
	}
	ids := tok.Encode("<think>plan</think>{")
	for n := 1; n <= len(ids); n++ {
		if p.IsReasoningEnd(ids[:n]) {
			fmt.Printf("grammar on after %d tokens; content so far %q\n", n, tok.Decode(p.ExtractContentIDs(ids[:n])))
			break
		}
	}
	fmt.Println("reasoning tokens:", p.CountReasoningTokens(ids))
	// Output:
	// grammar on after 6 tokens; content so far ""
	// reasoning tokens: 4
}

func ExampleNew_unknownName() {
	_, err := reasoning.New("qwen-4", nil)
	fmt.Println(errors.Is(err, reasoning.ErrUnknownParser))
	// The message goes on to list every registered name.
	msg, _, _ := strings.Cut(err.Error(), " (known:")
	fmt.Println(msg)
	fmt.Println(strings.HasSuffix(err.Error(), "; forgotten import of github.com/reasoning-go/reasoning/parsers?)"))
	// Output:
	// true
	// reasoning: unknown parser "qwen-4"
	// true
}

// shout is a toy family: everything up to the first "!" is reasoning.
type shout struct {
	done     bool // the "!" has been seen
	finished bool
}

func (s *shout) Extract(out string) reasoning.Message {
	if r, c, ok := strings.Cut(out, "!"); ok {
		return reasoning.Message{Reasoning: r, Content: c}
	}
	return reasoning.Message{Reasoning: out}
}

func (s *shout) ExtractStreaming(d reasoning.Delta) reasoning.Message {
	if s.finished {
		return reasoning.Message{}
	}
	if s.done {
		return reasoning.Message{Content: d.Text}
	}
	r, c, ok := strings.Cut(d.Text, "!")
	s.done = ok
	return reasoning.Message{Reasoning: r, Content: c}
}

func (s *shout) Finish() reasoning.Message               { s.finished = true; return reasoning.Message{} }
func (s *shout) IsReasoningEnd([]int) bool               { return false }
func (s *shout) IsReasoningEndStreaming(_, _ []int) bool { return false }
func (s *shout) ExtractContentIDs([]int) []int           { return nil }
func (s *shout) CountReasoningTokens([]int) int          { return 0 }

func ExampleRegistry() {
	r := reasoning.NewRegistry()
	err := r.Register("shout", func(tokenizer.Tokenizer, reasoning.Config) (reasoning.Parser, error) {
		return new(shout), nil
	}, "yell")
	if err != nil {
		log.Fatal(err)
	}
	p, err := r.New("YELL", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%+v\n", reasoning.Collect(p, []reasoning.Delta{{Text: "hmm"}, {Text: "m!hi"}}))
	name, _ := r.Canonical("Yell")
	fmt.Println(name, r.Names())
	// Output:
	// {Reasoning:hmmm Content:hi}
	// shout [shout]
}
