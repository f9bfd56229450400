// Reproduction: the AI SDK's SSE parsing (eventsource-parser, through @ai-sdk/provider-utils) loses the
// last event of a stream whose lines end in a lone CR, which the SSE specification allows: an Anthropic
// stream so framed loses message_stop, and @ai-sdk/anthropic then emits no finish part (no stop reason,
// no usage). The same body with LF or CRLF line ends finishes.
//
//   npm ci --prefix examples/vercel-ai-anthropic
//   node docs/findings/vercel-ai-anthropic-cr-line-ends-last-event-lost.mjs
//
// Prints `ok` (exit 0) when all three framings finish alike, `BUG` (exit 1) otherwise.
// No network: the provider's fetch answers with the body (HTTP 200).
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../examples/vercel-ai-anthropic/package.json', import.meta.url));
const { createAnthropic } = require('@ai-sdk/anthropic');
const { version } = require('@ai-sdk/anthropic/package.json');
const parser = require('eventsource-parser/package.json').version;

const EVENTS = [
  { type: 'message_start', message: {
    id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [],
    stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Done.' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } },
  { type: 'message_stop' },
];
const body = (eol) => EVENTS.map((e) => `event: ${e.type}${eol}data: ${JSON.stringify(e)}${eol}${eol}`).join('');

const finishes = {};
for (const [name, eol] of [['LF', '\n'], ['CRLF', '\r\n'], ['CR', '\r']]) {
  const served = body(eol);
  const model = createAnthropic({
    baseURL: 'http://test.invalid/v1',
    apiKey: 'test',
    fetch: async () => new Response(served, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  }).languageModel('claude-sonnet-4-5');
  const { stream } = await model.doStream({
    prompt: [{ role: 'user', content: [{ type: 'text', text: 'Done?' }] }],
    maxOutputTokens: 1024,
  });
  let finish = null;
  for await (const part of stream) if (part.type === 'finish') finish = part.finishReason;
  finishes[name] = JSON.stringify(finish);
  console.log(`@ai-sdk/anthropic ${version} (eventsource-parser ${parser}), ${name} line ends: finish ${finishes[name]}`);
}
if (new Set(Object.values(finishes)).size > 1) {
  console.log('expected: the same finish part for every line end the SSE specification allows');
  console.log('BUG');
  process.exit(1);
}
console.log('ok');
