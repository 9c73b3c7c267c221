package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

var exaone4Family = newTagFamily(ThinkTag{
	Name:     "exaone4",
	Open:     []string{thinkOpen},
	Close:    []string{thinkClose},
	Thinking: Switch{Keys: []string{"enable_thinking"}},
})

// newExaone4 builds the "exaone4" parser (vLLM pull request,
// Exaone4ReasoningParser, for LG's EXAONE 4.0): deepseek_r1 when thinking is
// on, identity when it is off.
//
// Markers: <think> and </think> (thinking on); the chat template opens
// <think> in the prompt, so the output usually holds only </think>.
// Starts in: reasoning with thinking on, as deepseek_r1; content otherwise.
// A prompt that ends inside an open block (WithPrompt) starts the response
// in reasoning whatever the switch says, one that closed it in content.
// Thinking switch: chat_template_kwargs "enable_thinking" only ("thinking"
// is not read), default off: the whole output is content, untouched, the
// end check is always true and no token counts as reasoning.
// Truncation: thinking on, an output that never closes reasoning is all
// reasoning; off, it is content.
// Repeats: as deepseek_r1: after the first </think> everything is content,
// verbatim.
// Streaming: as deepseek_r1 with thinking on; off, each delta is content as
// it comes and an empty delta emits nothing.
// Upstream: spec field-names §3; vllm/reasoning/exaone4_reasoning_parser.py
// @456b8d1d (registered by its decorator; vLLM main registers no exaone4),
// test tests/reasoning/test_exaone4_reasoning_parser.py @9d90f480. It is
// vLLM's deepseek_v3 delegator keyed on enable_thinking alone; the
// differences from deepseek_r1 (text before <think>, B2) are deepseek_r1's.
func newExaone4(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return exaone4Family.newParser(tok, cfg)
}

func init() {
	register("exaone4", newExaone4, exaone4Family.entry(), about{engine: vllmPR, models: []string{"exaone-4.0"},
		summary: "as `deepseek_r1` with `enable_thinking` on, else identity (default off)"})
}
