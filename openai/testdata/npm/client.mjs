// The npm openai client against the URL given as the first argument: one
// streamed chat completion with two choices and one plain one, printed as
// JSON for openai/npm_test.go. It prints what the client hands its caller:
// the fields each delta and message carry, as parsed chunks keep them.
import OpenAI from 'openai';

const client = new OpenAI({ baseURL: process.argv[2] + '/v1', apiKey: 'none', maxRetries: 0 });
const out = { stream: {}, message: null, error: null };

const stream = await client.chat.completions.create({
  model: 'Qwen/Qwen3-8B',
  n: 2,
  stream: true,
  stream_options: { include_usage: true },
  messages: [{ role: 'user', content: 'What is 2+2?' }],
});
for await (const chunk of stream) {
  for (const choice of chunk.choices) {
    const s = (out.stream[choice.index] ??= { reasoning: '', reasoning_content: '', content: '', tools: '', finish: '' });
    s.reasoning += choice.delta.reasoning ?? '';
    s.reasoning_content += choice.delta.reasoning_content ?? '';
    s.content += choice.delta.content ?? '';
    for (const tc of choice.delta.tool_calls ?? []) {
      s.tools += (tc.function?.name ?? '') + (tc.function?.arguments ?? '');
    }
    s.finish = choice.finish_reason ?? s.finish;
  }
  if (chunk.usage) out.usage = chunk.usage.total_tokens;
}

const completion = await client.chat.completions.create({
  model: 'Qwen/Qwen3-8B',
  messages: [{ role: 'user', content: 'Hi' }],
});
out.message = completion.choices[0].message;

try {
  await client.chat.completions.create({ model: 'fail', messages: [] });
} catch (e) {
  out.error = { status: e.status, message: e.message, requestID: e.headers?.get?.('x-request-id') ?? null };
}
console.log(JSON.stringify(out));
