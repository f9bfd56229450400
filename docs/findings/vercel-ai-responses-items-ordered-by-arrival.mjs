// Reproduction: @ai-sdk/openai (Responses API) orders a turn's output items by the arrival of their
// events, not by their output_index: a message or reasoning item where its response.output_item.added
// arrived, a function call where its response.output_item.done arrived. Two parallel calls whose done
// events arrive in the other order come back (and go back in the next request's input) swapped.
//
//   npm ci --prefix examples/vercel-ai-responses
//   node docs/findings/vercel-ai-responses-items-ordered-by-arrival.mjs
//
// Prints `ok` (exit 0) when the calls keep their output_index order, `BUG` (exit 1) otherwise.
// No network: the provider's fetch answers the first request with the stream and records the second.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../examples/vercel-ai-responses/package.json', import.meta.url));
const { createOpenAI } = require('@ai-sdk/openai');
const { generateText, streamText } = require('ai');
const { version } = require('@ai-sdk/openai/package.json');

globalThis.AI_SDK_LOG_WARNINGS = false;
const response = { id: 'resp_01', object: 'response', created_at: 1767225600, model: 'gpt-5', output: [], status: 'in_progress', usage: null };
const usage = { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5,
  output_tokens_details: { reasoning_tokens: 3 }, total_tokens: 17 };
const completed = (output) => ({ type: 'response.completed', response: { ...response, status: 'completed', output, usage } });
const answer = { ...response, id: 'resp_02', status: 'completed', usage,
  output: [{ id: 'msg_02', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'ok', annotations: [] }] }] };
let body = '';
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
const question = { role: 'user', content: 'Go.' };

/** Streams `events` with streamText; returns the turn's content and the items the next request writes for it. */
async function roundTrip(events) {
  body = events.map((e, n) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: n })}\n\n`).join('');
  const first = streamText({ model, messages: [question], providerOptions });
  const content = await first.content;
  const held = (await first.response).messages;
  await generateText({ model, messages: [question, ...held, { role: 'user', content: 'And then?' }], providerOptions, maxRetries: 0 });
  return { content, written: sent.input.slice(1, -1) };
}
const fc = (n, status) => ({ id: `fc_0${n}`, type: 'function_call', status, call_id: `call_0${n}`, name: 'get_weather',
  arguments: status === 'completed' ? `{"city":"${n === 1 ? 'Paris' : 'Oslo'}"}` : '' });
// Two parallel calls at output_index 1 and 2; the second finishes first.
const events = [
  { type: 'response.created', response },
  { type: 'response.output_item.added', output_index: 0, item: { id: 'rs_00', type: 'reasoning', encrypted_content: null, summary: [] } },
  { type: 'response.output_item.done', output_index: 0, item: { id: 'rs_00', type: 'reasoning', encrypted_content: 'gA==', summary: [] } },
  { type: 'response.output_item.added', output_index: 1, item: fc(1, 'in_progress') },
  { type: 'response.output_item.added', output_index: 2, item: fc(2, 'in_progress') },
  { type: 'response.output_item.done', output_index: 2, item: fc(2, 'completed') },
  { type: 'response.output_item.done', output_index: 1, item: fc(1, 'completed') },
  completed([{ id: 'rs_00', type: 'reasoning', encrypted_content: 'gA==', summary: [] }, fc(1, 'completed'), fc(2, 'completed')]),
];
const { content } = await roundTrip(events);
const order = content.filter((p) => p.type === 'tool-call').map((p) => p.toolCallId);
console.log(`@ai-sdk/openai ${version}: output_index order call_01, call_02; streamText's content holds ${JSON.stringify(order)}`);
console.log(`the request after it writes ${JSON.stringify(sent.input.filter((i) => i.type === 'function_call').map((i) => i.call_id))}`);
if (JSON.stringify(order) === '["call_01","call_02"]') {
  console.log('ok');
  process.exit(0);
}
console.log('the calls are in the order their output_item.done arrived, not in output_index order');
console.log('BUG');
process.exit(1);
