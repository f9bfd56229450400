// Reproduction: @ai-sdk/google joins consecutive text parts of a model turn (and consecutive thought parts)
// into one part. A trailing part `{"text": "", "thoughtSignature": ...}` puts its signature on the joined
// text; a bare `{"thoughtSignature": ...}` part is dropped with its signature. Either way the next request
// does not carry the parts Gemini sent, nor each signature on the part it came on.
//
//   npm ci --prefix examples/vercel-ai-google
//   node docs/findings/vercel-ai-google-parts-joined-signature-moved.mjs
//
// Prints `ok` (exit 0) when each model turn goes back part by part, `BUG` (exit 1) otherwise.
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
const cases = {
  // Two text parts, then a part with empty text that carries the turn's thoughtSignature.
  'signature on an empty text part': [{ text: 'Paris: 18°C.' }, { text: ' Oslo: 4°C.' }, { text: '', thoughtSignature: 'c2lnLWFuc3dlcg==' }],
  // The same with the signature-only part as a bare {thoughtSignature}.
  'signature-only part': [{ text: 'Paris: 18°C.' }, { text: ' Oslo: 4°C.' }, { thoughtSignature: 'c2lnLWFuc3dlcg==' }],
  // Two thought parts, then the answer.
  'thought parts': [{ text: '**Weather**', thought: true }, { text: ' Look it up.', thought: true, thoughtSignature: 'c2ln' }, { text: 'Sunny.' }],
};
let bug = false;
console.log(`@ai-sdk/google ${version}:`);
for (const [name, received] of Object.entries(cases)) {
  const contents = await roundTrip([chunk(received.slice(0, 2)), chunk(received.slice(2), { finishReason: 'STOP' })],
    (held) => [...held, { role: 'user', content: 'Thanks.' }]);
  const written = contents[1]?.parts;
  const same = JSON.stringify(written) === JSON.stringify(received);
  bug ||= !same;
  console.log(`${name}: received ${JSON.stringify(received)}`);
  console.log(`  the next request writes ${JSON.stringify(written)}${same ? '' : ': not the parts received'}`);
}
console.log(bug ? 'BUG' : 'ok');
process.exit(bug ? 1 : 0);
