// The npm @anthropic-ai/sdk client against the URL given as the first
// argument: one streamed message through the SDK's MessageStream (which
// assembles blocks by index), one plain message and an error, printed as
// JSON for openai/npm_test.go.
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic({ baseURL: process.argv[2], apiKey: 'none', maxRetries: 0 });
const params = {
  model: 'Qwen/Qwen3-8B',
  max_tokens: 1024,
  thinking: { type: 'enabled', budget_tokens: 1024 },
  messages: [{ role: 'user', content: 'Weather in Paris?' }],
};
const out = { thinking: '', stream: null, message: null, error: null };

const stream = client.messages.stream(params);
stream.on('thinking', (delta) => { out.thinking += delta; });
out.stream = (await stream.finalMessage()).content;
out.message = (await client.messages.create(params)).content;
try {
  await client.messages.create({ ...params, model: 'fail' });
} catch (e) {
  out.error = { status: e.status, message: e.message, requestID: e.requestID ?? null };
}
console.log(JSON.stringify(out));
