// Reproduction: @ai-sdk/openai-compatible drops a whole streamed chunk when one
// tool-call fragment in it has no `function` object (the OpenAI spec requires
// only `index` on a streamed tool-call fragment).
//
//   npm ci --prefix examples/vercel-ai-adapter
//   node docs/findings/vercel-ai-fragment-without-function.mjs
//
// Prints `ok` (exit 0) when both calls come back intact, `BUG` (exit 1) otherwise.
// No network: the provider's fetch answers with the bytes below.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../examples/vercel-ai-adapter/package.json', import.meta.url));
const { createOpenAICompatible } = require('@ai-sdk/openai-compatible');

const envelope = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1767225600, model: 'm' };
const chunk = (delta, finish_reason = null) => ({ ...envelope, choices: [{ index: 0, delta, finish_reason }] });
const chunks = [
  chunk({ role: 'assistant', content: null }),
  chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }] }),
  // One chunk, two fragments: the last piece of call 0, and call 1 opened with its id and
  // type only (`function` omitted, as the spec allows); its name follows in the next chunk.
  chunk({ tool_calls: [
    { index: 0, function: { arguments: '"Paris"}' } },
    { index: 1, id: 'call_b', type: 'function' },
  ] }),
  chunk({ tool_calls: [{ index: 1, function: { name: 'get_time', arguments: '{}' } }] }),
  chunk({}, 'tool_calls'),
];
const body = chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n';

const provider = createOpenAICompatible({
  name: 'repro',
  baseURL: 'http://test.invalid/v1',
  fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
});
const { stream } = await provider.chatModel('m').doStream({
  prompt: [{ role: 'user', content: [{ type: 'text', text: 'weather and time in Paris?' }] }],
});

const calls = [];
const errors = [];
for await (const part of stream) {
  if (part.type === 'tool-call') calls.push({ id: part.toolCallId, name: part.toolName, arguments: part.input });
  if (part.type === 'error') errors.push(String(part.error?.message ?? part.error).split('\n')[0].slice(0, 120));
}

const expected = [
  { id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
  { id: 'call_b', name: 'get_time', arguments: '{}' },
];
console.log(`expected: ${JSON.stringify(expected)}`);
console.log(`got:      ${JSON.stringify(calls)}`);
if (errors.length > 0) console.log(`stream errors: ${JSON.stringify(errors)}`);
if (JSON.stringify(calls) === JSON.stringify(expected) && errors.length === 0) {
  console.log('ok');
  process.exit(0);
}
console.log('BUG');
process.exit(1);
