// Package parsers holds one file per model family and registers every name
// with reasoning.Default when it is imported for its side effect:
//
//	import _ "github.com/reasoning-go/reasoning/parsers"
//
// The names, each followed by its aliases in parentheses:
//
//	basic                    <think>…</think>, starts in content, every <think> opens a block
//	beam                     Harmony, as openai_gptoss; tool calls kept whole in content
//	cohere_cmd               <|START_THINKING|>…<|END_THINKING|>, starts in content, no markup stripped
//	cohere_command3          <|START_THINKING|>…<|END_THINKING|>, starts in content; answer markers and citations dropped, actions kept
//	cohere_command4          as cohere_command3, <|START_TEXT|> answers too; starts in reasoning
//	deepseek_r1              <think>…</think>, starts in reasoning, one block (nemotron_nano, deepseek_v3_1, deepseek_v3_2)
//	deepseek_v3              as deepseek_r1 with thinking/enable_thinking on, else identity (default off)
//	deepseek_v4              <think>…</think>, <｜DSML｜tool_calls> ends reasoning, blocks interleave; thinking on by default; reasoning_effort "none" turns it off (content; <think> still opens) (deepseekv4)
//	deepseek_v41             as deepseek_v4, with the spaced <｜DSML｜ calls> opener
//	ernie45                  <think>…</think>, starts in reasoning, <response> wrapper dropped, newlines after </think> dropped
//	gemma4                   <|channel>thought\n…<channel|>, label dropped, <|tool_call> ends reasoning, starts in content; enable_thinking decides only the end check at a turn boundary (gemma-4)
//	glm45                    <think>…</think> interleaved blocks, <tool_call> ends reasoning; thinking/enable_thinking (on; off → identity)
//	glm47                    as glm45
//	granite                  "Here is my thought process:" … "Here is my response:" (and "Here's"), plain text, starts in content
//	granite_thinking_parser  <think>…</think> as nemotron_v3, <tool_call> ends reasoning, leading content newlines dropped; enable_thinking (on)
//	hf                       markers and start from the model's response_template metadata, read from a tokenizer.Configured (content when no prompt says otherwise); enable_thinking decides the end check (response_template)
//	holo2                    as deepseek_v3, thinking on by default
//	hunyuan_a13b             <think>\n…\n</think>\n<answer>\n…\n</answer>, newlines optional, wrapper dropped, starts in content (hunyuan)
//	hy_v3                    <think{suffix}>…</think{suffix}>, suffix from tokenizer_config token_suffix; reasoning_effort (default "no_think" → identity)
//	hy_v4                    as hy_v3, suffix from the vocabulary's structural tokens; reasoning_effort (default "high"; "no_think" → identity)
//	identity                 no reasoning: everything is content
//	inkling                  typed content blocks: <|content_thinking|> is reasoning; text, tool-text and tool-error blocks content, tool JSON kept in content
//	interns1                 SGLang's Qwen3 detector: <think>…</think>, <tool_call>, starts in content, the first <think> opens the block; enable_thinking (on)
//	k2_horizon               <ifm|think…>…</ifm|think…> chosen by reasoning_effort ("high", "medium", "low"; any other fails at New), <ifm|tool_calls> ends reasoning
//	kimi                     Dynamo's and SGLang's ◁think▷…◁/think▷, starts in content, every ◁think▷ opens a block
//	kimi_k2                  <think>…</think>, <|tool_calls_section_begin|> ends reasoning and stays in content; thinking/enable_thinking (on)
//	kimi_k25                 <think>…</think> forced into reasoning, <|tool_calls_section_begin|> ends reasoning, every <think> in content opens a block
//	kimi_k3                  <|open|>think<|sep|>…<|close|>think<|sep|> (several tokens), response wrappers dropped; thinking, else enable_thinking (on)
//	ling3                    as glm45
//	mimo                     as qwen3
//	minicpmv                 as qwen3, reserved tokens dropped; enable_thinking default off (content; <think> still opens)
//	minimax_append_think     <think> put back in front, then as basic
//	minimax_m1               <think>\n (only at the start)…\n</think>\n, starts in content
//	minimax_m2               <think>…</think>, <minimax:tool_call> ends reasoning, starts in reasoning (minimax)
//	minimax_m2_append_think  no split: content is <think> + the output
//	minimax_m2_sanitized     as minimax_m2, with spaced-out file names in content joined (main . py → main.py)
//	minimax_m3               <mm:think>…</mm:think>; thinking_mode "enabled" starts in reasoning (default off: starts in content)
//	mistral                  [THINK]…[/THINK] (v13) or <think>…</think> (v11), [TOOL_CALLS] ends reasoning, starts in content
//	muse_glimmer             recipient-routed channels: to=self is reasoning, to=user content, tool calls to content (muse)
//	muse_spark               as muse_glimmer, tool calls as segments (muse_spark_open)
//	nemotron                 <think> (only at the start)…</think>, starts in content; both tags or no reasoning
//	nemotron_deci            as basic
//	nemotron_v3              as qwen3, trailing reasoning whitespace dropped; thinking/enable_thinking (on) (nemotron3, nemotron_3)
//	olmo3                    <think> (only at the start)…</think>, starts in reasoning
//	openai_gptoss            Harmony channels: analysis is reasoning, final and plain commentary content, messages with a recipient segments (gpt_oss)
//	plamo3                   <|plamo:begin_think:plamo|>…<|plamo:end_think:plamo|>, end of turn and <|plamo:begin_tool_requests:plamo|> end reasoning; enable_thinking (on)
//	poolside_v1              as deepseek_v3 (default off), its end check stops at <assistant>
//	qwen3                    <think>…</think>, <tool_call> ends reasoning and stays in content; enable_thinking (on; off → identity)
//	qwen3_thinking           SGLang's Qwen3 detector forced into reasoning: <think>…</think>, <tool_call>; enable_thinking (on)
//	rwkv                     <think>…</think> as text; starts in reasoning only when enable_thinking is true
//	seed_oss                 <seed:think>…</seed:think>, <seed:tool_call> ends reasoning; enable_thinking (on)
//	step3                    </think> only: everything before it is reasoning
//	step3p5                  as qwen3, always thinking
//
// The list is each name's reasoning.Info, as register.go declares it
// (reasoning.Default.Info gives it at run time); make docs writes it here
// and in the README. Each factory's doc comment gives the family's markers,
// where a response starts, its thinking switch, truncation, repeated
// markers, streaming and its differences from upstream.
package parsers
