package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// ERNIE 4.5 wraps its answer in these after the reasoning.
const (
	ernieResponseOpen  = "<response>"
	ernieResponseClose = "</response>"
)

var ernie45Family = newTagFamily(ThinkTag{
	Name:  "ernie45",
	Open:  []string{thinkOpen},
	Close: []string{thinkClose},
	rules: []rule{
		answerWrapper(ernieResponseOpen, ernieResponseClose),
		dropLeadSpace(),
	},
})

// newErnie45 builds the "ernie45" parser (vLLM Ernie45ReasoningParser).
//
// Markers: <think> and </think>; in content, <response> and </response>
// wrap the answer and are dropped. The model writes
// "abc\n</think>\n\n<response>\ndef\n</response>\n" or "abc\n</think>\ndef".
// Starts in: reasoning, as deepseek_r1: the block's first <think> is
// dropped wherever it comes and text before it is reasoning; whitespace
// alone before it is dropped (spec vllm-main §1.1).
// Thinking switch: none.
// Truncation: an output that never closes reasoning is all reasoning.
// Repeats: as deepseek_r1; later </think> and <think> in content stay text.
// Inside reasoning <response> and </response> are text.
// Wrapper: the newlines between </think> and a <response> right after them
// are dropped; without a wrapper they are content. The text inside the
// wrapper is verbatim, its first newline included; one newline right after
// </response> is dropped and any other text after it is content. A
// </response> with no <response> open, and a <response> inside one, is
// text; an unclosed <response> is dropped.
// Streaming: the newlines after </think> are held until the next byte says
// whether a wrapper follows; holds back fewer bytes than the longest marker,
// only while they may start one.
// End check: as vLLM's, the last marker decides, so a stray <think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: vllm/reasoning/ernie45_reasoning_parser.py@0b19ebca (spec
// vllm-main §1.3). For the model's two shapes this is vLLM's extract, which
// keeps the newlines after </think> when no wrapper follows and keeps the
// text strictly between the first <response> and the last </response>. We
// differ where a stream would have to wait for a later marker (spec policy
// 2): vLLM's extract keeps an unclosed <response> and drops text after the
// last </response> (we drop the one and keep the other, policy 3). vLLM's
// streaming path runs its cleanup only for a delta that carries </think>
// with other tokens, passes a one-token </think>'s sequel raw, wrapper and
// all, and drops a wrapper token inside reasoning; ours follow extract in
// both paths. vLLM streams later markers verbatim when only a reasoning
// parser is configured (spec vllm-main §0.1).
func newErnie45(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return ernie45Family.newParser(tok, cfg)
}

func init() {
	register("ernie45", newErnie45, ernie45Family.entry(), about{engine: vllm, models: []string{"ernie-4.5*thinking", "ernie-4.5-vl"},
		summary: "`<think>`…`</think>`, starts in reasoning, `<response>` wrapper dropped in content"})
}
