package parsers

import (
	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/tokenizer"
)

var minicpmvFamily = newTagFamily(ThinkTag{
	Name:       "minicpmv",
	Open:       []string{thinkOpen},
	Close:      []string{thinkClose},
	Tools:      []string{qwenToolCall},
	Repeats:    RepeatsDropStray,
	Thinking:   Switch{Keys: []string{"enable_thinking"}, Off: OffContent},
	Boundaries: []string{chatMLStart},
	rules: []rule{
		dropped(chatMLEnd,
			"<reserved_12>", "<reserved_13>", "<reserved_14>", "<reserved_15>",
			"<|reserved_12|>", "<|reserved_13|>", "<|reserved_14|>", "<|reserved_15|>"),
	},
})

// newMiniCPMV builds the "minicpmv" parser (vLLM's MiniCPM-V engine parser).
//
// Markers: <think> and </think>; <tool_call> ends reasoning and stays in
// content; <|im_end|>, <reserved_12> to <reserved_15> and <|reserved_12|>
// to <|reserved_15|> are dropped wherever they come (other reserved numbers
// stay).
// Starts in: reasoning with thinking on; content with it off, where <think>
// still opens the block.
// Thinking switch: chat_template_kwargs["enable_thinking"], default off.
// Truncation: an unclosed block is reasoning.
// Repeats: as qwen3.
// Streaming: holds back fewer bytes than the longest marker, only while they
// may start one.
// End check: as vLLM's, the last marker decides, so a stray <think> in
// content after the end, which the split keeps as text, makes IsReasoningEnd
// false again.
// Upstream: spec vllm-thinktag §19. With thinking off vLLM discards the
// reasoning of a block the model writes anyway and its end check is always
// false, so a grammar would never engage (B13); we keep that reasoning as
// reasoning and answer the end check from the markers (spec policy 7). The
// "\\n" newline recovery belongs to vLLM's unified parse path, not to its
// reasoning adapter, and is not done here.
func newMiniCPMV(tok tokenizer.Tokenizer, cfg reasoning.Config) (reasoning.Parser, error) {
	return minicpmvFamily.newParser(tok, cfg)
}

func init() {
	register("minicpmv", newMiniCPMV, minicpmvFamily.entry(), about{engine: vllm, models: []string{"minicpm-v"},
		summary: "as `qwen3`, reserved tokens dropped; `enable_thinking` default off (content; `<think>` still opens)"})
}
