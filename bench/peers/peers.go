package main

import (
	"fmt"
	"strings"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/model/parsers"
	"github.com/ollama/ollama/thinking"
	"github.com/reasoning-go/reasoning"
	_ "github.com/reasoning-go/reasoning/parsers"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// A stream is one response being parsed, whatever parses it. feed calls the
// parser once per delta, the way a server's loop does; when keep is set it
// also keeps what the parser emits, which result returns after finish.
// Measuring and checking run the same loop.
type stream interface {
	feed(ds []reasoning.Delta, keep bool)
	finish(keep bool)
	result() (reasoning, content string, odd int)
}

// emitted is what a stream emitted, joined.
type emitted struct {
	reasoning, content strings.Builder
	odd                int // tool calls and errors (Ollama's parsers report them; nothing in the workloads is either)
}

func (e *emitted) result() (string, string, int) {
	return e.reasoning.String(), e.content.String(), e.odd
}

func (e *emitted) keep(reasoning, content string) {
	e.reasoning.WriteString(reasoning)
	e.content.WriteString(content)
}

// A row is one parser of the table.
type row struct {
	label    string
	workload string // the workload it parses: "qwen3" or "harmony"
	ids      bool   // its deltas carry token IDs
	floor    bool   // it splits nothing: only its cost counts
	library  bool   // this library's: its split must be Extract's exactly
	// stream starts a stream; extract splits a whole output, nil where the
	// parser has nothing that does.
	stream  func(w *workload) stream
	extract func(output string) (reasoning, content string)
}

// rows returns the table's rows, in its order.
func rows() []row {
	floorRow := func(name string) row {
		return row{label: "floor: a call + `strings.IndexByte` per delta; `strings.Index` of the whole", workload: name, floor: true,
			stream: func(*workload) stream { return new(floorStream) }, extract: floorExtract}
	}
	return []row{
		floorRow("qwen3"),
		{label: "this library, `qwen3`", workload: "qwen3", library: true,
			stream: ours("qwen3", false), extract: oursExtract("qwen3")},
		{label: "this library, `qwen3`, text and token IDs", workload: "qwen3", ids: true, library: true,
			stream: ours("qwen3", true)},
		{label: "Ollama `thinking.Parser`", workload: "qwen3",
			stream: func(*workload) stream { return newThinking() }, extract: thinkingExtract},
		{label: "Ollama `model/parsers` `qwen3.5`", workload: "qwen3",
			stream: ollama("qwen3.5"), extract: ollamaExtract("qwen3.5")},
		floorRow("harmony"),
		{label: "this library, `openai_gptoss`", workload: "harmony", library: true,
			stream: ours("openai_gptoss", false), extract: oursExtract("openai_gptoss")},
		{label: "Ollama `model/parsers` `harmony`", workload: "harmony",
			stream: ollama("harmony"), extract: ollamaExtract("harmony")},
	}
}

// floorStream is the least a parser can do per delta: call a function that
// looks at the delta for the first byte of a marker.
type floorStream struct {
	emitted
	n int
}

func (f *floorStream) feed(ds []reasoning.Delta, _ bool) {
	for _, d := range ds {
		f.n += indexMarker(d.Text)
	}
}

func (f *floorStream) finish(bool) {}

//go:noinline
func indexMarker(s string) int { return strings.IndexByte(s, '<') }

// floorExtract is the least a whole-output split can do: read the output
// once for a marker (one that never occurs, so the scan reads it all).
func floorExtract(output string) (string, string) {
	return output[:max(0, strings.Index(output, "<|none|>"))], ""
}

// oursStream is this library's parser.
type oursStream struct {
	emitted
	p reasoning.Parser
}

func (s *oursStream) feed(ds []reasoning.Delta, keep bool) {
	for _, d := range ds {
		m := s.p.ExtractStreaming(d)
		if keep {
			s.keep(m.Reasoning, m.Content)
		}
	}
}

func (s *oursStream) finish(keep bool) {
	m := s.p.Finish()
	if keep {
		s.keep(m.Reasoning, m.Content)
	}
}

// ours starts streams of the named parser, with the workload's tokenizer
// when ids is set (a caller that has token IDs has it) and without one
// otherwise.
func ours(name string, ids bool) func(w *workload) stream {
	return func(w *workload) stream {
		var tok tokenizer.Tokenizer
		if ids {
			tok = w.tok
		}
		return &oursStream{p: mustNew(name, tok)}
	}
}

func oursExtract(name string) func(output string) (string, string) {
	return func(output string) (string, string) {
		m := mustNew(name, nil).Extract(output)
		return m.Reasoning, m.Content
	}
}

// mustNew is reasoning.New for names this program knows are registered.
func mustNew(name string, tok tokenizer.Tokenizer) reasoning.Parser {
	p, err := reasoning.New(name, tok)
	if err != nil {
		panic(fmt.Sprintf("peers: %v", err))
	}
	return p
}

// thinkingStream is Ollama's generic <think> splitter, set up as Ollama's
// server sets it up for a model whose template thinks with <think>.
type thinkingStream struct {
	emitted
	p *thinking.Parser
}

func newThinking() *thinkingStream {
	return &thinkingStream{p: &thinking.Parser{OpeningTag: "<think>", ClosingTag: "</think>"}}
}

func (s *thinkingStream) feed(ds []reasoning.Delta, keep bool) {
	for _, d := range ds {
		r, c := s.p.AddContent(d.Text)
		if keep {
			s.keep(r, c)
		}
	}
}

// finish has nothing to call: thinking.Parser has no end of stream, and
// what it holds back (a partial closing tag, whitespace) stays in it.
func (s *thinkingStream) finish(bool) {}

func thinkingExtract(output string) (string, string) {
	return newThinking().p.AddContent(output)
}

// ollamaStream is one of Ollama's model parsers (model/parsers), set up as
// Ollama's server sets it up for a request with thinking on and no tools.
type ollamaStream struct {
	emitted
	p parsers.Parser
}

func newOllama(name string) *ollamaStream {
	p := parsers.ParserForName(name)
	if p == nil {
		panic("peers: Ollama has no parser " + name)
	}
	p.Init(nil, nil, &api.ThinkValue{Value: true})
	return &ollamaStream{p: p}
}

func ollama(name string) func(*workload) stream {
	return func(*workload) stream { return newOllama(name) }
}

func (s *ollamaStream) feed(ds []reasoning.Delta, keep bool) {
	for _, d := range ds {
		s.add(d.Text, false, keep)
	}
}

// finish tells the parser the stream is done, with an empty delta that has
// done set, as Ollama's server ends one.
func (s *ollamaStream) finish(keep bool) { s.add("", true, keep) }

func (s *ollamaStream) add(text string, done, keep bool) {
	content, thinking, calls, err := s.p.Add(text, done)
	if keep {
		s.keep(thinking, content)
		if err != nil || len(calls) > 0 {
			s.odd++
		}
	}
}

// ollamaExtract splits a whole output as one delta that ends the stream:
// Ollama's parsers have no call for a finished output.
func ollamaExtract(name string) func(string) (string, string) {
	return func(output string) (string, string) {
		content, thinking, _, _ := newOllama(name).p.Add(output, true)
		return thinking, content
	}
}
