package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Cohere Command's markers (spec vllm-thinktag §28; cohere_melody's cmd3 and
// cmd4 presets).
const (
	cohereThinkOpen     = "<|START_THINKING|>"
	cohereThinkClose    = "<|END_THINKING|>"
	cohereResponseOpen  = "<|START_RESPONSE|>" // the answer begins: ends reasoning, dropped
	cohereResponseClose = "<|END_RESPONSE|>"
	cohereTextOpen      = "<|START_TEXT|>" // Command 4's spelling of the two above
	cohereTextClose     = "<|END_TEXT|>"
	cohereActionOpen    = "<|START_ACTION|>" // tool calls, a JSON list: kept in content, verbatim
	cohereActionClose   = "<|END_ACTION|>"
	cohereChatbot       = "<|CHATBOT_TOKEN|>" // starts an assistant turn: the end check looks no further back
	cohereCiteOpen      = "<co>"              // a citation's text follows
	cohereCiteClose     = "</co:"             // then its sources, " 0:[1,2],1:[3]", and ">"
)

// cohereSpaces is the whitespace Cohere's parsing trims.
const cohereSpaces = spaces

// cohereCiteSources is what follows a citation's closing marker: tool call
// and result indices, then ">".
var cohereCiteSources = tailSpec{chars: " 0123456789:[],", end: '>'}

// cohereSpec is a Cohere Command family: where it starts, and the markers
// around its answer (ends open it, drops close it).
func cohereSpec(name string, start Start, ends, drops []string) ThinkTag {
	return ThinkTag{
		Name:          name,
		Open:          []string{cohereThinkOpen},
		Close:         []string{cohereThinkClose},
		Tools:         []string{cohereActionOpen},
		Start:         start,
		Repeats:       RepeatsInterleave,
		TrimReasoning: true,
		TrimContent:   cohereSpaces,
		TrimOpen:      cohereSpaces,
		Boundaries:    []string{cohereChatbot},
		rules: []rule{
			endsAt(ends...),
			dropped(append(drops, cohereCiteOpen)...),
			toolBlocks(cohereActionClose),
			tails(cohereCiteSources, cohereCiteClose),
			endNeedsMarker(),
		},
	}
}

var cohereCommand3Family = newTagFamily(cohereSpec("cohere_command3", StartContent,
	[]string{cohereResponseOpen}, []string{cohereResponseClose}))

// newCohereCommand3 builds the "cohere_command3" parser (vLLM's
// CohereCommand3ReasoningParser, which hands the text to cohere_melody's
// cmd3 filter).
//
// Markers: <|START_THINKING|> opens reasoning and <|END_THINKING|> closes it;
// both are dropped wherever they come. <|START_RESPONSE|> ends reasoning and
// is dropped, as <|END_RESPONSE|> is. <|START_ACTION|> ends reasoning and
// starts a tool call that stays in content, verbatim, up to and including
// <|END_ACTION|>; no other marker counts inside it. Citation markup is
// removed, its text kept: "<co>" and a closer such as "</co: 0:[1,2]>" (the
// marker "</co:", then its sources: digits, ':', '[', ']', ',' and spaces, then
// '>'). None need be a single token.
// Starts in: content, as melody's cmd3 preset (grounded answer by default);
// a prompt that ends in <|START_THINKING|> (WithPrompt) starts it in
// reasoning.
// Thinking switch: none.
// Truncation: an unclosed block is reasoning; an unclosed tool call is
// content.
// Repeats: every <|START_THINKING|> in content opens another block, and one
// inside reasoning is dropped.
// Streaming: holds back fewer bytes than the longest marker, only while
// they may start one; Finish returns held text to its section. Whitespace is
// dropped after <|START_THINKING|>, at the end of a block (held until more
// reasoning comes), and between <|END_THINKING|> and the next text or marker
// (the "\n" before <|START_RESPONSE|>).
// Upstream: spec vllm-thinktag §28; tests/reasoning/
// test_cohere_command_reasoning_parser.py. The parsing itself lives in
// cohere_melody (src/parsing/options.rs, filter.rs), so this is inferred from
// the tests and the preset: the vLLM tests pin the leading-space trim of
// reasoning, the dropped "\n", citation removal, and an action block kept
// verbatim as content. Deliberate differences: melody ignores text after
// <|END_RESPONSE|> or <|END_ACTION|>; here it is content (nothing lost).
// melody right-trims content too; here only reasoning. vLLM's streaming path
// turns actions into tool-call deltas while its extract keeps them as text,
// and an action inside reasoning stays reasoning in extract; here an action
// always ends reasoning and stays in content, for the tool parser, in both
// (spec policy 2). The ID-level end check reads the last of
// <|START_THINKING|>, <|END_THINKING|>, <|START_RESPONSE|> and
// <|START_ACTION|> after the last <|CHATBOT_TOKEN|>, and answers false when
// there is none, as vLLM's newest; bug B17 ([<|CHATBOT_TOKEN|>,
// <|END_THINKING|>] read as not ended) is not reproduced (test case
// "bug:B17/...").
func newCohereCommand3(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return cohereCommand3Family.newParser(tok, cfg)
}

func init() {
	register("cohere_command3", newCohereCommand3, cohereCommand3Family.entry(), about{engine: vllm, models: []string{"command-a-reasoning"},
		summary: "`<|START_THINKING|>`…`<|END_THINKING|>`, starts in content; answer markers and citations dropped, actions kept"})
}

var cohereCommand4Family = newTagFamily(cohereSpec("cohere_command4", StartReasoning,
	[]string{cohereTextOpen, cohereResponseOpen}, []string{cohereTextClose, cohereResponseClose}))

// newCohereCommand4 builds the "cohere_command4" parser (vLLM's
// CohereCommand4ReasoningParser, cohere_melody's cmd4 preset; SGLang's
// CohereCommand4Detector).
//
// Markers: as "cohere_command3", with <|START_TEXT|> and <|END_TEXT|> around
// the answer besides <|START_RESPONSE|> and <|END_RESPONSE|> (the vLLM tests
// feed Command 4 both).
// Starts in: reasoning (Command 4's template puts <|START_THINKING|> in the
// prompt); a leading <|START_THINKING|> is dropped. A prompt that ends in
// <|END_THINKING|> starts it in content.
// Thinking switch: none.
// Truncation: an unclosed block is reasoning; an unclosed tool call is
// content.
// Repeats, whitespace, streaming: as "cohere_command3".
// Upstream: spec vllm-thinktag §28, inferred as for "cohere_command3".
// SGLang's detector keeps only the text between <|START_TEXT|> and
// <|END_TEXT|> as content and drops the rest (an action, text after
// <|END_TEXT|>); here those are content. The end check and bug B17 as for
// "cohere_command3".
func newCohereCommand4(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return cohereCommand4Family.newParser(tok, cfg)
}

func init() {
	register("cohere_command4", newCohereCommand4, cohereCommand4Family.entry(), about{engine: vllm, models: []string{"command-a-plus"},
		summary: "as `cohere_command3`, `<|START_TEXT|>` answers too; starts in reasoning"})
}
