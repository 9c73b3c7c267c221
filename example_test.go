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
		log.Fatal(err) // an unknown name lists the known ones
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
	deltas := []string{"Add 2 and 2.</th", "ink>The answer", " is 4."} // "</think>" cut in two
	for _, d := range deltas {
		if m := p.ExtractStreaming(reasoning.Delta{Text: d}); !m.IsZero() {
			fmt.Printf("reasoning=%q content=%q\n", m.Reasoning, m.Content)
		}
	}
	if m := p.Finish(); !m.IsZero() { // what was held back, such as a partial marker
		fmt.Printf("reasoning=%q content=%q\n", m.Reasoning, m.Content)
	}
	// Output:
	// reasoning="Add 2 and 2." content=""
	// reasoning="" content="The answer"
	// reasoning="" content=" is 4."
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

// A gateway in front of a server that returns raw text: pick the parser
// from the request's model, resolve the thinking switches once, then split
// each choice's deltas.
func Example_gateway() {
	// From the request, and the upstream's streamed deltas of one choice.
	model, kwargs, effort := "Qwen/Qwen3-8B", map[string]any(nil), ""
	upstream := []string{"<think>2 + 2", " is 4.</th", "ink>\n\nIt is 4."}

	name, ok := reasoning.ForModel(model) // "Qwen/Qwen3-8B" → "qwen3"; or your configured name
	if !ok {
		return // not a reasoning model ForModel knows: pass the response through
	}
	kw, _ := reasoning.ResolveThinking(kwargs, effort, reasoning.ThinkingDefaults{})
	// Send kw upstream as the request's chat_template_kwargs; then, per choice:
	p, err := reasoning.New(name, nil, reasoning.WithChatTemplateKwargs(kw)) // nil tokenizer: text only
	if err != nil {
		log.Fatal(err) // a family that rejects the kwargs: answer 400 before calling upstream
	}
	// A plain (non-streamed) response: m := p.Extract(message.Content). A stream:
	for _, delta := range upstream {
		if m := p.ExtractStreaming(reasoning.Delta{Text: delta}); !m.IsZero() {
			fmt.Printf("delta: reasoning=%q content=%q\n", m.Reasoning, m.Content)
		}
	}
	held := p.Finish() // at the choice's finish_reason or [DONE]: send it before the finish
	fmt.Printf("finish: %+v\n", held)
	// Output:
	// delta: reasoning="2 + 2" content=""
	// delta: reasoning=" is 4." content=""
	// delta: reasoning="" content="\n\nIt is 4."
	// finish: {Reasoning: Content:}
}

// A Gate holds a grammar off while the model reasons, and ends reasoning
// that runs over a thinking budget by forcing the end marker.
func ExampleGate() {
	tok, err := tokenizer.NewVocab(map[string]int{"<think>": 151667, "</think>": 151668})
	if err != nil {
		log.Fatal(err)
	}
	p, err := reasoning.New("qwen3", tok) // a parser of its own, with the tokenizer
	if err != nil {
		log.Fatal(err)
	}
	g := reasoning.NewGate(p, reasoning.WithThinkingBudget(3, nil))
	g.Prompt(tok.Encode("<|im_start|>assistant\n<think>\n")) // the prompt opened reasoning
	model := tok.Encode("hmmm{}")                            // what the sampler picks, one token a step
	for len(model) > 0 {
		if f := g.Force(); f != nil { // budget spent: emit the end marker
			g.Accept(f...)
			fmt.Printf("forced %q\n", tok.Decode(f))
			continue
		}
		grammarOn := g.Constrain() // false while reasoning; true from the token after it ends
		id := model[0]
		model = model[1:]
		g.Accept(id) // accepted tokens, in order; Rollback(n) takes back rejected ones
		fmt.Printf("%q grammar=%v\n", tok.Decode([]int{id}), grammarOn)
	}
	fmt.Println("reasoning tokens:", g.ReasoningTokens()) // as CountReasoningTokens counts them
	// Output:
	// "h" grammar=false
	// "m" grammar=false
	// "m" grammar=false
	// forced "</think>"
	// "m" grammar=true
	// "{" grammar=true
	// "}" grammar=true
	// reasoning tokens: 3
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
