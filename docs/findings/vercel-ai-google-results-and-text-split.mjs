// Reproduction: @ai-sdk/google writes the tool results of a turn and the user's text that comes with them as
// two consecutive `user` contents: one holding the functionResponse parts, then one holding the text. The
// harness's contract wants one user content, responses first, then the text. Gemini is not known to refuse
// two consecutive user contents.
//
//   npm ci --prefix examples/vercel-ai-google
//   node docs/findings/vercel-ai-google-results-and-text-split.mjs
//
// Prints `ok` (exit 0) when results and text go as one content, `BUG` (exit 1) otherwise.
// No network: the provider's fetch answers the first request with the stream and records the second.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../examples/vercel-ai-google/package.json', import.meta.url));
const { createGoogleGenerativeAI } = require('@ai-sdk/google');
const { generateText, jsonSchema, streamText, tool } = require('ai');
const { version } = require('@ai-sdk/google/package.json');

globalThis.AI_SDK_LOG_WARNINGS = false;
const usageMetadata = { promptTokenCount: 96, candidatesTokenCount: 41, totalTokenCount: 331, thoughtsTokenCount: 194 };
const chunk = (parts, extra = {}) => ({ candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }],
  usageMetadata, modelVersion: 'gemini-2.5-flash', responseId: 'Xk3aZ' });
const answer = { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 }], usageMetadata };
let body = '';
let sent = null;
const model = createGoogleGenerativeAI({
  baseURL: 'http://test.invalid/v1beta',
  apiKey: 'test',
  fetch: async (url, init) => {
    if (String(url).includes('streamGenerateContent')) {
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    }
    sent = JSON.parse(init.body);
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
  },
}).languageModel('gemini-2.5-flash');
const question = { role: 'user', content: 'Weather in Paris?' };
const tools = { get_weather: tool({ inputSchema: jsonSchema({ type: 'object', properties: { city: { type: 'string' } } }) }) };

/** Streams `chunks` with streamText, then sends the turn as the application holds it (and `after`); returns the request's contents. */
async function roundTrip(chunks, after = (held) => held) {
  body = chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join('');
  const first = streamText({ model, messages: [question], tools });
  const held = (await first.response).messages;
  await generateText({ model, messages: [question, ...after(held)], tools, maxRetries: 0 });
  return sent.contents;
}
const received = { functionCall: { id: 'fc_01', name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnLWNhbGw=' };
// The user answers the call and says something in the same message (the tool result and the input box's text).
const contents = await roundTrip([chunk([received], { finishReason: 'STOP' })], (messages) => [
  messages[0],
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'fc_01', toolName: 'get_weather', output: { type: 'text', value: '18°C' } }] },
  { role: 'user', content: 'And Oslo?' },
]);
const after = contents.slice(2);
console.log(`@ai-sdk/google ${version}: the contents after the model turn: ${JSON.stringify(after)}`);
if (after.length === 1 && after[0].role === 'user') {
  console.log('ok');
  process.exit(0);
}
console.log(`the results and the text went as ${after.length} consecutive ${JSON.stringify(after.map((c) => c.role))} contents, not one`);
console.log('BUG');
process.exit(1);
