package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

var deepseekV32Family = newTagFamily(ThinkTag{
	Name:     "deepseek_v32",
	Open:     []string{thinkOpen},
	Close:    []string{thinkClose},
	Thinking: Switch{Keys: []string{"thinking", "enable_thinking"}},
})

// newDeepSeekV32 builds the "deepseek_v32" parser (LMDeploy,
// DeepSeekV32ReasoningParser, registered there as "deepseek-v32" and
// "deepseek-v3.2"): deepseek_r1 when thinking is on, identity when it is off.
//
// Markers: <think> and </think> (thinking on); the template opens <think>
// in the prompt, so the output usually holds only </think>.
// Starts in: reasoning with thinking on, as deepseek_r1; content otherwise.
// A prompt that ends inside an open block (WithPrompt) starts the response
// in reasoning whatever the switch says, one that closed it in content.
// Thinking switch: chat_template_kwargs "thinking" or "enable_thinking"
// (either true turns it on), default off: the whole output is content,
// untouched, the end check is always true and no token counts as
// reasoning. This is deepseek_v3's switch.
// Truncation: thinking on, an output that never closes reasoning is all
// reasoning; off, it is content.
// Repeats: as deepseek_r1: after the first </think> everything is content,
// verbatim.
// Streaming: as deepseek_r1 with thinking on; off, each delta is content as
// it comes.
// Upstream: spec field-names §3; lmdeploy/serve/parsers/reasoning_parser/
// @1263d5cd (read here at the stored deepseek_v32_reasoning_parser.py
// @5f510a14 and response_parser.py @08ab9bdb). The names normalise with '-' as '_' but keep the '.', so the
// dotted spelling is an alias of its own. vLLM's choice for DeepSeek-V3.2
// models is deepseek_v3 (ForModel's too), so this name claims no models.
// LMDeploy's response parser differs in ways a split here does not follow:
// it turns thinking on only for a literal true (here any true value, as
// every family reads switches); thinking off, it starts in plain text where
// a generated <think> still opens a block, whose text goes to content with
// the tags dropped when enable_thinking is explicitly false; and after the
// block a later <think> reenters reasoning. The spec takes the deepseek_v3
// rule (off is identity, one block) for this name.
func newDeepSeekV32(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return deepseekV32Family.newParser(tok, cfg)
}

func init() {
	register("deepseek_v32", newDeepSeekV32, deepseekV32Family.entry(), about{engine: lmdeploy,
		summary: "as `deepseek_v3` (LMDeploy's): `thinking`/`enable_thinking` on → `deepseek_r1`, else identity (default off)",
		aliases: []string{"deepseek-v3.2"}})
}
