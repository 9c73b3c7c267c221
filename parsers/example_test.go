package parsers_test

import (
	"fmt"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/parsers"
)

// A family the library does not ship: a model that reasons in
// <reason>…</reason> (its chat template opens <reason> in the prompt), ends
// reasoning implicitly when it opens a tool call with <tool>, and turns
// reasoning off with chat_template_kwargs {"enable_reasoning": false}.
func ExampleThinkTag() {
	spec := parsers.ThinkTag{
		Name:     "reasoner",
		Open:     []string{"<reason>"},
		Close:    []string{"</reason>"},
		Tools:    []string{"<tool>"},
		Start:    parsers.StartReasoning,
		Repeats:  parsers.RepeatsDropStray,
		Thinking: parsers.Switch{Keys: []string{"enable_reasoning"}, Default: true},
	}
	f, err := spec.Factory()
	if err != nil {
		panic(err)
	}
	r := reasoning.NewRegistry() // reasoning.RegisterInfo(spec.Info(), f) for the default one
	if err := r.RegisterInfo(spec.Info(), f); err != nil {
		panic(err)
	}

	p, _ := r.New("reasoner", nil)
	fmt.Printf("%+v\n", p.Extract("Look it up.<tool>{\"q\": \"weather\"}"))
	off, _ := r.New("reasoner", nil, reasoning.WithChatTemplateKwargs(map[string]any{"enable_reasoning": false}))
	fmt.Printf("%+v\n", off.Extract("The answer."))
	// Output:
	// {Reasoning:Look it up. Content:<tool>{"q": "weather"}}
	// {Reasoning: Content:The answer.}
}
