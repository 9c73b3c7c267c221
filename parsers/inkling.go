package parsers

import (
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/marker"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Inkling's markers, each a dedicated special token (spec
// vllm-channels-and-state §14.1). A response is a sequence of typed blocks:
// <|message_model|>, an optional header (a function name), a kind marker,
// the block's text and a block end.
const (
	inklingModel       = "<|message_model|>"              // a model message begins; its header follows
	inklingText        = "<|content_text|>"               // a visible text block
	inklingThinking    = "<|content_thinking|>"           // a reasoning block
	inklingToolJSON    = "<|content_invoke_tool_json|>"   // a tool call, {"name":...,"args":{...}}
	inklingToolText    = "<|content_invoke_tool_text|>"   // rendered as visible text
	inklingToolError   = "<|content_tool_error|>"         // rendered as visible text
	inklingEnd         = "<|end_message|>"                // ends any block
	inklingEndSampling = "<|content_model_end_sampling|>" // ends any block, and the response
)

// inklingMarkers are the markers the scanner watches, by index.
var inklingMarkers = []string{
	inklingModel, inklingText, inklingThinking, inklingToolJSON,
	inklingToolText, inklingToolError, inklingEnd, inklingEndSampling,
}

// Indexes into inklingMarkers.
const (
	imModel = iota
	imText
	imThinking
	imToolJSON
	imToolText
	imToolError
	imEnd
	imEndSampling
)

// inklingMaxHeader bounds the header text held back while waiting for a
// kind marker: a function name. Longer text, or text with a newline, is
// not a header, and is content.
const inklingMaxHeader = 256

// inklingPhase is where an Inkling parser stands.
type inklingPhase uint8

const (
	inklingInHeader    inklingPhase = iota // after <|message_model|>: the kind marker has not come (a response starts here)
	inklingInReasoning                     // inside a thinking block
	inklingInContent                       // inside a visible block, or after a block ended
	inklingInTool                          // inside a tool-call block: content, verbatim, up to its block end
)

// inklingMachine splits Inkling text into reasoning and content.
type inklingMachine struct {
	sc     marker.Scanner
	phase  inklingPhase
	pos    int     // offset of the next byte the scanner returns
	header []piece // the header's text, held back
	hlen   int
	ws     []piece // trailing whitespace of reasoning, held until more reasoning comes

	ended  bool // the last block kind or header seen says reasoning has ended
	resets int  // thinking blocks and headers begun, for ExtractContentIDs
}

func (m *inklingMachine) reset() {
	*m = inklingMachine{header: m.header[:0], ws: m.ws[:0]}
	m.sc.Reset(inklingMarkers)
}

// toolBlockEnds are the markers that count inside a tool-call block.
const toolBlockEnds = 1<<imEnd | 1<<imEndSampling

// enter moves to phase p, watching the markers that count there.
func (m *inklingMachine) enter(p inklingPhase) {
	m.phase = p
	if p == inklingInTool {
		m.sc.SetActive(toolBlockEnds)
	} else {
		m.sc.SetActive(1<<len(inklingMarkers) - 1)
	}
}

func (m *inklingMachine) feed(text string, accept func(k, at int) bool, out emitter) {
	m.sc.Feed(text)
	for {
		held, before, k := m.sc.Next()
		m.text(held, out)
		m.text(before, out)
		if k < 0 {
			return
		}
		mk := inklingMarkers[k]
		at := m.pos
		m.pos += len(mk)
		if !accept(k, at) {
			m.textAt(mk, at, out)
			continue
		}
		m.marker(k, mk, at, out)
	}
}

func (m *inklingMachine) finish(out emitter) {
	m.text(m.sc.Flush(), out)
	if m.phase == inklingInHeader {
		m.degrade(out)
	}
	m.ws = m.ws[:0] // reasoning never ends in whitespace
}

func (m *inklingMachine) text(s string, out emitter) {
	if s == "" {
		return
	}
	at := m.pos
	m.pos += len(s)
	m.textAt(s, at, out)
}

// textAt sends text at offset at where the machine stands.
func (m *inklingMachine) textAt(s string, at int, out emitter) {
	switch m.phase {
	case inklingInHeader:
		m.header = append(m.header, piece{s, at})
		m.hlen += len(s)
		if m.hlen > inklingMaxHeader || strings.Contains(s, "\n") {
			m.degrade(out)
		}
	case inklingInReasoning:
		body := strings.TrimRight(s, " \t\r\n")
		if body == "" {
			m.ws = append(m.ws, piece{s, at})
			return
		}
		for _, w := range m.ws {
			out(phaseReasoning, w.s, w.at)
		}
		m.ws = m.ws[:0]
		out(phaseReasoning, body, at)
		if len(body) < len(s) {
			m.ws = append(m.ws, piece{s[len(body):], at + len(body)})
		}
	default:
		out(phaseContent, s, at)
	}
}

// degrade ends a header that met no kind marker: its text is content.
func (m *inklingMachine) degrade(out emitter) {
	for _, p := range m.header {
		out(phaseContent, p.s, p.at)
	}
	m.header, m.hlen = m.header[:0], 0
	m.enter(inklingInContent)
}

// marker applies marker k.
func (m *inklingMachine) marker(k int, mk string, at int, out emitter) {
	if m.phase == inklingInTool { // only a block end counts here
		out(phaseContent, mk, at)
		m.enter(inklingInContent)
		m.ended = m.ended || k == imEndSampling
		return
	}
	switch k {
	case imModel:
		if m.phase == inklingInHeader {
			m.degrade(out) // the last header never met its kind
		}
		m.enter(inklingInHeader)
		m.ended = false
		m.resets++
	case imThinking:
		m.header, m.hlen = m.header[:0], 0
		if m.phase != inklingInReasoning {
			m.resets++
		}
		m.enter(inklingInReasoning)
		m.ended = false
	case imText, imToolText, imToolError:
		m.header, m.hlen = m.header[:0], 0
		m.enter(inklingInContent)
		m.ended = true
	case imToolJSON:
		m.header, m.hlen = m.header[:0], 0
		out(phaseContent, mk, at) // the tool parser reads the block whole
		m.enter(inklingInTool)
		m.ended = true
	default: // a block end
		if m.phase == inklingInHeader {
			m.degrade(out)
		}
		m.enter(inklingInContent)
		m.ended = m.ended || k == imEndSampling
	}
}

// start sets where a response begins (spec policy 4): forced into
// reasoning, or by the prompt's last Inkling marker: <|content_thinking|>
// starts it in reasoning, <|content_text|> in content, <|message_model|>
// (the generation prompt) or any other in a header.
func (m *inklingMachine) start(cfg reasoning.Config, tok tokenizer.Tokenizer) {
	if f := cfg.ForceReasoning; f != nil && *f {
		m.enter(inklingInReasoning)
		return
	}
	prompt := cfg.PromptText
	if tok != nil && len(cfg.PromptIDs) > 0 {
		prompt = tok.Decode(cfg.PromptIDs[max(0, len(cfg.PromptIDs)-64):])
	}
	last, pos := -1, -1
	for k, mk := range inklingMarkers {
		if i := strings.LastIndex(prompt, mk); i > pos {
			last, pos = k, i
		}
	}
	switch last {
	case imThinking:
		m.enter(inklingInReasoning)
	case imText:
		m.enter(inklingInContent)
		m.ended = true
	}
}

// inkling is one response's Inkling parser.
type inkling struct {
	m       inklingMachine
	initial inklingMachine // the machine before any output

	tok tokenizer.Tokenizer
	stream
	ended walkMemo[inklingMachine, *inklingMachine] // what IsReasoningEndStreaming saw last
}

// newInkling builds the "inkling" parser (vLLM's InklingParser engine
// adapter).
//
// Markers: <|message_model|> begins a model message; a kind marker follows,
// maybe after a header (a function name), which is dropped:
// <|content_thinking|> opens a reasoning block; <|content_text|>,
// <|content_invoke_tool_text|> and <|content_tool_error|> open visible
// text, content; <|content_invoke_tool_json|> opens a tool call, which stays
// in content, verbatim with its markers, up to and including its block end,
// and inside which no other marker counts. <|end_message|> and
// <|content_model_end_sampling|> end a block. Markers are matched in text;
// with IDs, only their special tokens count.
// Starts in: a header, as after the generation prompt's <|message_model|>.
// A prompt (WithPrompt) whose last Inkling marker is <|content_thinking|>
// starts the response in reasoning, <|content_text|> in content;
// WithForceReasoning(true) starts it in reasoning.
// Thinking switch: none.
// Truncation: an unclosed thinking block is reasoning; header text that
// meets no kind marker (the block ends, another message begins, the output
// ends, or it cannot be a header: a newline or more than 256 bytes) is
// content.
// Repeats: blocks follow one another without a separator; a
// <|content_thinking|> inside reasoning is dropped.
// Streaming: holds back a header until its kind marker (bounded as above),
// fewer bytes than the longest marker while they may start one, and
// trailing whitespace of reasoning until more reasoning comes: reasoning
// never ends in whitespace.
// Upstream: spec vllm-channels-and-state §14; tests/parser/engine/
// test_inkling.py. vLLM holds header text until a kind marker or the end
// of the stream, however long; we stop at the bound (spec policy 2). vLLM
// matches markers by text even when IDs say otherwise; we let IDs win
// (policy 5). vLLM drops whitespace-only content before a tool call; we
// keep it. The end check is vLLM's (the last of <|content_thinking|> and
// <|message_model|>, not ended, or of a visible kind and
// <|content_model_end_sampling|>, ended, decides), except that a tool call
// ends reasoning too, as the visible kinds do. Dynamo's and SGLang's
// inkling pass tool blocks through verbatim, as here.
func newInkling(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	p := &inkling{tok: tok}
	if _, err := p.resolve(tok, inklingMarkers); err != nil {
		return nil, err
	}
	p.initial.reset()
	p.initial.start(cfg, tok)
	p.m = p.fresh()
	return p, nil
}

// fresh returns a machine in the state a response starts in.
func (p *inkling) fresh() inklingMachine {
	m := p.initial
	m.header, m.ws = nil, nil
	return m
}

func (p *inkling) Extract(output string) reasoning.Message {
	m := p.fresh()
	return collectText(&m, output)
}

func (p *inkling) ExtractStreaming(d reasoning.Delta) reasoning.Message {
	if !p.take(d) {
		return reasoning.Message{}
	}
	r, c := p.scratch()
	p.m.feed(d.Text, p.backed, func(ph phase, s string, _ int) { r.addTo(c, ph, s) })
	return p.joined(r, c)
}

func (p *inkling) Finish() reasoning.Message {
	if !p.finish() {
		return reasoning.Message{}
	}
	var r, c pieces
	p.m.finish(func(ph phase, s string, _ int) { r.addTo(&c, ph, s) })
	return message(&r, &c)
}

// IsReasoningEnd reports whether the last block kind or header in ids says
// reasoning has ended: <|content_thinking|> and <|message_model|> say not;
// a visible or tool-call kind and <|content_model_end_sampling|> say it
// has; <|end_message|> says nothing. With none in ids, the answer is where
// the response starts. Without a tokenizer no marker can be seen.
func (p *inkling) IsReasoningEnd(ids []int) bool {
	if p.tok == nil {
		return p.initial.ended
	}
	w := walkMemo[inklingMachine, *inklingMachine]{m: p.fresh(), valid: true}
	w.feed(p.tok, ids, inklingMarkers, p.single)
	return w.m.ended
}

// IsReasoningEndStreaming answers as IsReasoningEnd(ids) does, where delta
// is the newest part of ids. Called for the consecutive deltas of one
// sequence, it reads only the newest delta: it goes on from the machine it
// left.
func (p *inkling) IsReasoningEndStreaming(ids, delta []int) bool {
	if p.tok == nil {
		return p.initial.ended
	}
	from := max(0, len(ids)-len(delta))
	if !p.ended.valid || p.ended.n != from {
		p.ended = walkMemo[inklingMachine, *inklingMachine]{m: p.fresh(), valid: true}
		p.ended.feed(p.tok, ids[:from], inklingMarkers, p.single)
	}
	p.ended.feed(p.tok, ids[from:], inklingMarkers, p.single)
	return p.ended.m.ended
}

// ExtractContentIDs returns the content tokens after the last thinking
// block or header began: nil while reasoning has not ended.
func (p *inkling) ExtractContentIDs(ids []int) []int {
	if !p.IsReasoningEnd(ids) {
		return nil
	}
	if p.tok == nil {
		return ids
	}
	m := p.fresh()
	content, resets := []int{}, m.resets
	creditTokens(p.tok, ids, inklingMarkers, p.single, &m, func(id int, ph phase) {
		if m.resets != resets {
			content, resets = content[:0], m.resets
		}
		if ph == phaseContent {
			content = append(content, id)
		}
	})
	return content
}

// CountReasoningTokens counts the tokens of thinking blocks in ids, the
// output's IDs.
func (p *inkling) CountReasoningTokens(ids []int) int {
	if p.tok == nil {
		return 0
	}
	m := p.fresh()
	return countReasoning(p.tok, ids, inklingMarkers, p.single, &m)
}
