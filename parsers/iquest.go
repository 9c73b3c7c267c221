package parsers

import (
	"fmt"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// This file holds the three names of IQuest's models: iquest (vLLM pull
// request, ChatML templates), iquest_coder_v2 (vLLM pull request, iQuest
// Coder's own turn token) and iquest_q1 (SGLang).

// iquestAssistant starts an assistant turn in iQuest Coder's templates.
const iquestAssistant = "<|iquestcoder_assistant|>"

var iquestFamily = newTagFamily(ThinkTag{
	Name:          "iquest",
	Open:          []string{thinkOpen},
	Close:         []string{thinkClose},
	TrimReasoning: true,
	TrimContent:   spaces,
	TrimOpen:      spaces,
	Boundaries:    []string{chatMLStart, chatMLEnd},
	rules: []rule{
		trimsStart(),
	},
})

// newIQuest builds the "iquest" parser (vLLM pull request
// IQuestReasoningParser, for IQuest-Coder-V1's thinking models).
//
// Markers: <think> and </think>, special tokens. Qwen3.5-style templates put
// <think> in the prompt; older ones let the model write it.
// Starts in: reasoning, unless the prompt (WithPrompt) decides: a prompt
// whose last marker in the current turn is </think> (the thinking-off tail
// "<think>\n\n</think>\n\n") starts the response in content, one that ends
// in <think> in reasoning. <|im_start|> and <|im_end|> end the turn, so a
// </think> of an earlier turn does not count. The block's first <think> is
// dropped wherever it comes; text before it is reasoning.
// Thinking switch: none (the prompt says whether thinking is off).
// Truncation: an output that never closes reasoning is all reasoning.
// Repeats: after the first </think> everything is content, verbatim.
// Streaming: the whitespace at the start of reasoning and of content is
// dropped; the trailing whitespace of reasoning is held until more reasoning
// comes and dropped when the block ends. Holds back fewer bytes than
// "</think>", only while they may start it.
// End check: the last marker after the last turn boundary decides.
// Upstream: spec field-names §5.2, vllm/reasoning/iquest_reasoning_parser.py
// and its test @265a729e (registry @bdff7964). Upstream's extract makes an
// output without </think> content while its stream makes it reasoning; both
// of ours say reasoning, the streaming client's answer (spec policy 2).
// Upstream trims streamed reasoning only when the server asks
// (strip_think_wrapping_ws); ours trims both paths alike. Upstream's
// is_prompt_reasoning_end wants the prompt's last </think> followed by no
// <think> and at most 8 whitespace tokens; ours reads the prompt's last
// marker after the last turn boundary, so a </think> followed by other text
// in the current turn (a prefilled answer) also starts the response in
// content, where upstream would start it in reasoning.
func newIQuest(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return iquestFamily.newParser(tok, cfg)
}

func init() {
	register("iquest", newIQuest, iquestFamily.entry(), about{engine: vllmPR, models: []string{"iquest-coder-v1*thinking"},
		summary: "`<think>`…`</think>`, starts in reasoning unless the prompt closed it, whitespace around reasoning and before content dropped"})
}

// iquestThinking is the switch of iquest_coder_v2 and iquest_q1: on unless
// "thinking" or "enable_thinking" is set, then on when either is true.
var iquestThinking = Switch{Keys: []string{"thinking", "enable_thinking"}, Default: true}

var iquestCoderV2Family = newTagFamily(ThinkTag{
	Name:       "iquest_coder_v2",
	Open:       []string{thinkOpen},
	Close:      []string{thinkClose},
	Thinking:   iquestThinking,
	Boundaries: []string{iquestAssistant},
})

// newIQuestCoderV2 builds the "iquest_coder_v2" parser (vLLM pull request
// IquestCoderV2ReasoningParser): deepseek_r1 in the current assistant turn,
// behind a two-key thinking switch.
//
// Markers: <think> and </think>, single tokens or not;
// <|iquestcoder_assistant|> starts an assistant turn and scopes the end
// check, and must be one token of the vocabulary (New fails otherwise, as
// upstream's constructor does).
// Starts in: reasoning with thinking on; the block's first <think> is
// dropped wherever it comes and text before it is reasoning. A prompt that
// closed the block in the current turn (WithPrompt) starts the response in
// content.
// Thinking switch: "thinking" or "enable_thinking", on when neither is set;
// when either is set, on when either is true. Off: the whole output is
// content, untouched, even a <think>…</think>; the end check is always true
// and no token is reasoning.
// Truncation: an output that never closes reasoning is all reasoning.
// Repeats: after the first </think> everything is content, verbatim.
// Streaming: holds back fewer bytes than "</think>", only while they may
// start it; Finish returns them. Nothing is trimmed.
// End check: scanning back, a </think> says ended, a <think> or an
// <|iquestcoder_assistant|> (a new turn) says not, and nothing says not.
// Upstream: spec field-names §5.3,
// vllm/reasoning/iquest_coder_v2_reasoning_parser.py, its registry and test
// @53d7d352. Upstream's constructor also fails for a vocabulary without
// <think> or </think> as tokens; ours matches them in text there, as every
// family does. Upstream's content IDs are empty, not absent, when reasoning has
// not ended; ours are nil, the library's "not ended". vLLM's extract drops
// text before <think>; ours keeps it (spec policy 3).
func newIQuestCoderV2(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	if tok != nil {
		if _, ok := tok.TokenID(iquestAssistant); !ok {
			return nil, fmt.Errorf("delimiter %q: %w: iquest_coder_v2 scopes its end check with it, so it must be one token of the vocabulary",
				iquestAssistant, tokenizer.ErrUnencodable)
		}
	}
	return iquestCoderV2Family.newParser(tok, cfg)
}

func init() {
	register("iquest_coder_v2", newIQuestCoderV2, iquestCoderV2Family.entry(), about{engine: vllmPR, models: []string{"iquest-coder-v2"},
		summary: "as `holo2` (`thinking`/`enable_thinking`, on), its end check stops at `<|iquestcoder_assistant|>`"})
}

var iquestQ1Family = newTagFamily(ThinkTag{
	Name:       "iquest_q1",
	Open:       []string{thinkOpen},
	Close:      []string{thinkClose},
	Thinking:   iquestThinking,
	Boundaries: []string{iquestAssistant},
	rules: []rule{
		openAtStart(),
	},
})

// newIQuestQ1 builds the "iquest_q1" parser (SGLang's IQuestQ1
// ReasoningDetector): qwen3_thinking with the opener only at the start, no
// implicit end, and a two-key switch.
//
// Markers: <think> and </think>. A <think> counts only as the very first
// bytes of the output; anywhere else it is text. The tool-call opener
// <iquest_tool_call> does not end reasoning.
// Starts in: reasoning (forced). A prompt whose current turn (after the last
// <|iquestcoder_assistant|>) already closed the block (WithPrompt, as with
// continue_final_message) starts the response in content.
// Thinking switch: "thinking" or "enable_thinking", on when neither is set;
// when either is set, on when either is true. Off: the whole output is
// content, untouched.
// Truncation: an unclosed block is reasoning; Finish returns a held partial
// marker to it.
// Repeats: after the first </think> everything is content, verbatim.
// Streaming: holds back fewer bytes than "</think>", only while they may
// start it. Nothing is trimmed.
// End check: as deepseek_r1's, the last marker decides, looking back no
// further than the last <|iquestcoder_assistant|>.
// Upstream: spec field-names §5.4, SGLang's registration @734cf3cf and its
// test test/registered/unit/parser/test_iquest_q1_reasoning_parser.py
// @0adff0bc (also 1fbda0f8); the detector's source is not read, the rules
// are what the test observes. SGLang's detector has no ID methods; ours are
// deepseek_r1's. The <|iquestcoder_assistant|> turn boundary is ours, from
// iQuest's template (vLLM's IQuestQ1 parser scopes with it too): it keeps an
// earlier turn's </think> from deciding the start or the end check, and a
// vocabulary without it is fine.
func newIQuestQ1(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return iquestQ1Family.newParser(tok, cfg)
}

func init() {
	register("iquest_q1", newIQuestQ1, iquestQ1Family.entry(), about{engine: sglang, models: []string{"iquest-q1"},
		summary: "SGLang's detector: `<think>` (only at the start)…`</think>`, starts in reasoning, no implicit end; `thinking`/`enable_thinking` (on)"})
}
