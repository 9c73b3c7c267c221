// Package parsers holds one file per model family and registers every name
// with reasoning.Default when it is imported for its side effect:
//
//	import _ "github.com/reasoning-go/reasoning/parsers"
//
// The names, each followed by its aliases in parentheses:
//
//	apertus                     <|inner_prefix|>…<|inner_suffix|>, starts in content, one block; a stray closer is dropped
//	apertus2509                 <|inner_prefix|>…<|inner_suffix|> blocks, starts in content; <|tools_prefix|>[…<|tools_suffix|> inside a block goes to content in place
//	apriel                      [BEGIN FINAL RESPONSE] only: before it reasoning (header dropped), after it content, [END FINAL RESPONSE], <|end|> and </s> dropped, whitespace around both trimmed
//	basic                       <think>…</think>, starts in content, every <think> opens a block (base)
//	beam                        Harmony, as openai_gptoss; tool calls kept whole in content
//	cohere_cmd                  <|START_THINKING|>…<|END_THINKING|>, starts in content, no markup stripped
//	cohere_command3             <|START_THINKING|>…<|END_THINKING|>, starts in content; answer markers and citations dropped, actions kept
//	cohere_command4             as cohere_command3, <|START_TEXT|> answers too; starts in reasoning
//	deepseek_r1                 <think>…</think>, starts in reasoning, one block (nemotron_nano, deepseek_v3_1, deepseek_v3_2, kimi_thinking, qwen_qwq)
//	deepseek_v3                 as deepseek_r1 with thinking/enable_thinking on, else identity (default off) (deepseek_v31)
//	deepseek_v32                as deepseek_v3 (LMDeploy's): thinking/enable_thinking on → deepseek_r1, else identity (default off) (deepseek-v3.2)
//	deepseek_v4                 <think>…</think>, <｜DSML｜tool_calls> ends reasoning, blocks interleave; thinking on by default; reasoning_effort "none" turns it off (content; <think> still opens) (deepseekv4)
//	deepseek_v41                as deepseek_v4, with the spaced <｜DSML｜ calls> opener
//	ernie45                     <think>…</think>, starts in reasoning, <response> wrapper dropped in content
//	exaone4                     as deepseek_r1 with enable_thinking on, else identity (default off)
//	gemma4                      <|channel>thought\n…<channel|>, label dropped, <|tool_call> ends reasoning, starts in content; enable_thinking decides only the end check at a turn boundary (gemma-4)
//	gigachat35                  as deepseek_r1 with reasoning on, else identity (default off)
//	gigachat35_thinking         as gigachat35, reasoning on by default
//	glm45                       <think>…</think> interleaved blocks, <tool_call> ends reasoning; thinking/enable_thinking (on; off → identity)
//	glm47                       as glm45
//	granite                     "Here is my thought process:" … "Here is my response:" (and "Here's"), plain text, starts in content
//	granite_thinking_parser     <think>…</think> as nemotron_v3, <tool_call> ends reasoning, leading content newlines dropped; enable_thinking (on)
//	hf                          markers and start from the model's response_template metadata, read from a tokenizer.Configured (content when no prompt says otherwise); enable_thinking decides the end check (response_template)
//	holo2                       as deepseek_v3, thinking on by default
//	hunyuan_a13b                <think>\n…\n</think>\n<answer>\n…\n</answer>, newlines optional, wrapper dropped, starts in content (hunyuan)
//	hy_v3                       <think{suffix}>…</think{suffix}>, suffix from tokenizer_config token_suffix; reasoning_effort (default "no_think" → identity)
//	hy_v4                       as hy_v3, suffix from the vocabulary's structural tokens; reasoning_effort (default "high"; "no_think" → identity)
//	hyperclovax_seed_think      <think>…</think>, newlines around reasoning and after </think> dropped; thinking (off → identity)
//	hyperclovax_seed_think_14b  /think\n (only at the start)…<|im_end|>\n<|im_start|>assistant, starts in content; force_reasoning (reasoning), skip_reasoning (all content); content verbatim
//	identity                    no reasoning: everything is content (passthrough)
//	inkling                     typed content blocks: <|content_thinking|> is reasoning; text, tool-text and tool-error blocks content, tool JSON kept in content
//	intern_s1                   <think>…</think>, starts in reasoning; <|action_start|>…<|action_end|> blocks inside reasoning go to content in place; enable_thinking (on)
//	interns1                    SGLang's Qwen3 detector: <think>…</think>, <tool_call>, starts in content, the first <think> opens the block; enable_thinking (on) (dots, nanbeige)
//	iquest                      <think>…</think>, starts in reasoning unless the prompt closed it, whitespace around reasoning and before content dropped
//	iquest_coder_v2             as holo2 (thinking/enable_thinking, on), its end check stops at <|iquestcoder_assistant|>
//	iquest_q1                   SGLang's detector: <think> (only at the start)…</think>, starts in reasoning, no implicit end; thinking/enable_thinking (on)
//	k2_horizon                  <ifm|think…>…</ifm|think…> chosen by reasoning_effort ("high", "medium", "low"; any other fails at New), <ifm|tool_calls> ends reasoning (k2_v3)
//	kimi                        Dynamo's and SGLang's ◁think▷…◁/think▷, starts in content, every ◁think▷ opens a block
//	kimi_k2                     <think>…</think>, <|tool_calls_section_begin|> ends reasoning and stays in content; thinking/enable_thinking (on)
//	kimi_k25                    <think>…</think> forced into reasoning, <|tool_calls_section_begin|> ends reasoning, every <think> in content opens a block
//	kimi_k3                     <|open|>think<|sep|>…<|close|>think<|sep|> (several tokens), response wrappers dropped; thinking, else enable_thinking (on)
//	kolibri1                    as qwen3; reasoning_effort decides first ("none" → off), then enable_thinking (on; only false turns it off)
//	ling3                       as glm45
//	longcat                     <longcat_think>…</longcat_think>, starts in reasoning, one block (deepseek_r1 with LongCat's markers)
//	mimo                        as qwen3
//	minicpmv                    as qwen3, reserved tokens dropped; enable_thinking default off (content; <think> still opens)
//	minimax_append_think        <think> put back in front, then as basic
//	minimax_m1                  <think>\n (only at the start)…\n</think>\n, starts in content
//	minimax_m2                  <think>…</think>, <minimax:tool_call> ends reasoning, starts in reasoning (minimax)
//	minimax_m2_append_think     no split: content is <think> + the output (glm45_append_think)
//	minimax_m2_sanitized        as minimax_m2, with spaced-out file names in content joined (main . py → main.py)
//	minimax_m3                  <mm:think>…</mm:think>; thinking_mode "enabled" starts in reasoning (default off: starts in content)
//	mistral                     [THINK]…[/THINK] (v13) or <think>…</think> (v11), [TOOL_CALLS] ends reasoning, starts in content
//	muse_glimmer                recipient-routed channels: to=self is reasoning, to=user content, tool calls to content (muse)
//	muse_spark                  as muse_glimmer, tool calls as segments (muse_spark_open)
//	nemotron                    <think> (only at the start)…</think>, starts in content; both tags or no reasoning
//	nemotron_deci               as basic
//	nemotron_v3                 as qwen3, trailing reasoning whitespace dropped; enable_thinking (on) (nemotron3, nemotron_3, nano_v3)
//	olmo3                       <think> (only at the start)…</think>, starts in reasoning
//	openai_gptoss               Harmony channels: analysis is reasoning, final and plain commentary content, messages with a recipient segments (gpt_oss)
//	openpangu_v2                as deepseek_r1 with think on, else identity (default on)
//	pangu                       <think>…</think> or openPangu's [unused16]…[unused17], starts in reasoning, one block
//	plamo3                      <|plamo:begin_think:plamo|>…<|plamo:end_think:plamo|>, end of turn and <|plamo:begin_tool_requests:plamo|> end reasoning; enable_thinking (on)
//	poolside_v1                 as deepseek_v3 (default off), its end check stops at <assistant> (laguna)
//	qwen3                       <think>…</think>, <tool_call> ends reasoning and stays in content; enable_thinking (on; off → identity) (qwen3_5, berrylm)
//	qwen3_thinking              SGLang's Qwen3 detector forced into reasoning: <think>…</think>, <tool_call>; enable_thinking (on)
//	rwkv                        <think>…</think> as text; starts in reasoning only when enable_thinking is true
//	seed_oss                    <seed:think>…</seed:think>, <seed:tool_call> ends reasoning; enable_thinking (on)
//	solar_open2                 <|think:start|>…<|think:end|>, starts in reasoning; <|tool_call:start|>…<|tool_call:end|> inside reasoning goes to content in place; reasoning_effort (closed below medium → identity)
//	step3                       </think> only: everything before it is reasoning
//	step3p5                     <think>…</think>, starts in reasoning, one newline dropped on each side of </think>
//	telechat                    <think>…</think>, starts in reasoning, one block; enable_thinking then thinking (on; off → identity) (xingchen4, xing4_0)
//	telechat4                   SGLang's TeleChat4 detector: <think>…</think>, starts in content, the first <think> opens the block; enable_thinking (on)
//
// The list is each name's reasoning.Info, as register.go declares it
// (reasoning.Default.Info gives it at run time); make docs writes it here
// and in the README. Each factory's doc comment gives the family's markers,
// where a response starts, its thinking switch, truncation, repeated
// markers, streaming and its differences from upstream.
package parsers
