// Reproduction: the AI SDK (ai with @ai-sdk/anthropic) returns a Messages stream that ended before
// `message_stop` as a finished answer: streamText resolves with the partial text and finishReason
// "other", and no error reaches onError. (A body with no output at all does raise: NoOutputGeneratedError.)
//
//   npm ci --prefix examples/vercel-ai-anthropic
//   node docs/findings/vercel-ai-anthropic-cut-stream-finishes.mjs
//
// Prints `ok` (exit 0) when the cut stream is reported as an error, `BUG` (exit 1) otherwise.
// No network: the provider's fetch answers with the cut body (HTTP 200).
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../examples/vercel-ai-anthropic/package.json', import.meta.url));
const { createAnthropic } = require('@ai-sdk/anthropic');
const { streamText } = require('ai');
const { version } = require('@ai-sdk/anthropic/package.json');

globalThis.AI_SDK_LOG_WARNINGS = false;
const event = (data) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
// message_start, one text block started, streamed and stopped; then the body ends: no message_delta, no message_stop.
const body = event({
  type: 'message_start',
  message: {
    id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [],
    stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 },
  },
}) + event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })
  + event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'The deploy is safe to' } })
  + event({ type: 'content_block_stop', index: 0 });

const model = createAnthropic({
  baseURL: 'http://test.invalid/v1',
  apiKey: 'test',
  fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
}).languageModel('claude-sonnet-4-5');
const errors = [];
let text;
let finishReason;
try {
  const result = streamText({ model, prompt: 'Is the deploy safe?', maxOutputTokens: 1024, onError: ({ error }) => errors.push(error) });
  text = await result.text;
  finishReason = await result.finishReason;
} catch (err) {
  errors.push(err);
}
if (errors.length > 0) {
  console.log(`@ai-sdk/anthropic ${version}: the cut stream raised ${errors[0]}`);
  console.log('ok');
  process.exit(0);
}
console.log(`@ai-sdk/anthropic ${version}: streamText resolved with text ${JSON.stringify(text)}, `
  + `finishReason ${JSON.stringify(finishReason)}, without an error`);
console.log('expected: an error, since the stream ended before message_stop');
console.log('BUG');
process.exit(1);
