// Reproduction: @ai-sdk/google makes up a toolCallId (its generateId) for a functionCall that came without
// an `id`, and writes that made-up id into the next request: `functionCall.id` on the model part (beside
// the part's thoughtSignature) and `functionResponse.id` on the answer. The model part goes back changed.
// How Gemini treats an id it never issued on a signed part is not known.
//
//   npm ci --prefix examples/vercel-ai-google
//   node docs/findings/vercel-ai-google-call-ids-made-up.mjs
//
// Prints `ok` (exit 0) when the call goes back without an id, as received, `BUG` (exit 1) otherwise.
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
// A signed call without an `id` (gemini-2.5 models send none).
const received = { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnLWNhbGw=' };
let held;
const contents = await roundTrip([chunk([received], { finishReason: 'STOP' })], (messages) => {
  held = messages;
  const call = messages[0].content.find((p) => p.type === 'tool-call');
  return [messages[0], { role: 'tool', content: [{ type: 'tool-result', toolCallId: call.toolCallId, toolName: 'get_weather', output: { type: 'text', value: '18°C' } }] }];
});
const call = held[0].content.find((p) => p.type === 'tool-call');
console.log(`@ai-sdk/google ${version}: received ${JSON.stringify(received)}`);
console.log(`streamText's tool call has toolCallId ${JSON.stringify(call.toolCallId)}`);
console.log(`the next request writes ${JSON.stringify(contents.slice(1))}`);
const written = contents[1]?.parts?.[0]?.functionCall;
if (written && !('id' in written)) {
  console.log('ok');
  process.exit(0);
}
console.log(`the functionCall goes back with an id Gemini never sent (${JSON.stringify(written?.id)}), and so does its functionResponse`);
console.log('BUG');
process.exit(1);
