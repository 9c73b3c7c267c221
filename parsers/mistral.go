package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Mistral's markers. v13 tokenizers (Magistral 2509 and later) hold [THINK]
// and [/THINK] as control tokens; v11 ones (Magistral 2506) write <think> and
// </think> as plain text.
const (
	mistralThink     = "[THINK]"
	mistralThinkEnd  = "[/THINK]"
	mistralToolCalls = "[TOOL_CALLS]" // ends reasoning implicitly; kept in content
	mistralInst      = "[INST]"       // turn markers: the ID-level end check stops at them
	mistralInstEnd   = "[/INST]"
)

var mistralFamily = newTagFamily(ThinkTag{
	Name:          "mistral",
	Open:          []string{mistralThink, thinkOpen},
	Close:         []string{mistralThinkEnd, thinkClose},
	Tools:         []string{mistralToolCalls},
	Start:         StartContent,
	Repeats:       RepeatsInterleave,
	TrimReasoning: true,
	Boundaries:    []string{mistralInst, mistralInstEnd},
	rules: []rule{
		endNeedsMarker(),
	},
})

// newMistral builds the "mistral" parser (vLLM's Mistral engine parser,
// reasoning half).
//
// Markers: [THINK] and [/THINK] (v13, control tokens), and <think> and
// </think> (v11, plain text). [TOOL_CALLS] also ends reasoning; it and
// everything after it are content, verbatim, for the tool parser. With token
// IDs, a marker that is one token of the vocabulary counts only as that
// token: [THINK] typed as ordinary tokens is text (spec policy 5).
// Starts in: content. Every [THINK] in content opens a reasoning block; text
// before it is content. A prompt that ends inside an open block (WithPrompt)
// or WithForceReasoning starts the response in reasoning; one that closed a
// block starts it in content, where a later [THINK] still opens another.
// Thinking switch: none (reasoning_effort changes the prompt only).
// Truncation: an unclosed block is reasoning.
// Repeats: a [THINK] inside reasoning and a stray [/THINK] in content are
// dropped; every block's reasoning is joined.
// Streaming: holds back fewer bytes than the longest marker, only while they
// may start one, and the trailing whitespace of a block until more reasoning
// comes; that whitespace is dropped when the block ends. Finish returns
// what is held to the section it belongs to.
// Upstream: spec vllm-channels-and-state §11, tests/parser/mistral/
// test_reasoning.py; vllm/parser/mistral.py@0b19ebca (spec vllm-main
// §1.11). vLLM chooses one spelling from the tokenizer ([THINK] when the
// vocabulary has it, else <think> when it supports grammars, else no
// reasoning), so there the other spelling is text. We accept both, with a
// tokenizer or without: text alone cannot tell a v11 model from a v13 one,
// and a spelling picked from the vocabulary would split the same text
// differently with and without token IDs (the conformance kit checks that
// they agree; spec policy 5). Each model writes only its own spelling, so
// only an output that types the other spelling differs. We never turn
// reasoning off. vLLM strips the trailing
// whitespace of all reasoning taken together; we strip it per block, which
// differs only for several blocks. vLLM's engine drops whitespace-only
// content before [TOOL_CALLS]; that is tool parsing, left to the tool parser
// (the text stays). The ID-level end check is vLLM's: the last marker
// decides, [TOOL_CALLS] counts as an end, and IDs without any marker give
// false, though the response starts in content (true only when the prompt
// given with WithPrompt ends with a closed block). Unlike vLLM, the check
// stops at [INST] and [/INST], so a block of an earlier turn in the prompt
// does not count. After [TOOL_CALLS] vLLM's engine is in its tool states,
// where a marker is tool-call text; ours still opens a block there (the
// rest is the tool parser's either way). SGLang's "mistral" is its base
// detector on [THINK] and [/THINK]: one block, no tool-call end, whitespace
// kept.
func newMistral(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return mistralFamily.newParser(tok, cfg)
}

func init() {
	register("mistral", newMistral, mistralFamily.entry(), about{engine: vllm, models: []string{"magistral", "ministral*reasoning"},
		summary: "`[THINK]`…`[/THINK]` (v13) or `<think>`…`</think>` (v11), `[TOOL_CALLS]` ends reasoning, starts in content"})
}
