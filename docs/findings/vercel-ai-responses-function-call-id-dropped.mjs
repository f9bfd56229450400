// Reproduction: @ai-sdk/openai (Responses API) writes a function call back without its item id: the
// `function_call` output item came as `{"id": "fc_01", "call_id": "call_01", ...}`, and the next request's
// `input` holds `{"type": "function_call", "call_id": "call_01", ...}` with no `id`. The reasoning item
// before it keeps its `rs_` id; the pair the provider matches by id is broken.
//
//   npm ci --prefix examples/vercel-ai-responses
//   node docs/findings/vercel-ai-responses-function-call-id-dropped.mjs
//
// Prints `ok` (exit 0) when the call goes back with its `fc_` id, `BUG` (exit 1) otherwise.
// No network: the provider's fetch answers the first request with the stream and records the second.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../examples/vercel-ai-responses/package.json', import.meta.url));
const { createOpenAI } = require('@ai-sdk/openai');
const { generateText, jsonSchema, streamText, tool } = require('ai');
const { version } = require('@ai-sdk/openai/package.json');

globalThis.AI_SDK_LOG_WARNINGS = false;
const response = { id: 'resp_01', object: 'response', created_at: 1767225600, model: 'gpt-5', output: [], status: 'in_progress', usage: null };
const usage = { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5,
  output_tokens_details: { reasoning_tokens: 3 }, total_tokens: 17 };
const reasoning = { id: 'rs_01', type: 'reasoning', encrypted_content: 'gAAAAABo-enc==', summary: [{ type: 'summary_text', text: 'Look it up.' }] };
const call = { id: 'fc_01', type: 'function_call', status: 'completed', call_id: 'call_01', name: 'get_weather', arguments: '{"city":"Paris"}' };
const events = [
  { type: 'response.created', response },
  { type: 'response.output_item.added', output_index: 0, item: { ...reasoning, encrypted_content: null, summary: [] } },
  { type: 'response.reasoning_summary_part.added', item_id: 'rs_01', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: '' } },
  { type: 'response.reasoning_summary_text.delta', item_id: 'rs_01', output_index: 0, summary_index: 0, delta: 'Look it up.' },
  { type: 'response.reasoning_summary_part.done', item_id: 'rs_01', output_index: 0, summary_index: 0, part: reasoning.summary[0] },
  { type: 'response.output_item.done', output_index: 0, item: reasoning },
  { type: 'response.output_item.added', output_index: 1, item: { ...call, status: 'in_progress', arguments: '' } },
  { type: 'response.function_call_arguments.delta', item_id: 'fc_01', output_index: 1, delta: call.arguments },
  { type: 'response.function_call_arguments.done', item_id: 'fc_01', output_index: 1, arguments: call.arguments },
  { type: 'response.output_item.done', output_index: 1, item: call },
  { type: 'response.completed', response: { ...response, status: 'completed', output: [reasoning, call], usage } },
];
const body = events.map((e, n) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: n })}\n\n`).join('');
const answer = { ...response, id: 'resp_02', status: 'completed', usage,
  output: [{ id: 'msg_02', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Sunny.', annotations: [] }] }] };

let sent = null;
const model = createOpenAI({
  baseURL: 'http://test.invalid/v1',
  apiKey: 'test',
  fetch: async (_url, init) => {
    const request = JSON.parse(init.body);
    if (request.stream) return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    sent = request;
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
  },
}).responses('gpt-5');
const providerOptions = { openai: { store: false, include: ['reasoning.encrypted_content'] } };
const tools = { get_weather: tool({ inputSchema: jsonSchema({ type: 'object', properties: { city: { type: 'string' } } }) }) };
const question = { role: 'user', content: 'Weather in Paris?' };

// The turn as the application holds it after the stream, then the next request with the tool's result.
const first = streamText({ model, messages: [question], tools, providerOptions });
const held = (await first.response).messages;
const result = { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_01', toolName: 'get_weather', output: { type: 'text', value: '18°C' } }] };
await generateText({ model, messages: [question, ...held, result], tools, providerOptions, maxRetries: 0 });

const written = sent.input.find((item) => item.type === 'function_call');
console.log(`@ai-sdk/openai ${version}: received ${JSON.stringify(call)}`);
console.log(`the next request's input: ${JSON.stringify(sent.input)}`);
if (written?.id === call.id) {
  console.log('ok');
  process.exit(0);
}
console.log(`the function_call went back as ${JSON.stringify(written)}: its item id ${JSON.stringify(call.id)} is gone`);
console.log('BUG');
process.exit(1);
