package parsers

import (
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// MiniMax's markers besides <think> and </think>.
const (
	minimaxToolCall = "<minimax:tool_call>" // ends reasoning implicitly; kept in content
	minimaxM3Open   = "<mm:think>"
	minimaxM3Close  = "</mm:think>"
)

var minimaxM2Family = newTagFamily(ThinkTag{
	Name:          "minimax_m2",
	Open:          []string{thinkOpen},
	Close:         []string{thinkClose},
	Tools:         []string{minimaxToolCall},
	Repeats:       RepeatsDropStray,
	TrimReasoning: true,
})

// newMiniMaxM2 builds the "minimax_m2" parser (vLLM MiniMaxM2ReasoningParser,
// the engine form of the newest registry).
//
// Markers: <think> and </think>; <minimax:tool_call> ends reasoning and stays
// in content.
// Starts in: reasoning (the template puts <think> in the prompt).
// Thinking switch: none.
// Truncation: an output without </think> is all reasoning.
// Repeats: every <think> in reasoning and every later </think> in content is
// dropped ("a</think>b</think>c" gives content "bc").
// Streaming: the trailing whitespace of reasoning is held until more
// reasoning comes and dropped when the block ends.
// End check: as vLLM's, the last marker decides, so a stray <think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: spec vllm-thinktag §25. The legacy class keeps the trailing
// whitespace and has no tool-call end; the engine's absorbing of a stray
// </minimax:tool_call> in content is tool parsing, left to the tool parser
// (the text stays). SGLang's "minimax" (an alias here) is its Qwen3 detector
// forced into reasoning.
// Other engines: SMG's "minimax" (our alias of minimax_m2, from SGLang)
// appends <think> instead, which is our minimax_m2_append_think; Dynamo's
// minimax_m2 is forced with <minimax:tool_call> and <invoke name= as implicit
// ends (spec field-names §15 #14, §16).
func newMiniMaxM2(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return minimaxM2Family.newParser(tok, cfg)
}

func init() {
	register("minimax_m2", newMiniMaxM2, minimaxM2Family.entry(), about{engine: vllm, models: []string{"minimax-m2"},
		summary: "`<think>`…`</think>`, `<minimax:tool_call>` ends reasoning, starts in reasoning",
		aliases: []string{"minimax"}})
}

var minimaxM3Family = newTagFamily(ThinkTag{
	Name:  "minimax_m3",
	Open:  []string{minimaxM3Open},
	Close: []string{minimaxM3Close},
	Thinking: Switch{Keys: []string{"thinking_mode"}, decide: func(c reasoning.Config) bool {
		v, _ := c.Kwarg("thinking_mode")
		s, _ := v.(string)
		return strings.EqualFold(strings.TrimSpace(s), "enabled")
	}, Off: OffContent},
	rules: []rule{
		dropLeadingClose(),
	},
})

// newMiniMaxM3 builds the "minimax_m3" parser (vLLM MiniMaxM3ReasoningParser).
//
// Markers: <mm:think> and </mm:think>.
// Starts in: reasoning when chat_template_kwargs["thinking_mode"] is
// "enabled" (the template opened the block); otherwise content, where a
// <mm:think> opens the one block. A </mm:think> before any other text is
// dropped there, and then the response is content to the end: later
// markers are text.
// Thinking switch: thinking_mode == "enabled"; anything else, or none, is
// off.
// Truncation: an unclosed block is reasoning.
// Repeats: after the block everything is content; later markers stay text.
// Streaming: holds back fewer bytes than the longer marker, only while they
// may start one; Finish returns them.
// End check: as vLLM's, the last marker decides, so a stray <mm:think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: vllm/reasoning/minimax_m3_reasoning_parser.py@0b19ebca (spec
// vllm-main §1.10) and spec vllm-thinktag §27. With thinking not enabled,
// text before a <mm:think> is content and the block reasoning, as vLLM's
// extract; its stream ends reasoning at the first plain delta and passes
// the block raw (vLLM streams later markers verbatim when only a reasoning
// parser is configured, spec vllm-main §0.1). With thinking_mode "enabled"
// and a <mm:think> in the output, vLLM makes the text before it content; a
// streaming client has emitted it as reasoning by then, so both of ours keep
// it in reasoning (spec policy 2). vLLM's streaming end check says "ended" at
// once for plain content while its non-streaming one says not (B16); ours
// answers from where the response starts in both.
// Other engines: TensorRT-LLM's minimax_m3 splits at the closer with an
// optional leading opener (spec field-names §16).
func newMiniMaxM3(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return minimaxM3Family.newParser(tok, cfg)
}

func init() {
	register("minimax_m3", newMiniMaxM3, minimaxM3Family.entry(), about{engine: vllm, models: []string{"minimax-m3"},
		summary: "`<mm:think>`…`</mm:think>`; `thinking_mode` \"enabled\" starts in reasoning (default off: starts in content)"})
}

var minimaxAppendThinkFamily = newTagFamily(ThinkTag{
	Name:    "minimax_append_think",
	Open:    []string{thinkOpen},
	Close:   []string{thinkClose},
	Start:   StartOpened,
	Repeats: RepeatsReopen,
})

// newMiniMaxAppendThink builds the "minimax_append_think" parser (Dynamo
// MiniMaxAppendThinkParser: it puts <think> before the output and parses the
// result as "basic").
//
// Markers: <think> and </think>.
// Starts in: reasoning, its opener had: a <think> at the start is reasoning
// text.
// Thinking switch: none.
// Truncation: an unclosed block is reasoning.
// Repeats: as "basic": every <think> in content opens another block, a
// stray </think> in content is dropped.
// Streaming: holds back fewer bytes than the longer marker, only while they
// may start one; Finish returns them. (Dynamo lets a lone "<" through after
// reasoning; we hold it until it cannot start a marker. The text is the
// same.)
// Upstream: spec peers §2.3, Dynamo minimax_append_think_parser.rs. Dynamo's
// one-shot path trims whitespace; its streaming path does not, nor do we
// (spec policy 2). SGLang's "minimax-append-think" is spelled the same once
// names are normalised, so it reaches this parser; SGLang's behaviour is
// vLLM's "minimax_m2_append_think".
// Other engines: SGLang's "minimax-append-think" is <think> plus the output,
// all content (our minimax_m2_append_think); this spelling serves Dynamo's
// meaning (spec field-names §16).
func newMiniMaxAppendThink(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return minimaxAppendThinkFamily.newParser(tok, cfg)
}

func init() {
	register("minimax_append_think", newMiniMaxAppendThink, minimaxAppendThinkFamily.entry(), about{engine: dynamo,
		summary: "`<think>` put back in front, then as `basic`"})
}

// appendThinkIDs gives minimax_m2_append_think its end check: the last
// <think> or </think> decides, none means not ended.
var appendThinkIDs = newTagFamily(ThinkTag{
	Name:  "minimax_m2_append_think",
	Open:  []string{thinkOpen},
	Close: []string{thinkClose},
})

// newMiniMaxM2AppendThink builds the "minimax_m2_append_think" parser (vLLM
// MiniMaxM2AppendThinkReasoningParser): no split at all; the content is the
// output with "<think>" put back in front, for clients that parse the tags
// themselves.
//
// Markers: none in the text; <think> is added before the output.
// Starts in: content, always.
// Thinking switch: none.
// Truncation: nothing to truncate.
// Repeats: markers in the output are content like any text.
// Streaming: the first delta carries "<think>" before its text; a stream
// with no delta gets it from Finish.
// Upstream: spec vllm-thinktag §26. vLLM's streaming path emits nothing for a
// stream without deltas while its extract of "" returns "<think>"; ours
// returns "<think>" in both (spec policy 2), as at
// vllm/reasoning/minimax_m2_reasoning_parser.py@0b19ebca (spec vllm-main
// §1.12). When the prompt's last <think> or </think> is </think>, vLLM's
// server streams the output raw from the first delta, without the prefix;
// its extract and ours add it whatever the prompt. IsReasoningEnd: the last
// <think> or </think> decides; ExtractContentIDs returns its input;
// CountReasoningTokens is 0. "glm45_append_think" (an alias here) is a vLLM
// pull request's Glm4AppendThinkReasoningParser
// (vllm/reasoning/glm4_moe_reasoning_parser.py @7352cfc3, for
// zai-org/GLM-4.5), the same split. It fails without </think> in the
// vocabulary, where New here does not, and its end check is true once the
// </think> ID occurs, where here the last <think> or </think> decides (a
// <think> after it reads as not ended); its content IDs are all the IDs, as
// here.
// Other engines: TensorRT-LLM's minimax_m2_append_think is a forced R1 split,
// not append-think (spec field-names §16).
func newMiniMaxM2AppendThink(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	ids, err := appendThinkIDs.newParser(tok, reasoning.Config{})
	if err != nil {
		return nil, err
	}
	return &appendThink{ids: ids}, nil
}

func init() {
	register("minimax_m2_append_think", newMiniMaxM2AppendThink, catalog.Entry{Markers: appendThinkIDs.markers, Prefix: thinkOpen}, about{engine: vllm,
		summary: "no split: content is `<think>` + the output",
		aliases: []string{"glm45_append_think"}})
}

// appendThink passes the output through as content, after "<think>".
type appendThink struct {
	ids      reasoning.Parser // for the end check only
	started  bool             // "<think>" has been emitted
	finished bool
}

func (*appendThink) Extract(output string) reasoning.Message {
	return reasoning.Message{Content: thinkOpen + output}
}

func (p *appendThink) ExtractStreaming(d reasoning.Delta) reasoning.Message {
	if p.finished {
		return reasoning.Message{}
	}
	if !p.started {
		p.started = true
		return reasoning.Message{Content: thinkOpen + d.Text}
	}
	return reasoning.Message{Content: d.Text}
}

func (p *appendThink) Finish() reasoning.Message {
	if p.finished {
		return reasoning.Message{}
	}
	p.finished = true
	if !p.started {
		p.started = true
		return reasoning.Message{Content: thinkOpen}
	}
	return reasoning.Message{}
}

func (p *appendThink) IsReasoningEnd(ids []int) bool { return p.ids.IsReasoningEnd(ids) }
func (p *appendThink) IsReasoningEndStreaming(ids, delta []int) bool {
	return p.ids.IsReasoningEndStreaming(ids, delta)
}
func (*appendThink) ExtractContentIDs(ids []int) []int { return ids }
func (*appendThink) CountReasoningTokens([]int) int    { return 0 }
