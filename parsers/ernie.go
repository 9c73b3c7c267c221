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
	Name:        "ernie45",
	Open:        []string{thinkOpen},
	Close:       []string{thinkClose},
	TrimContent: "\n",
	rules: []rule{
		dropped(ernieResponseOpen, ernieResponseClose),
	},
})

// newErnie45 builds the "ernie45" parser (vLLM Ernie45ReasoningParser).
//
// Markers: <think> and </think>; <response> and </response> around the
// answer are dropped. The model writes "abc\n</think>\n\n<response>\ndef\n</response>\n"
// or "abc\n</think>\ndef".
// Starts in: reasoning, as deepseek_r1: the block's first <think> is
// dropped wherever it comes and text before it is reasoning.
// Thinking switch: none.
// Truncation: an output that never closes reasoning is all reasoning.
// Repeats: as deepseek_r1; later </think> and <think> in content stay text.
// Streaming: the newlines right after </think> are dropped; holds back fewer
// bytes than the longest marker, only while they may start one.
// End check: as vLLM's, the last marker decides, so a stray <think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: spec vllm-thinktag §22. vLLM's extract keeps the newline after
// </think> when there is no <response> wrapper while its streaming path
// drops every leading newline (B7); both of ours drop them (spec policy 2),
// see the case "bug:B7". vLLM keeps only the text strictly between the first
// <response> and the last </response>; we drop the two markers and the
// newlines between </think> and <response>, keep the text inside the
// wrapper verbatim (its first newline included, as vLLM does) and keep text
// after </response> (a trailing newline), so nothing is lost and no later
// marker has to be waited for.
func newErnie45(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return ernie45Family.newParser(tok, cfg)
}

func init() {
	register("ernie45", newErnie45, ernie45Family.entry(), about{engine: vllm, models: []string{"ernie-4.5*thinking", "ernie-4.5-vl"},
		summary: "`<think>`…`</think>`, starts in reasoning, `<response>` wrapper dropped, newlines after `</think>` dropped"})
}
