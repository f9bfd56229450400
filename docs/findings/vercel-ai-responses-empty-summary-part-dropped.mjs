// Reproduction: @ai-sdk/openai (Responses API) drops a reasoning summary part whose text is empty: a
// reasoning item received with `summary: [{"type": "summary_text", "text": ""}]` goes back in the next
// request with `summary: []`. (The API is not known to refuse that; the item just is not the one received.)
//
//   npm ci --prefix examples/vercel-ai-responses
//   node docs/findings/vercel-ai-responses-empty-summary-part-dropped.mjs
//
// Prints `ok` (exit 0) when the summary goes back as received, `BUG` (exit 1) otherwise.
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
const summary = (text) => ({ type: 'summary_text', text });
const rs = { id: 'rs_00', type: 'reasoning', encrypted_content: 'gAAAAABo-enc==', summary: [summary('')] };
const msg = { id: 'msg_01', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], text: 'Done.' }] };
// A reasoning item whose one summary part has empty text, then a message.
const events = [
  { type: 'response.created', response },
  { type: 'response.output_item.added', output_index: 0, item: { ...rs, encrypted_content: null, summary: [] } },
  { type: 'response.reasoning_summary_part.added', item_id: 'rs_00', output_index: 0, summary_index: 0, part: summary('') },
  { type: 'response.reasoning_summary_text.done', item_id: 'rs_00', output_index: 0, summary_index: 0, text: '' },
  { type: 'response.reasoning_summary_part.done', item_id: 'rs_00', output_index: 0, summary_index: 0, part: summary('') },
  { type: 'response.output_item.done', output_index: 0, item: rs },
  { type: 'response.output_item.added', output_index: 1, item: { ...msg, status: 'in_progress', content: [] } },
  { type: 'response.output_text.delta', item_id: 'msg_01', output_index: 1, content_index: 0, delta: 'Done.' },
  { type: 'response.output_item.done', output_index: 1, item: msg },
  completed([rs, msg]),
];
const { written } = await roundTrip(events);
const reasoning = written.find((i) => i.type === 'reasoning');
console.log(`@ai-sdk/openai ${version}: received ${JSON.stringify(rs)}`);
console.log(`the next request writes ${JSON.stringify(reasoning)}`);
if (JSON.stringify(reasoning?.summary) === JSON.stringify(rs.summary)) {
  console.log('ok');
  process.exit(0);
}
console.log('the summary [""] went back as []: the empty summary part is dropped');
console.log('BUG');
process.exit(1);
