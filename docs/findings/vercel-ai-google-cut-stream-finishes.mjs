// Reproduction: the AI SDK (ai with @ai-sdk/google) returns a Gemini stream that ended before any chunk
// with a `finishReason` as a finished answer: streamText resolves with the partial text and finishReason
// "other", and no error reaches onError.
//
//   npm ci --prefix examples/vercel-ai-google
//   node docs/findings/vercel-ai-google-cut-stream-finishes.mjs
//
// Prints `ok` (exit 0) when the cut stream is reported as an error, `BUG` (exit 1) otherwise.
// No network: the provider's fetch answers with the cut body (HTTP 200).
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../examples/vercel-ai-google/package.json', import.meta.url));
const { createGoogleGenerativeAI } = require('@ai-sdk/google');
const { streamText } = require('ai');
const { version } = require('@ai-sdk/google/package.json');

globalThis.AI_SDK_LOG_WARNINGS = false;
const chunk = (text) => `data: ${JSON.stringify({
  candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }],
  usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 4, totalTokenCount: 16 },
  modelVersion: 'gemini-2.5-flash',
})}\r\n\r\n`;
// Two chunks of the answer; then the body ends: no chunk with a finishReason.
const body = chunk('The deploy is ') + chunk('safe to');

const model = createGoogleGenerativeAI({
  baseURL: 'http://test.invalid/v1beta',
  apiKey: 'test',
  fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
}).languageModel('gemini-2.5-flash');
const errors = [];
let text;
let finishReason;
try {
  const result = streamText({ model, prompt: 'Is the deploy safe?', onError: ({ error }) => errors.push(error) });
  text = await result.text;
  finishReason = await result.finishReason;
} catch (err) {
  errors.push(err);
}
if (errors.length > 0) {
  console.log(`@ai-sdk/google ${version}: the cut stream raised ${errors[0]}`);
  console.log('ok');
  process.exit(0);
}
console.log(`@ai-sdk/google ${version}: streamText resolved with text ${JSON.stringify(text)}, `
  + `finishReason ${JSON.stringify(finishReason)}, without an error`);
console.log('expected: an error, since no chunk carried a finishReason');
console.log('BUG');
process.exit(1);
