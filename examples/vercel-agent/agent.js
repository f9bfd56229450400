#!/usr/bin/env node
'use strict';
/**
 * A small agent on the Vercel AI SDK (`streamText` with tools over
 * `@ai-sdk/openai-compatible`), keeping its conversation in a session file.
 *
 *   node examples/vercel-agent/agent.js --base-url URL --session ID PROMPT
 *
 * It uses the SDK packages pinned by examples/vercel-ai-adapter (run
 * `npm ci --prefix examples/vercel-ai-adapter` first). Nothing in it knows the
 * harness; `harness probe` tests it as a black box:
 *
 *   harness probe --tool get_weather --tool read_file \
 *       --agent-cmd "node examples/vercel-agent/agent.js --base-url {base_url} --session {session} {prompt}"
 *
 * Sessions live in $AGENT_STATE_DIR (default: a folder in the temporary
 * directory), one JSON file of the SDK's model messages per --session.
 *
 * `--bug save-text-only` persists only the text of each turn (user prompt and
 * final answer), dropping the tool calls and their results: the next turn's
 * model never sees what its tools returned.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createRequire } = require('node:module');

const sdk = createRequire(path.resolve(__dirname, '..', 'vercel-ai-adapter', 'package.json'));
const { jsonSchema, stepCountIs, streamText, tool } = sdk('ai');
const { createOpenAICompatible } = sdk('@ai-sdk/openai-compatible');

globalThis.AI_SDK_LOG_WARNINGS = false;

function parseArgs(argv) {
  const options = { provider: 'openai', model: 'gpt-4.1-mini', bug: null, prompt: null };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = { '--base-url': 'baseUrl', '--session': 'session', '--provider': 'provider', '--model': 'model', '--bug': 'bug' }[argv[i]];
    if (flag) {
      options[flag] = argv[i + 1];
      i += 1;
    } else {
      options.prompt = argv[i];
    }
  }
  if (!options.baseUrl || !options.session || options.prompt === null) {
    throw new Error('usage: agent.js --base-url URL --session ID [--provider NAME] [--bug save-text-only] PROMPT');
  }
  return options;
}

const tools = {
  get_weather: tool({
    description: 'Current weather in a city',
    inputSchema: jsonSchema({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
    execute: async ({ city }) => `${city}: 18 °C, clear`,
  }),
  read_file: tool({
    description: 'Read a text file',
    inputSchema: jsonSchema({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
    execute: async ({ path: file }) => `contents of ${file}: (empty)`,
  }),
};

/**
 * The SDK sends streamed reasoning back as `reasoning_content` to any OpenAI-compatible
 * provider; OpenAI's strict schema refuses the unknown field. Only DeepSeek gets it.
 */
function forProvider(messages, provider) {
  if (provider === 'deepseek') return messages;
  return messages.map((m) =>
    m.role === 'assistant' && Array.isArray(m.content) ? { ...m, content: m.content.filter((p) => p.type !== 'reasoning') } : m,
  );
}

function textOnly(messages) {
  return messages
    .filter((m) => m.role === 'user' || m.role === 'assistant')
    .map((m) => (typeof m.content === 'string' ? m : { ...m, content: m.content.filter((p) => p.type === 'text') }))
    .filter((m) => typeof m.content === 'string' || m.content.length > 0);
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const state = process.env.AGENT_STATE_DIR || path.join(os.tmpdir(), 'vercel-agent');
  fs.mkdirSync(state, { recursive: true });
  const file = path.join(state, `${options.session.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);
  const history = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : [];
  const messages = [...history, { role: 'user', content: options.prompt }];
  const provider = createOpenAICompatible({ name: 'loopback', baseURL: options.baseUrl, apiKey: 'unused' });
  const failures = [];
  const result = streamText({
    model: provider.chatModel(options.model),
    messages,
    tools,
    stopWhen: stepCountIs(8),
    maxRetries: 0,
    prepareStep: ({ messages: sent }) => ({ messages: forProvider(sent, options.provider) }),
    onError: ({ error }) => failures.push(error),
  });
  await result.consumeStream();
  if (failures.length) {
    process.stderr.write(`agent: the turn failed: ${failures.map((e) => e.message).join('; ')}\n`);
    process.exitCode = 1;
    return;
  }
  const { messages: added } = await result.response;
  const turn = [...messages, ...added];
  fs.writeFileSync(file, JSON.stringify(options.bug === 'save-text-only' ? textOnly(turn) : turn));
  process.stdout.write(`${await result.text}\n`);
}

main().catch((err) => {
  process.stderr.write(`agent: ${err.stack}\n`);
  process.exitCode = 1;
});
