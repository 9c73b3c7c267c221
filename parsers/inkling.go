package parsers

import (
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
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

// A header (a function name) is held back while waiting for a kind marker,
// up to maxHeader bytes: longer text, or text with a newline, is not a
// header, and is content.

// inklingPhase is where an Inkling parser stands.
type inklingPhase uint8

const (
	inklingInHeader    inklingPhase = iota // after <|message_model|>: the kind marker has not come (a response starts here)
	inklingInReasoning                     // inside a thinking block: <|content_thinking|> consumed
	inklingInContent                       // inside a visible block, or after a block ended
	inklingInTool                          // inside a tool-call block, its opener sent to content: content, verbatim, up to its block end
)

// toolBlockEnds are the markers that count inside a tool-call block.
const toolBlockEnds = 1<<imEnd | 1<<imEndSampling

// inklingSpec is what the shell needs of Inkling.
var inklingSpec = machineSpec{markers: inklingMarkers}

// inklingGrammar is Inkling's grammar: typed blocks.
type inklingGrammar struct {
	phase  inklingPhase
	header heldText      // inklingInHeader: the header's text, held back
	ws     trailingSpace // inklingInReasoning: trailing whitespace, held back
	over   bool          // the last block kind or header seen says reasoning has ended
	resets int           // thinking blocks and headers begun: the epochs of ExtractContentIDs
}

func (g *inklingGrammar) clone() grammar {
	c := new(inklingGrammar)
	g.cloneInto(c)
	return c
}

// cloneInto leaves out the header and whitespace g holds, as clone does.
func (g *inklingGrammar) cloneInto(dst grammar) {
	c := dst.(*inklingGrammar)
	header, ws := c.header.ps, c.ws.ws
	*c = *g
	c.header, c.ws = heldText{ps: emptied(header)}, trailingSpace{ws: emptied(ws)}
}

func (g *inklingGrammar) active() stance {
	// Text goes direct to its section but in a header, which text may
	// degrade, and while reasoning's trailing whitespace is held, which the
	// next text releases: those move the stance. A header's text the
	// grammar holds back as it comes (directHeld, takeHeld), so that a
	// stream's header deltas, and those of the kind marker after it, do
	// not take the driver's feed.
	switch g.phase {
	case inklingInHeader:
		return stance{mask: 1<<len(inklingMarkers) - 1, moves: true, direct: directHeld}
	case inklingInTool:
		return stance{mask: toolBlockEnds, direct: int8(phaseContent)}
	case inklingInContent:
		return stance{mask: 1<<len(inklingMarkers) - 1, direct: int8(phaseContent)}
	case inklingInReasoning:
		if len(g.ws.ws) == 0 {
			return stance{mask: 1<<len(inklingMarkers) - 1, direct: int8(phaseReasoning), hold: spaceSet}
		}
	}
	return stance{mask: 1<<len(inklingMarkers) - 1, moves: true, direct: -1}
}

func (g *inklingGrammar) ended() bool { return g.over }
func (g *inklingGrammar) epoch() int  { return g.resets }

// text sends text where the grammar stands.
func (g *inklingGrammar) text(s string, at int, out emitter) {
	switch g.phase {
	case inklingInHeader:
		g.header.add(s, at)
		if g.header.full() || strings.Contains(s, "\n") {
			g.degrade(out)
		}
	case inklingInReasoning:
		g.ws.reasoning(s, at, out)
	default:
		out(phaseContent, s, at)
	}
}

// takeHeld adds s, text at offset at, to the header held, unless it ends
// the header (see text: it fills it, or has a newline) or the grammar
// holds none.
func (g *inklingGrammar) takeHeld(s string, at int) bool {
	if g.phase != inklingInHeader || g.header.n+len(s) > maxHeader || strings.IndexByte(s, '\n') >= 0 {
		return false
	}
	if s != "" {
		g.header.add(s, at)
	}
	return true
}

// degrade ends a header that met no kind marker: its text is content.
func (g *inklingGrammar) degrade(out emitter) {
	g.header.release(phaseContent, out)
	g.phase = inklingInContent
}

// marker applies marker k.
func (g *inklingGrammar) marker(k, at int, out emitter) {
	if g.phase == inklingInTool { // only a block end counts here
		out(phaseContent, inklingMarkers[k], at)
		g.phase = inklingInContent
		g.over = g.over || k == imEndSampling
		return
	}
	switch k {
	case imModel:
		if g.phase == inklingInHeader {
			g.degrade(out) // the last header never met its kind
		}
		g.phase, g.over = inklingInHeader, false
		g.resets++
	case imThinking:
		g.header.reset()
		if g.phase != inklingInReasoning {
			g.resets++
		}
		g.phase, g.over = inklingInReasoning, false
	case imText, imToolText, imToolError:
		g.header.reset()
		g.phase, g.over = inklingInContent, true
	case imToolJSON:
		g.header.reset()
		out(phaseContent, inklingMarkers[k], at) // the tool parser reads the block whole
		g.phase, g.over = inklingInTool, true
	default: // a block end
		if g.phase == inklingInHeader {
			g.degrade(out)
		}
		g.phase = inklingInContent
		g.over = g.over || k == imEndSampling
	}
}

func (g *inklingGrammar) end(out emitter) {
	if g.phase == inklingInHeader {
		g.degrade(out)
	}
	g.ws.drop() // reasoning never ends in whitespace
}

// inklingStart returns where a response begins (spec policy 4): forced
// into reasoning, or by the prompt's last Inkling marker:
// <|content_thinking|> starts it in reasoning, <|content_text|> in content,
// <|message_model|> (the generation prompt) or any other in a header.
func inklingStart(cfg reasoning.Config, tok tokenizer.Tokenizer) *inklingGrammar {
	g := &inklingGrammar{}
	if forced(cfg) {
		g.phase = inklingInReasoning
		return g
	}
	switch _, k, _ := promptFrom(cfg, tok, inklingMarkers, nil, 1<<len(inklingMarkers)-1, nil); k {
	case imThinking:
		g.phase = inklingInReasoning
	case imText:
		g.phase, g.over = inklingInContent, true
	}
	return g
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
	return newShell(&inklingSpec, tok, cfg, inklingStart(cfg, tok))
}

func init() {
	register("inkling", newInkling, catalog.Entry{Markers: inklingMarkers, Headers: true, StripsSpace: true}, about{engine: vllm, models: []string{"inkling"},
		summary: "typed content blocks: `<|content_thinking|>` is reasoning; text, tool-text and tool-error blocks content, tool JSON kept in content"})
}
