// Package parsers holds one file per model family and registers every name
// with reasoning.Default when it is imported for its side effect:
//
//	import _ "github.com/reasoning-go/reasoning/parsers"
//
// The names, each followed by its aliases in parentheses:
//
//	basic                    Dynamo's <think> parser: starts in content, every <think> opens a block
//	beam                     Dynamo's Harmony: as openai_gptoss, tool calls kept whole in content
//	cohere_command3          <|START_THINKING|>…<|END_THINKING|>, answer markers and citations dropped, actions kept; starts in content
//	cohere_command4          as cohere_command3, <|START_TEXT|> answers too; starts in reasoning
//	deepseek_r1              <think>…</think>, starts in reasoning, one block (nemotron_nano, deepseek_v3_1, deepseek_v3_2)
//	deepseek_v3              deepseek_r1 with thinking/enable_thinking on, else identity (default off)
//	deepseek_v4              <think>…</think>, <｜DSML｜tool_calls> ends reasoning, blocks interleave; thinking default on (deepseekv4)
//	deepseek_v41             deepseek_v4 with the spaced <｜DSML｜ calls> opener
//	ernie45                  <think>…</think>, <response> wrapper dropped, newlines after </think> dropped
//	gemma4                   <|channel>thought\n…<channel|>, label dropped, <|tool_call> ends reasoning (gemma-4)
//	glm45, glm47             <think>…</think> interleaved blocks, <tool_call> ends reasoning, thinking/enable_thinking
//	granite                  "Here is my thought process:" … "Here is my response:" (and "Here's"), starts in content
//	granite_thinking_parser  <think>…</think> as nemotron_v3, leading content newlines dropped
//	hf                       markers from the model's response_template metadata, read from a tokenizer.Configured (response_template)
//	holo2                    deepseek_v3 with thinking on by default
//	hunyuan_a13b             <think>\n…\n</think>\n<answer>\n…\n</answer>, its own phase machine (hunyuan)
//	hy_v3                    <think{suffix}>…</think{suffix}>, suffix from token_suffix, reasoning_effort switch (default no_think)
//	hy_v4                    as hy_v3, suffix from the vocabulary, reasoning_effort default high
//	identity                 no reasoning: everything is content
//	inkling                  typed content blocks: <|content_thinking|> is reasoning, text and tool blocks content
//	interns1                 SGLang's Qwen3 detector, starts in content, the first <think> opens the block
//	k2_horizon               <ifm|think…>…</ifm|think…> chosen by reasoning_effort, <ifm|tool_calls> ends reasoning
//	kimi                     Dynamo's ◁think▷…◁/think▷: starts in content, every ◁think▷ opens a block
//	kimi_k2                  <think>…</think>, <|tool_calls_section_begin|> ends reasoning, thinking/enable_thinking
//	kimi_k25                 Dynamo's <think>…</think> forced into reasoning, <|tool_calls_section_begin|> ends reasoning
//	kimi_k3                  <|open|>think<|sep|>…<|close|>think<|sep|> (several tokens), response wrapper dropped
//	ling3                    as glm45
//	mimo                     as qwen3
//	minicpmv                 as qwen3, reserved tokens dropped, enable_thinking default off
//	minimax_append_think     Dynamo's: <think> put back in front, then as basic
//	minimax_m2               <think>…</think>, <minimax:tool_call> ends reasoning, starts in reasoning (minimax)
//	minimax_m2_append_think  no split: content is "<think>" + the output
//	minimax_m3               <mm:think>…</mm:think>, thinking_mode "enabled" starts in reasoning
//	mistral                  [THINK]…[/THINK] or <think>…</think>, [TOOL_CALLS] ends reasoning, starts in content
//	muse_glimmer             recipient-routed channels, to=self is reasoning, tool calls to content (muse)
//	muse_spark               as muse_glimmer, tool calls as segments (muse_spark_open)
//	nemotron_deci            Dynamo's, as basic
//	nemotron_v3              as qwen3, trailing reasoning whitespace dropped, thinking/enable_thinking (nemotron3, nemotron_3)
//	olmo3                    <think> (only at the start)…</think>
//	openai_gptoss            Harmony channels: analysis is reasoning, final content, tool calls segments (gpt_oss)
//	plamo3                   <|plamo:begin_think:plamo|>…<|plamo:end_think:plamo|>, end of turn ends reasoning
//	poolside_v1              deepseek_v3 whose end check stops at <assistant>
//	qwen3                    <think>…</think>, <tool_call> ends reasoning, enable_thinking switch
//	qwen3_thinking           SGLang's Qwen3 detector forced into reasoning
//	seed_oss                 <seed:think>…</seed:think>, <seed:tool_call> ends reasoning
//	step3                    </think> only: everything before it is reasoning
//	step3p5                  as qwen3, always thinking
//
// Each factory's doc comment gives the family's markers, where a response
// starts, its thinking switch, truncation, repeated markers, streaming and
// its differences from upstream.
package parsers
