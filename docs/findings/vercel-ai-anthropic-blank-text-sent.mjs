// Reproduction: @ai-sdk/anthropic sends a text block that is only whitespace (or that its own trim
// emptied), which Anthropic refuses: "messages: text content blocks must contain non-whitespace text"
// and "messages: text content blocks must be non-empty".
//
//   npm ci --prefix examples/vercel-ai-anthropic
//   node docs/findings/vercel-ai-anthropic-blank-text-sent.mjs
//
// Prints `ok` (exit 0) when no request carries a blank text block, `BUG` (exit 1) otherwise.
// No network: the provider's fetch records the request body and answers with a fixed message.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../examples/vercel-ai-anthropic/package.json', import.meta.url));
const { createAnthropic } = require('@ai-sdk/anthropic');
const { generateText } = require('ai');

const reply = {
  id: 'msg_02', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5',
  content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
};
let sent = null;
const model = createAnthropic({
  baseURL: 'http://test.invalid/v1',
  apiKey: 'test',
  fetch: async (_url, init) => {
    sent = JSON.parse(init.body);
    return new Response(JSON.stringify(reply), { status: 200, headers: { 'content-type': 'application/json' } });
  },
}).languageModel('claude-sonnet-4-5');

const question = { role: 'user', content: 'What is in the folder?' };
const call = { type: 'tool-call', toolCallId: 'toolu_01', toolName: 'list_dir', input: {} };
const result = {
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: 'toolu_01', toolName: 'list_dir', output: { type: 'text', value: 'a.txt' } }],
};
const cases = {
  // The user's text beside the tool results is a newline (an agent that sends the results with the input box's text).
  'user text beside tool results': [question, { role: 'assistant', content: [call] }, result, { role: 'user', content: '\n' }],
  // The assistant said "\n\n" before its call, as the model streamed it; the message goes back as it was received.
  'assistant text beside a call': [question, { role: 'assistant', content: [{ type: 'text', text: '\n\n' }, call] }, result],
  // A final assistant message (a prefill): the SDK trims its last text, which leaves "".
  'final assistant text trimmed': [question, { role: 'assistant', content: [{ type: 'text', text: ' ' }] }],
};

let bug = false;
for (const [name, messages] of Object.entries(cases)) {
  await generateText({ model, messages, maxRetries: 0, maxOutputTokens: 1024 });
  const blank = sent.messages.flatMap((m, i) => (Array.isArray(m.content) ? m.content : [])
    .filter((b) => b.type === 'text' && b.text.trim() === '')
    .map((b) => `messages.${i}: ${JSON.stringify(b.text)}`));
  console.log(`${name}: sent ${JSON.stringify(sent.messages)}`);
  if (blank.length > 0) {
    bug = true;
    console.log(`  blank text block(s) ${blank.join(', ')}: Anthropic refuses a text block that is empty or only whitespace`);
  }
}
console.log(bug ? 'BUG' : 'ok');
process.exit(bug ? 1 : 0);
