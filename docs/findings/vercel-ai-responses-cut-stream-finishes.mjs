// Reproduction: the AI SDK (ai with @ai-sdk/openai, Responses API) returns a Responses stream that ended
// before `response.completed` as a finished answer: streamText resolves with the partial text and
// finishReason "other", and no error reaches onError. An empty body resolves the same way.
//
//   npm ci --prefix examples/vercel-ai-responses
//   node docs/findings/vercel-ai-responses-cut-stream-finishes.mjs
//
// Prints `ok` (exit 0) when the cut stream is reported as an error, `BUG` (exit 1) otherwise.
// No network: the provider's fetch answers with the cut body (HTTP 200).
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../examples/vercel-ai-responses/package.json', import.meta.url));
const { createOpenAI } = require('@ai-sdk/openai');
const { streamText } = require('ai');
const { version } = require('@ai-sdk/openai/package.json');

globalThis.AI_SDK_LOG_WARNINGS = false;
const event = (data) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
const response = { id: 'resp_01', object: 'response', created_at: 1767225600, model: 'gpt-5', output: [], status: 'in_progress', usage: null };
const item = { id: 'msg_01', type: 'message', status: 'in_progress', role: 'assistant', content: [] };
// The response starts, a message item streams part of its text; then the body ends: no output_item.done, no response.completed.
const cut = [
  { type: 'response.created', response, sequence_number: 0 },
  { type: 'response.output_item.added', output_index: 0, item, sequence_number: 1 },
  { type: 'response.content_part.added', item_id: 'msg_01', output_index: 0, content_index: 0,
    part: { type: 'output_text', annotations: [], text: '' }, sequence_number: 2 },
  { type: 'response.output_text.delta', item_id: 'msg_01', output_index: 0, content_index: 0,
    delta: 'The deploy is safe to', sequence_number: 3 },
].map(event).join('');

let bug = false;
for (const [name, body] of [['cut after a text delta', cut], ['empty body', '']]) {
  const model = createOpenAI({
    baseURL: 'http://test.invalid/v1',
    apiKey: 'test',
    fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  }).responses('gpt-5');
  const errors = [];
  let outcome;
  try {
    const result = streamText({ model, prompt: 'Is the deploy safe?', onError: ({ error }) => errors.push(error) });
    outcome = `text ${JSON.stringify(await result.text)}, finishReason ${JSON.stringify(await result.finishReason)}`;
  } catch (err) {
    errors.push(err);
  }
  if (errors.length > 0) {
    console.log(`@ai-sdk/openai ${version}, ${name}: raised ${errors[0]}`);
  } else {
    bug = true;
    console.log(`@ai-sdk/openai ${version}, ${name}: streamText resolved with ${outcome}, without an error`);
  }
}
if (bug) {
  console.log('expected: an error, since the stream ended before response.completed');
  console.log('BUG');
  process.exit(1);
}
console.log('ok');
