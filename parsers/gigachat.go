package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// GigaChat 3.5's thinking switch, which its chat templates read from
// chat_template_kwargs, and its tool block opener, which ends no reasoning
// (the bars are U+FF5C FULLWIDTH VERTICAL LINE).
const (
	gigaChatReasoning = "reasoning"
	gigaChatToolCalls = "<｜GCML｜tool_calls>"
)

var gigaChat35Family = newTagFamily(ThinkTag{
	Name:     "gigachat35",
	Open:     []string{thinkOpen},
	Close:    []string{thinkClose},
	Thinking: Switch{Keys: []string{gigaChatReasoning}},
})

// newGigaChat35 builds the "gigachat35" parser (vLLM pull request,
// GigaChat35ReasoningParser, for ai-sage's GigaChat 3.5): deepseek_r1 when
// thinking is on, identity when it is off.
//
// Markers: <think> and </think> (thinking on); with reasoning on the chat
// template opens <think> in the prompt, so the output holds only </think>.
// GigaChat's tool block <｜GCML｜tool_calls> does not end reasoning: after
// </think> it is content like any text.
// Starts in: reasoning with thinking on, as deepseek_r1; content otherwise.
// A prompt that ends inside an open block (WithPrompt) starts the response
// in reasoning whatever the switch says, one that closed it in content.
// Thinking switch: chat_template_kwargs "reasoning" (a boolean), default
// off: the whole output is content, untouched, the end check is always true
// and no token counts as reasoning.
// Truncation: thinking on, an output that never closes reasoning is all
// reasoning; off, it is content.
// Repeats: as deepseek_r1: after the first </think> everything is content,
// verbatim. Nothing is trimmed: content keeps the "\n\n" after </think>.
// Streaming: as deepseek_r1 with thinking on; off, each delta is content as
// it comes.
// Upstream: spec field-names §3; vllm/reasoning/gigachat35_reasoning_parser.py
// and its registry entry @57c95ee2, test
// tests/reasoning/test_gigachat35_reasoning_parser.py @f1c12100. SGLang's
// main registry maps "gigachat35" to its forced R1 detector with no switch
// (always reasoning first); vLLM's wins (spec policy 1): with SGLang's
// behaviour, set reasoning true or use gigachat35_thinking.
func newGigaChat35(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return gigaChat35Family.newParser(tok, cfg)
}

func init() {
	register("gigachat35", newGigaChat35, gigaChat35Family.entry(), about{engine: vllmPR, models: []string{"gigachat3.5"},
		summary: "as `deepseek_r1` with `reasoning` on, else identity (default off)",
		inert:   []string{gigaChatToolCalls}})
}

var gigaChat35ThinkingFamily = newTagFamily(ThinkTag{
	Name:     "gigachat35_thinking",
	Open:     []string{thinkOpen},
	Close:    []string{thinkClose},
	Thinking: Switch{Keys: []string{gigaChatReasoning}, Default: true},
})

// newGigaChat35Thinking builds the "gigachat35_thinking" parser (vLLM pull
// request, GigaChat35ReasoningWithThinkingParser, for the GigaChat 3.5
// Reasoning models, whose template always opens <think>): gigachat35 with
// thinking on by default.
//
// Markers, starts in, truncation, repeats, streaming: as gigachat35.
// Thinking switch: chat_template_kwargs "reasoning", on when it is missing
// or null; an explicit false turns it off: the whole output is content,
// untouched.
// Upstream: spec field-names §3; the same module and test as gigachat35.
// Its tests' end check (IDs 1, 2, 4 then </think> ended, with 5 after it
// still ended, without </think> not) is deepseek_r1's, as here.
func newGigaChat35Thinking(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return gigaChat35ThinkingFamily.newParser(tok, cfg)
}

func init() {
	register("gigachat35_thinking", newGigaChat35Thinking, gigaChat35ThinkingFamily.entry(), about{engine: vllmPR, models: []string{"gigachat3.5*reasoning"},
		summary: "as `gigachat35`, `reasoning` on by default",
		inert:   []string{gigaChatToolCalls}})
}
