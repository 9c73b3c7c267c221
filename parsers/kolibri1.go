package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// kolibri1Thinking is Kolibri-1's switch: a reasoning_effort decides when
// given (on unless it is "none"); otherwise thinking is on unless
// enable_thinking is the boolean false.
func kolibri1Thinking(c reasoning.Config) bool {
	if v, ok := c.Kwarg("reasoning_effort"); ok {
		s, isString := v.(string)
		return !isString || s != "none"
	}
	v, _ := c.Kwarg("enable_thinking")
	return v != false
}

var kolibri1Family = newTagFamily(func() ThinkTag {
	s := renamed(qwen3Family, "kolibri1")
	s.Thinking = Switch{Keys: []string{"enable_thinking", "reasoning_effort"}, Default: true, decide: kolibri1Thinking}
	return s
}())

// newKolibri1 builds the "kolibri1" parser (vLLM pull request, Aleph Alpha's
// Kolibri-1 engine parser): qwen3 with a switch that reads
// reasoning_effort first.
//
// Markers: <think> and </think>; <tool_call> ends reasoning and stays in
// content, for the Hermes-style tool parser.
// Starts in, truncation, repeats, streaming, end check: as qwen3.
// Thinking switch: chat_template_kwargs "reasoning_effort", when given and
// not null, decides: off for "none", on for any other effort, whatever
// enable_thinking says. Otherwise "enable_thinking" turns thinking off only
// when it is the boolean false. Off: the whole output is content, untouched.
// Upstream: spec field-names §6.1, the adapter
// vllm/reasoning/kolibri1_engine_reasoning_parser.py and registry @10957fe9,
// the engine vllm/parser/kolibri1.py @685269b9, test
// tests/parser/engine/test_kolibri1.py @10957fe9. Upstream notes that its
// switch ignores continue_final_message; ours lets a prompt that ends inside
// reasoning (WithPrompt) start the response there (spec policy 4). A
// reasoning_effort of "auto" counts as absent, as every switch here reads it.
func newKolibri1(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return kolibri1Family.newParser(tok, cfg)
}

func init() {
	register("kolibri1", newKolibri1, kolibri1Family.entry(), about{engine: vllmPR, models: []string{"kolibri-1", "kolibri1"},
		summary: "as `qwen3`; `reasoning_effort` decides first (\"none\" → off), then `enable_thinking` (on; only false turns it off)"})
}
