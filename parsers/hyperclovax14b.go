package parsers

import (
	"strings"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// HyperCLOVA X SEED Think 14B's markers: the model opens reasoning by
// writing "/think\n" right after the role name of its generation prompt
// ("<|im_start|>assistant"), and hands off to its answer by writing a new
// assistant role line.
const (
	hcx14bOpen      = "/think\n"
	hcx14bHandOff   = "<|im_end|>\n<|im_start|>assistant"
	hcx14bAssistant = "<|im_start|>assistant"
)

var hyperclovax14bFamily = newTagFamily(ThinkTag{
	Name:          "hyperclovax_seed_think_14b",
	Open:          []string{hcx14bOpen},
	Close:         []string{hcx14bHandOff},
	Start:         StartContent,
	Thinking:      Switch{decide: hyperclovax14bThinking, Off: OffClosed},
	TrimReasoning: true,
	TrimContent:   "\n",
	TrimOpen:      "\n",
	rules: []rule{
		markersAreText(),
		openAtStart(),
		trimsStart(),
		trimsContentStart(),
		responseIn(hyperclovax14bResponse),
	},
})

// hyperclovax14bThinking is the switch as upstream reads it: off only when
// chat_template_kwargs "skip_reasoning" is true and "force_reasoning" is
// not (force wins; it is applied in newHyperCLOVAX14B).
func hyperclovax14bThinking(cfg reasoning.Config) bool {
	force, _ := cfg.Thinking("force_reasoning")
	skip, _ := cfg.Thinking("skip_reasoning")
	return force || !skip
}

// hyperclovax14bResponse is the part of a prompt that belongs to the
// response: what follows its last "<|im_start|>assistant" ("/think\n" when
// the template forced reasoning, "\n" when it skipped it, "" when it left
// the choice to the model). A prompt without one has no such part.
func hyperclovax14bResponse(prompt string) string {
	if i := strings.LastIndex(prompt, hcx14bAssistant); i >= 0 {
		return prompt[i+len(hcx14bAssistant):]
	}
	return ""
}

// newHyperCLOVAX14B builds the "hyperclovax_seed_think_14b" parser (vLLM
// pull request HyperCLOVAXSeedThink14BReasoningParser, for HyperCLOVA X
// SEED Think 14B).
//
// Markers: "/think\n" opens reasoning, only as the very first bytes of the
// output; anywhere else it is text. The ChatML hand-off
// "<|im_end|>\n<|im_start|>assistant" closes it. Both are text of several
// tokens, matched by their text even where <|im_end|> and <|im_start|> are
// special tokens. The template's generation prompt ends
// "<|im_start|>assistant/think\n" to force reasoning,
// "<|im_start|>assistant\n" to skip it, and "<|im_start|>assistant" to let
// the model choose by writing "/think\n" or "\n".
// Starts in: content, where a leading "/think\n" opens the block; a leading
// "\n" (the model's non-reasoning choice) is dropped with the newlines after
// it, and a "/think\n" after them is text. chat_template_kwargs
// "force_reasoning" true (as WithForceReasoning(true), unless that is given
// false) starts it in reasoning, where a leading "/think\n" is dropped too.
// A prompt (WithPrompt) whose last "<|im_start|>assistant" is followed by
// "/think\n" starts the response in reasoning.
// Thinking switch: chat_template_kwargs "skip_reasoning" true, unless
// "force_reasoning" is true too: the whole output is content, its leading
// newlines dropped, "/think\n" and the hand-off text. Neither key is a
// SwitchKeys entry: ResolveThinking's one decision written into both would
// say the opposite of itself in skip_reasoning.
// Truncation: an output that never hands off is all reasoning once the
// block opened, its trailing whitespace dropped; else all content.
// Repeats: after the hand-off everything is content, verbatim: the
// " -> tool/function_call\n" role header, the tool-call JSON and a later
// hand-off stay as the model wrote them. A hand-off in content before any
// block is text too.
// Streaming: the newlines at the start of reasoning, at the start of the
// output in content and right after the hand-off are dropped; the trailing
// whitespace of reasoning is held until more reasoning comes and dropped
// when the block ends. Holds back fewer bytes than the hand-off, only while
// they may start it.
// End check: reasoning has ended once the hand-off's text has gone by, or
// when the response starts in content and no "/think\n" opened a block.
// Upstream: spec field-names §13,
// vllm/reasoning/hyperclovax_seed_think_14b_reasoning_parser.py and its
// test @0676dfcb (registry @a4328302). Deliberate differences:
//   - Upstream's extract reads text before a hand-off as reasoning even
//     when nothing opened a block, and an output without one as content;
//     its stream starts in reasoning unless the first token is "\n". A
//     stream cannot tell which until the hand-off or the end, however far
//     off (spec policy 2): ours starts in content unless "/think\n",
//     force_reasoning or the prompt opened reasoning, so upstream's
//     no-flag "reason<hand-off>\nanswer" is all content here.
//   - Upstream's extract drops the role header, cuts the content after
//     the tool-call array (or at the first <|im_end|>, <|stop|> or
//     <|endofturn|>), renames "arguments" to "parameters" for
//     tool_choice "required" and, with tools and no hand-off, moves a
//     trailing JSON array out of reasoning into content; its stream hands
//     the rest to the tool parser and stops emitting. All of that rewrites
//     or loses the model's text (spec policy 3) or needs unbounded holding
//     (policy 2): ours keeps content verbatim for the tool parser, whose
//     business it is (the spec's "Do").
//   - Upstream's stream treats the role header alone as an end of
//     reasoning; its extract does not. Ours follows the extract: the role
//     header is text.
//   - Upstream strips newlines around reasoning; ours strips every
//     trailing whitespace character of reasoning (the family's trim is the
//     shared one), in both paths; upstream's stream strips nothing.
//   - Upstream's end check is stateful (what it streamed, a rolling
//     history of IDs) and says ended only while the IDs end with a hand-off
//     variant; ours reads the IDs alone, so it stays ended after the
//     hand-off (spec policy 7). Skip mode is ended from the start, as
//     upstream's skip mode with its prompt is.
//
// It is not hyperclovax_seed_think (the 32B model's <think>…</think>).
func newHyperCLOVAX14B(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	if force, _ := cfg.Thinking("force_reasoning"); force && cfg.ForceReasoning == nil {
		on := true
		cfg.ForceReasoning = &on
	}
	return hyperclovax14bFamily.newParser(tok, cfg)
}

func init() {
	register("hyperclovax_seed_think_14b", newHyperCLOVAX14B, hyperclovax14bFamily.entry(), about{engine: vllmPR, models: []string{"hyperclovax-seed-think-14b"},
		summary: "`/think\\n` (only at the start)…`<|im_end|>\\n<|im_start|>assistant`, starts in content; `force_reasoning` (reasoning), `skip_reasoning` (all content); content verbatim"})
}
