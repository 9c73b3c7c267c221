package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

// Apertus's markers, special tokens of its vocabulary.
const (
	apertusOpen      = "<|inner_prefix|>"
	apertusClose     = "<|inner_suffix|>"
	apertusToolOpen  = "<|tools_prefix|>[" // a tool-call list; a bare <|tools_prefix|> is not one (SGLang)
	apertusToolClose = "<|tools_suffix|>"
	apertusTurn      = "<|assistant_start|>" // an assistant turn begins: closes any open block
)

var apertusFamily = newTagFamily(ThinkTag{
	Name:       "apertus",
	Open:       []string{apertusOpen},
	Close:      []string{apertusClose},
	Start:      StartContent,
	Repeats:    RepeatsDropStray,
	Boundaries: []string{apertusTurn},
})

// newApertus builds the "apertus" parser (vLLM's ApertusReasoningParser,
// its newest version).
//
// Markers: <|inner_prefix|> and <|inner_suffix|>, single tokens or not;
// <think> and </think> are text.
// Starts in: content; a generated opener opens the one block. A prompt
// (WithPrompt) whose last marker is the opener starts the response in
// reasoning; one whose last is the closer or <|assistant_start|> in content.
// Thinking switch: none.
// Truncation: an unclosed block is reasoning.
// Repeats: every opener inside the block is dropped; a closer in content is
// dropped (a stray closer with no open block), its text around it content;
// after the block an opener is text.
// Streaming: holds back fewer bytes than the longest marker, only while they
// may start one.
// End check: the last marker decides, and the turn token <|assistant_start|>
// stops the look back (the response starts after it): opener not ended,
// closer ended.
// Upstream: spec field-names §8.1; vllm-project/vllm
// vllm/reasoning/apertus_reasoning_parser.py @23232cfa (fixed pair),
// swiss-ai/vllm same path @741d4107 (pair from the vocabulary, prompt and
// turn handling); tests/reasoning/test_apertus_reasoning_parser.py
// @c3606344. Deliberate differences: upstream's extract makes
// "thinking<|inner_suffix|>answer" (a closer with no open block) a split,
// while its stream, which reports reasoning ended while no block is open,
// gives all of it as content with the closer swallowed; here both give the
// stream's (spec policy 2). Upstream's extract drops text before the opener
// (B2); here it is content. <|assistant_start|> in the output is text, as
// the model does not write it; it scopes the prompt and the end check. The
// newest upstream takes <think> and </think> instead when the vocabulary has
// both as tokens with a lower opener ID than <|inner_prefix|>'s; here the
// pair is always the inner one, since a split must not change with the
// tokenizer (Extract with token IDs equals Extract on text), and Apertus's
// own vocabulary has the inner pair.
func newApertus(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return apertusFamily.newParser(tok, cfg)
}

func init() {
	register("apertus", newApertus, apertusFamily.entry(), about{engine: vllmPR, models: []string{"apertus"},
		summary: "`<|inner_prefix|>`…`<|inner_suffix|>`, starts in content, one block; a stray closer is dropped"})
}

var apertus2509Spec = hoistSpec{
	machineSpec:  machineSpec{markers: []string{apertusOpen, apertusClose, apertusToolOpen, apertusToolClose}, endText: apertusClose},
	startContent: true,
	reopen:       true,
}

// newApertus2509 builds the "apertus2509" parser (SGLang's
// Apertus2509Detector).
//
// Markers: <|inner_prefix|> opens a reasoning block and <|inner_suffix|>
// closes it, both dropped. Inside a block, <|tools_prefix|>[ begins a tool
// call, which is content, verbatim with its markers, up to and including
// <|tools_suffix|>; reasoning goes on after it. A bare <|tools_prefix|>
// without "[" is text. None need be a single token.
// Starts in: content; WithForceReasoning(true), or a prompt (WithPrompt)
// whose last marker is <|inner_prefix|>, starts it in reasoning (SGLang's
// continue_final_message with an open block).
// Thinking switch: none.
// Truncation: an unclosed block is reasoning; an unclosed tool call leaves
// the rest in content.
// Repeats: every <|inner_prefix|> in content opens another block; the
// blocks' reasoning is concatenated, the text between them content. An
// <|inner_prefix|> inside a block is text, as a <|inner_suffix|> in content
// is.
// Streaming: holds back fewer bytes than the longest marker while they may
// start one.
// End check: from the text split: not ended inside a block or a tool call
// within one, ended in content. SGLang's detectors read no IDs.
// Upstream: spec field-names §8.2; SGLang reasoning_parser.py @2eec3278
// (Apertus2509Detector); test/registered/unit/parser/
// test_reasoning_parser_apertus_cohere.py @40bdc21b. SGLang's semantics for
// this name (policy 1), where vLLM's "apertus" starts in content with one
// block. Deliberate differences: a tool call in content is a block too,
// inside which <|inner_prefix|> is text (SGLang would open reasoning there),
// so that the tool parser gets the call whole.
func newApertus2509(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return newHoist(&apertus2509Spec, tok, cfg)
}

func init() {
	register("apertus2509", newApertus2509, apertus2509Spec.entry(nil), about{engine: sglang,
		summary: "`<|inner_prefix|>`…`<|inner_suffix|>` blocks, starts in content; `<|tools_prefix|>[`…`<|tools_suffix|>` inside a block goes to content in place"})
}
