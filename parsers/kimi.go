package parsers

import (
	"fmt"
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/internal/catalog"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// The Kimi family's markers, each named once.
const (
	// Kimi K2 and K2.5: a tool-call section ends reasoning implicitly and
	// stays in content for the tool parser.
	kimiToolSection = "<|tool_calls_section_begin|>"

	// Kimi's thinking models that write ◁think▷: U+25C1 and U+25B7, three
	// bytes each in UTF-8, so a byte-level delta can end inside one.
	kimiOpen  = "◁think▷"
	kimiClose = "◁/think▷"

	// Kimi K3's XTML channels: each marker is several tokens (<|open|>,
	// "think", <|sep|>). The response and message wrappers are chat
	// markup, dropped from content.
	kimiK3ThinkOpen     = "<|open|>think<|sep|>"
	kimiK3ThinkClose    = "<|close|>think<|sep|>"
	kimiK3ResponseOpen  = "<|open|>response<|sep|>"
	kimiK3ResponseClose = "<|close|>response<|sep|>"
	kimiK3MessageClose  = "<|close|>message<|sep|>"

	// K2 Horizon: the markers depend on reasoning_effort; the tool-call
	// block ends reasoning implicitly and stays in content.
	horizonToolCalls = "<ifm|tool_calls>"
)

var kimiK2Family = newTagFamily(ThinkTag{
	Name:          "kimi_k2",
	Open:          []string{thinkOpen},
	Close:         []string{thinkClose},
	Tools:         []string{kimiToolSection},
	Repeats:       RepeatsDropStray,
	Thinking:      Switch{Keys: []string{"thinking", "enable_thinking"}, Default: true},
	TrimReasoning: true,
})

// newKimiK2 builds the "kimi_k2" parser (vLLM's Kimi K2 engine parser, the
// newest registry; K2 Thinking and K2.5).
//
// Markers: <think> and </think>. <|tool_calls_section_begin|> also ends
// reasoning; it and everything after it are content, verbatim, so that a
// tool parser sees the whole section. None need be a single token: in the
// K2 Instruct vocabulary <think> is several tokens, in K2.5's one.
// Starts in: reasoning. Text before a <think> is reasoning and the tag is
// dropped. A prompt that already closed the block (WithPrompt) starts the
// response in content.
// Thinking switch: chat_template_kwargs "thinking" or "enable_thinking"
// (either true turns it on), on when neither is set; off: the whole output
// is content, untouched, and the end check is always true.
// Truncation: an output that never closes reasoning is all reasoning.
// Repeats: every <think> inside reasoning is dropped; a later </think> in
// content is dropped; a <think> in content stays as text.
// Streaming: the trailing whitespace of reasoning is held until more
// reasoning comes and dropped when the block ends; other bytes are held only
// while they may start a marker. When deltas carry IDs, a single-token
// marker whose ID has arrived before its text (a detokenizer holding text
// back) is recognised when its text comes; the text before it stays
// reasoning and nothing is lost or misrouted.
// End check: as vLLM's, the last marker decides, so a stray <think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: spec vllm-channels-and-state §8.6 (engine), tests
// tests/reasoning/test_kimi_k2_reasoning_parser.py and
// tests/parser/engine/test_kimi_k2.py. The legacy parser dropped <think>
// only at the very start, read only "thinking", kept trailing whitespace and
// required <think> to be one token; the engine wins (spec README). vLLM
// returns no delta for a step whose marker ID came before its text and so
// loses that step's text; we emit it (spec policy 3). The engine drops
// whitespace-only content before a tool section; here it stays, for the
// tool parser. SGLang's KimiK2Detector starts in content unless forced;
// vLLM's wins (spec policy 1).
func newKimiK2(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return kimiK2Family.newParser(tok, cfg)
}

func init() {
	register("kimi_k2", newKimiK2, kimiK2Family.entry(), about{engine: vllm, models: []string{"kimi-k2"},
		summary: "`<think>`…`</think>`, `<|tool_calls_section_begin|>` ends reasoning and stays in content; `thinking`/`enable_thinking` (on)"})
}

var kimiK25Family = newTagFamily(ThinkTag{
	Name:    "kimi_k25",
	Open:    []string{thinkOpen},
	Close:   []string{thinkClose},
	Tools:   []string{kimiToolSection},
	Repeats: RepeatsReopen,
})

// newKimiK25 builds the "kimi_k25" parser (Dynamo's KimiK25: its basic
// parser with force_reasoning on and the K2 tool section as a tool-start
// token).
//
// Markers: <think> and </think>; <|tool_calls_section_begin|> ends reasoning
// and stays in content with everything after it.
// Starts in: reasoning (force_reasoning); the block's first <think> is
// dropped. WithForceReasoning(false) or a prompt that closed the block starts
// the response in content.
// Thinking switch: none.
// Truncation: an unclosed block is reasoning.
// Repeats: as "basic": every <think> in content opens another block, a
// <think> inside a block is text, a stray </think> in content is dropped.
// Streaming: holds back fewer bytes than the longest marker, only while they
// may start one; Finish returns them to the section they belong to.
// Upstream: spec peers §2.3, Dynamo lib/parsers/src/reasoning/mod.rs and
// base_parser.rs. Dynamo's one-shot path trims whitespace off both outputs
// ("<think>\n</think>" gives reasoning ""), its streaming path does not; we
// follow streaming in both (spec policy 2). Dynamo's streaming path strips
// the first block's <think> only when it begins a chunk, so its result
// depends on the chunking; here that <think> is dropped wherever it comes.
// Other engines: TensorRT-LLM's kimi_k25 is forced unless thinking is false
// and ends reasoning at the tool section; SMG's is not forced. A vLLM pull
// request (test_kimi_k25_reasoning_parser.py @05be40af) also ends reasoning
// at <|tool_call_begin|>; vLLM main has no kimi_k25, so Dynamo's meaning
// stands (spec field-names §15 #1, §16).
func newKimiK25(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return kimiK25Family.newParser(tok, cfg)
}

func init() {
	register("kimi_k25", newKimiK25, kimiK25Family.entry(), about{engine: dynamo,
		summary: "`<think>`…`</think>` forced into reasoning, `<|tool_calls_section_begin|>` ends reasoning, every `<think>` in content opens a block"})
}

var kimiFamily = newTagFamily(ThinkTag{
	Name:    "kimi",
	Open:    []string{kimiOpen},
	Close:   []string{kimiClose},
	Start:   StartContent,
	Repeats: RepeatsReopen,
})

// newKimi builds the "kimi" parser (Dynamo's and SGLang's Kimi: the
// think-tag base with force_reasoning off and the markers of Kimi's
// thinking models that write ◁think▷, such as Kimi-VL Thinking).
//
// Markers: ◁think▷ and ◁/think▷ (U+25C1 ... U+25B7). They need not be
// single tokens; in the Kimi K2 vocabulary ◁ alone is two byte-level
// tokens.
// Starts in: content; ◁think▷ opens a block. WithForceReasoning or a prompt
// that ends in ◁think▷ starts the response in reasoning.
// Thinking switch: none.
// Truncation: an unclosed block is reasoning.
// Repeats: as "basic": every ◁think▷ in content opens another block, a
// ◁think▷ inside a block is text, a stray ◁/think▷ in content is dropped.
// Streaming: holds back fewer bytes than the longer marker, only while they
// may start one, so a delta that ends inside the three-byte ◁ (a byte-level
// detokenizer, a per-byte split) is held, not emitted as a broken rune;
// Finish returns held bytes to their section.
// Upstream: spec peers §2.3, Dynamo lib/parsers/src/reasoning/mod.rs and
// base_parser.rs (its overlap helper skips non-boundary offsets of ◁);
// SGLang reasoning_parser.py KimiDetector. Dynamo's one-shot path returns
// "text◁/think▷answer" untouched while its streaming path drops the stray
// closer; we drop it in both (spec policy 2). SGLang ignores
// force_reasoning for this detector and keeps everything after the first
// block as text; we follow Dynamo, whose rules match "basic".
func newKimi(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return kimiFamily.newParser(tok, cfg)
}

func init() {
	register("kimi", newKimi, kimiFamily.entry(), about{engine: dynamo, models: []string{"kimi-vl*thinking"},
		summary: "Dynamo's and SGLang's `◁think▷`…`◁/think▷`, starts in content, every `◁think▷` opens a block"})
}

// kimiK3Thinking is K3's switch: "thinking" when set, else "enable_thinking",
// on when neither is set. Unlike an alias pair, an explicit "thinking" wins
// over "enable_thinking".
func kimiK3Thinking(c reasoning.Config) bool {
	if on, set := c.Thinking("thinking"); set {
		return on
	}
	return Switch{Keys: []string{"enable_thinking"}, Default: true}.on(c)
}

var kimiK3Family = newTagFamily(ThinkTag{
	Name:     "kimi_k3",
	Open:     []string{kimiK3ThinkOpen},
	Close:    []string{kimiK3ThinkClose},
	Thinking: Switch{Keys: []string{"thinking", "enable_thinking"}, decide: kimiK3Thinking, Off: OffClosed},
	rules: []rule{
		dropped(kimiK3ResponseOpen, kimiK3ResponseClose, kimiK3MessageClose),
		droppedInContentOnly(),
	},
})

// newKimiK3 builds the "kimi_k3" parser (vLLM's KimiK3ReasoningParser as
// its composite KimiK3Parser serves it without a tool parser). "kimi-k3",
// Dynamo's spelling, finds it too.
//
// Markers: <|open|>think<|sep|> and <|close|>think<|sep|>, each several
// tokens (<|open|>, "think", <|sep|>), found in the text across any delta
// boundaries and by the tokens' decoded text in the ID methods. In content,
// the response wrapper <|open|>response<|sep|> ... <|close|>response<|sep|>
// and <|close|>message<|sep|> are dropped; inside reasoning they are text.
// Other channels (<|open|>tools<|sep|> ...) stay in content for the tool
// parser.
// Starts in: reasoning (the generation prompt usually holds the opener).
// The first opener is dropped wherever it comes; text before it is
// reasoning.
// Thinking switch: chat_template_kwargs["thinking"] when set, else
// "enable_thinking"; default on. Off: everything is content, the wrappers
// are still dropped, and think markers are text.
// Truncation: an output that never closes reasoning is all reasoning,
// including one with no marker at all.
// Repeats: after the first closer everything is content; later think
// markers are text.
// Streaming: holds back fewer bytes than the longest marker, only while
// they may start one; Finish returns them to the section they belong to.
// End check: as vLLM's, the last marker decides, so a stray
// <|open|>think<|sep|> in content after the end, which the split keeps as
// text, makes IsReasoningEnd false again.
// Upstream: spec vllm-channels-and-state §9. vLLM's newest extract makes an
// output without any think marker content while its streaming path makes it
// reasoning (§15.5 #8); both of ours make it reasoning, as its older test
// did (spec policy 2). vLLM's legacy streaming drops a partial marker held at
// the end of the stream; Finish returns it (spec policy 3). vLLM's extract
// keeps only the text inside the response wrapper and drops what follows
// it; its streaming composite keeps the rest, as we do. vLLM also accepts
// whitespace inside a marker ("<|open|> think <|sep|>") as a defence when
// spaces_between_special_tokens is on; we match the exact markers, which
// vLLM's adjust_request guarantees. With thinking off vLLM's end check is
// always true; ours still reads the markers, so a think opener the model
// writes anyway reads as not ended. Dynamo's kimi_k3 keeps the wrappers and
// ends reasoning at any channel marker; vLLM's wins (spec policy 1).
// Other engines: Dynamo's kimi_k3 also ends reasoning at <|open|>, <|close|>
// and <|end_of_msg|> and recovers a dangling end (spec field-names §15 #14).
func newKimiK3(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return kimiK3Family.newParser(tok, cfg)
}

func init() {
	register("kimi_k3", newKimiK3, kimiK3Family.entry(), about{engine: vllm, models: []string{"kimi-k3"},
		summary: "`<|open|>think<|sep|>`…`<|close|>think<|sep|>` (several tokens), response wrappers dropped; `thinking`, else `enable_thinking` (on)"})
}

// horizonFamilies are K2 Horizon's marker pairs by reasoning_effort, made
// once; the factory picks one per request.
var horizonFamilies = map[string]*tagFamily{
	"high":   newHorizonFamily("<ifm|think>", "</ifm|think>"),
	"medium": newHorizonFamily("<ifm|think_fast>", "</ifm|think_fast>"),
	"low":    newHorizonFamily("<ifm|think_faster>", "</ifm|think_faster>"),
}

func newHorizonFamily(open, close string) *tagFamily {
	return newTagFamily(ThinkTag{
		Name:  "k2_horizon",
		Open:  []string{open},
		Close: []string{close},
		Tools: []string{horizonToolCalls},
	})
}

// newK2Horizon builds the "k2_horizon" parser (vLLM
// K2HorizonReasoningParser).
//
// Markers: chosen by chat_template_kwargs["reasoning_effort"]: "high" (the
// default) <ifm|think> and </ifm|think>, "medium" <ifm|think_fast> and
// </ifm|think_fast>, "low" <ifm|think_faster> and </ifm|think_faster>.
// <ifm|tool_calls> also ends reasoning and stays in content with everything
// after it. Any other effort, "none" included, is an error at New; a null
// or "auto" effort counts as absent. A server that takes a top-level
// reasoning_effort puts it in the kwargs, where it wins (vLLM does so).
// Starts in: reasoning (the template ends the prompt with the opener). The
// block's first opener is dropped wherever it comes; text before it is
// reasoning.
// Thinking switch: none; the effort only selects the markers.
// Truncation: an output that never closes reasoning is all reasoning.
// Repeats: after the first closer or tool-call block everything is content,
// verbatim.
// Streaming: holds back fewer bytes than the longest marker, only while
// they may start one; Finish returns them to the section they belong to.
// End check: as vLLM's, the last marker decides, so a stray <ifm|think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: spec vllm-channels-and-state §10. vLLM's extract makes an output
// without markers content with reasoning "" while its streaming path makes
// it reasoning (§15.5 #3); both of ours make it reasoning (spec policy 2).
// vLLM's extract prefers a closer anywhere over an earlier <ifm|tool_calls>;
// here the earlier marker ends reasoning, as a stream sees it. vLLM's
// streaming path drops a partial marker held at the end of the stream;
// Finish returns it (spec policy 3). vLLM removes the opener only as the
// very first bytes of the output and keeps one further on as reasoning
// text; here it is dropped, because an opener must count for the ID-level
// end check: a prompt that ends in <ifm|think> after earlier turns' closers
// and tool calls reads as not ended (vLLM
// test_latest_boundary_controls_reasoning_state). vLLM rejects a null
// effort; here null kwargs count as absent (spec policy 6).
// SGLang's "k2_v3" (an alias here; its older DetectorMap, tests
// test_k2v3_reasoning_parser.py @1114588a and test_k2_v3_reasoning_parser.py
// @103c877c) differs: an unknown effort falls back (to high in the older
// version, medium in the newer) instead of failing; the effort comes from
// the kwarg, else the request's reasoning_effort, else the Responses API's
// reasoning.effort; the prefix <ifm|tool_call ends reasoning; the older
// version also accepts <think>, <think_fast> and <think_faster> pairs; and
// its one-shot path makes a tagless output reasoning, as here (vLLM's
// extract: content).
func newK2Horizon(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	effort := "high"
	if v, ok := cfg.Kwarg("reasoning_effort"); ok {
		s, isString := v.(string)
		if !isString {
			return nil, fmt.Errorf("unsupported reasoning_effort %v (%T): want high, medium or low (%w)", v, v, reasoning.ErrUnsupportedConfig)
		}
		effort = strings.ToLower(strings.TrimSpace(s))
	}
	f, ok := horizonFamilies[effort]
	if !ok {
		return nil, fmt.Errorf("unsupported reasoning_effort %q: want high, medium or low (%w)", effort, reasoning.ErrUnsupportedConfig)
	}
	return f.newParser(tok, cfg)
}

func init() {
	// Its reasoning_effort picks the markers: Info lists every pair.
	register("k2_horizon", newK2Horizon, horizonFamilies["high"].entry(), about{engine: vllm, models: []string{"k2-horizon"},
		summary: "`<ifm|think…>`…`</ifm|think…>` chosen by `reasoning_effort` (\"high\", \"medium\", \"low\"; any other fails at New), `<ifm|tool_calls>` ends reasoning",
		keys:    []string{"reasoning_effort"}, also: []catalog.Entry{horizonFamilies["medium"].entry(), horizonFamilies["low"].entry()},
		aliases: []string{"k2_v3"}})
}
