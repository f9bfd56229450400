// Reproduction: @ai-sdk/openai (Responses API) holds a message item as one text part: the deltas of
// all its output_text parts (content_index 0, 1, ...) join into one text, and the next request writes the
// item back with one output_text part. The parts the provider sent, and their boundaries, are gone.
//
//   npm ci --prefix examples/vercel-ai-responses
//   node docs/findings/vercel-ai-responses-message-parts-joined.mjs
//
// Prints `ok` (exit 0) when the message goes back with its two parts, `BUG` (exit 1) otherwise.
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
const rs = { id: 'rs_00', type: 'reasoning', encrypted_content: 'gA==', summary: [] };
const part = (text) => ({ type: 'output_text', annotations: [], logprobs: [], text });
const msg = (status, parts) => ({ id: 'msg_01', type: 'message', status, role: 'assistant', content: parts });
// One message item with two output_text parts: "Paris: 18°C." and " Oslo: 4°C."
const events = [
  { type: 'response.created', response },
  { type: 'response.output_item.added', output_index: 0, item: { ...rs, encrypted_content: null } },
  { type: 'response.output_item.done', output_index: 0, item: rs },
  { type: 'response.output_item.added', output_index: 1, item: msg('in_progress', []) },
  { type: 'response.content_part.added', item_id: 'msg_01', output_index: 1, content_index: 0, part: part('') },
  { type: 'response.output_text.delta', item_id: 'msg_01', output_index: 1, content_index: 0, delta: 'Paris: 18°C.' },
  { type: 'response.output_text.done', item_id: 'msg_01', output_index: 1, content_index: 0, text: 'Paris: 18°C.' },
  { type: 'response.content_part.done', item_id: 'msg_01', output_index: 1, content_index: 0, part: part('Paris: 18°C.') },
  { type: 'response.content_part.added', item_id: 'msg_01', output_index: 1, content_index: 1, part: part('') },
  { type: 'response.output_text.delta', item_id: 'msg_01', output_index: 1, content_index: 1, delta: ' Oslo: 4°C.' },
  { type: 'response.output_text.done', item_id: 'msg_01', output_index: 1, content_index: 1, text: ' Oslo: 4°C.' },
  { type: 'response.content_part.done', item_id: 'msg_01', output_index: 1, content_index: 1, part: part(' Oslo: 4°C.') },
  { type: 'response.output_item.done', output_index: 1, item: msg('completed', [part('Paris: 18°C.'), part(' Oslo: 4°C.')]) },
  completed([rs, msg('completed', [part('Paris: 18°C.'), part(' Oslo: 4°C.')])]),
];
const { content, written } = await roundTrip(events);
const texts = content.filter((p) => p.type === 'text').map((p) => p.text);
const message = written.find((i) => i.role === 'assistant');
const sentParts = (message?.content ?? []).map((p) => p.text);
console.log(`@ai-sdk/openai ${version}: received one message item with parts ["Paris: 18°C."," Oslo: 4°C."]`);
console.log(`streamText's content holds the texts ${JSON.stringify(texts)}; the next request writes ${JSON.stringify(message)}`);
if (JSON.stringify(sentParts) === '["Paris: 18°C."," Oslo: 4°C."]') {
  console.log('ok');
  process.exit(0);
}
console.log('the part boundary is gone: one text, written back as one output_text part');
console.log('BUG');
process.exit(1);
