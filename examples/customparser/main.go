// Command customparser adds a family the library does not ship, "reasoner",
// with exported API only (the Go form of vLLM's --reasoning-parser-plugin),
// and splits the output on standard input into JSON:
//
//	echo '<reason>plan</reason>The answer.' | go run ./examples/customparser
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/parsers"
)

// Reasoner is the family: the model reasons in <reason>…</reason>, which its
// chat template opens in the prompt; opening a tool call with <tool> ends
// reasoning, the call staying in content for the tool parser; a request
// turns reasoning off with chat_template_kwargs {"enable_reasoning": false},
// and the whole output is then content.
var Reasoner = parsers.ThinkTag{
	Name:     "reasoner",
	Open:     []string{"<reason>"},
	Close:    []string{"</reason>"},
	Tools:    []string{"<tool>"},
	Start:    parsers.StartReasoning,
	Repeats:  parsers.RepeatsDropStray,
	Thinking: parsers.Switch{Keys: []string{"enable_reasoning"}, Default: true},
}

func init() {
	f, err := Reasoner.Factory()
	if err != nil {
		panic(err) // a bad spec is a bug of this program
	}
	reasoning.RegisterInfo(Reasoner.Info(), f) // Register(name, f), with its markers and switch keys
}

func main() {
	think := flag.Bool("reasoning", true, "the request's enable_reasoning")
	flag.Parse()
	out, err := io.ReadAll(os.Stdin)
	if err == nil {
		var p reasoning.Parser
		kw := map[string]any{"enable_reasoning": *think}
		if p, err = reasoning.New(Reasoner.Name, nil, reasoning.WithChatTemplateKwargs(kw)); err == nil {
			err = json.NewEncoder(os.Stdout).Encode(p.Extract(string(out)))
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "customparser:", err)
		os.Exit(1)
	}
}
