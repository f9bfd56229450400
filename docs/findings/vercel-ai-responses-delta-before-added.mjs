// Reproduction: @ai-sdk/openai (Responses API) loses or crashes on a delta that arrives before its item's
// `response.output_item.added`, which the format allows (a delta names its item by `item_id`):
// - a message's text delta before the message is added: streamText reports "text part msg_01 not found"
//   and the text comes back without that piece;
// - a reasoning summary part (summary_index 1) added before its reasoning item: the provider's stream
//   transform throws a TypeError and the whole stream fails.
//
//   npm ci --prefix examples/vercel-ai-responses
//   node docs/findings/vercel-ai-responses-delta-before-added.mjs
//
// Prints `ok` (exit 0) when both streams come back whole, `BUG` (exit 1) otherwise.
// No network: the provider's fetch answers with the body (HTTP 200).
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../examples/vercel-ai-responses/package.json', import.meta.url));
const { createOpenAI } = require('@ai-sdk/openai');
const { streamText } = require('ai');
const { version } = require('@ai-sdk/openai/package.json');

globalThis.AI_SDK_LOG_WARNINGS = false;
const body = (events) => events.map((e, n) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: n })}\n\n`).join('');
const response = { id: 'resp_01', object: 'response', created_at: 1767225600, model: 'gpt-5', output: [], status: 'in_progress', usage: null };
const usage = { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5,
  output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 17 };
const message = (status, text) => ({ id: 'msg_01', type: 'message', status, role: 'assistant',
  content: text == null ? [] : [{ type: 'output_text', annotations: [], text }] });
const reasoning = (summary) => ({ id: 'rs_01', type: 'reasoning', summary: summary.map((text) => ({ type: 'summary_text', text })) });
const completed = (output) => ({ type: 'response.completed', response: { ...response, status: 'completed', output, usage } });

const cases = {
  // "Hello, " arrives before the message item is added.
  'text delta before its message is added': [body([
    { type: 'response.created', response },
    { type: 'response.output_text.delta', item_id: 'msg_01', output_index: 0, content_index: 0, delta: 'Hello, ' },
    { type: 'response.output_item.added', output_index: 0, item: message('in_progress') },
    { type: 'response.output_text.delta', item_id: 'msg_01', output_index: 0, content_index: 0, delta: 'world.' },
    { type: 'response.output_item.done', output_index: 0, item: message('completed', 'Hello, world.') },
    completed([message('completed', 'Hello, world.')]),
  ]), 'Hello, world.'],
  // The second summary part opens before the reasoning item is added.
  'summary part before its reasoning item is added': [body([
    { type: 'response.created', response },
    { type: 'response.reasoning_summary_part.added', item_id: 'rs_01', output_index: 0, summary_index: 1, part: { type: 'summary_text', text: '' } },
    { type: 'response.output_item.added', output_index: 0, item: reasoning([]) },
    { type: 'response.output_item.done', output_index: 0, item: reasoning(['', '']) },
    { type: 'response.output_item.added', output_index: 1, item: message('in_progress') },
    { type: 'response.output_text.delta', item_id: 'msg_01', output_index: 1, content_index: 0, delta: 'Done.' },
    { type: 'response.output_item.done', output_index: 1, item: message('completed', 'Done.') },
    completed([reasoning(['', '']), message('completed', 'Done.')]),
  ]), 'Done.'],
};

let bug = false;
for (const [name, [served, want]] of Object.entries(cases)) {
  const model = createOpenAI({
    baseURL: 'http://test.invalid/v1',
    apiKey: 'test',
    fetch: async () => new Response(served, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  }).responses('gpt-5');
  const errors = [];
  let text;
  try {
    text = await streamText({ model, prompt: 'Hi', onError: ({ error }) => errors.push(error) }).text;
  } catch (err) {
    errors.push(err);
  }
  const whole = errors.length === 0 && text === want;
  bug ||= !whole;
  console.log(`@ai-sdk/openai ${version}, ${name}: text ${JSON.stringify(text)}, errors ${JSON.stringify(errors.map(String))}`
    + (whole ? '' : ` (expected ${JSON.stringify(want)}, no error)`));
}
console.log(bug ? 'BUG' : 'ok');
process.exit(bug ? 1 : 0);
