// The npm openai client's Responses API against the URL given as the first
// argument: one streamed response through the SDK's ResponseStream (which
// assembles items by output_index), one plain response and an error,
// printed as JSON for openai/npm_test.go.
import OpenAI from 'openai';

const client = new OpenAI({ baseURL: process.argv[2] + '/v1', apiKey: 'none', maxRetries: 0 });
const params = { model: 'Qwen/Qwen3-8B', input: 'Weather in Paris?', reasoning: { effort: 'high' } };
const out = { reasoning: '', text: '', stream: null, message: null, error: null };

const stream = client.responses.stream(params);
stream.on('response.reasoning_text.delta', (e) => { out.reasoning += e.delta; });
stream.on('response.output_text.delta', (e) => { out.text += e.delta; });
out.stream = (await stream.finalResponse()).output;
out.message = (await client.responses.create(params)).output;
try {
  await client.responses.create({ ...params, model: 'fail' });
} catch (e) {
  out.error = { status: e.status, message: e.message, requestID: e.headers?.get?.('x-request-id') ?? null };
}
console.log(JSON.stringify(out));
