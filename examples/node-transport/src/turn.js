'use strict';
/**
 * One agent turn over real HTTP: model rounds streamed from `POST {base_url}/chat/completions`,
 * tools run between them, every round persisted with its own reasoning, calls and results.
 */

const { Accumulator } = require('./accumulate');
const { transform } = require('./provider');
const { SSEDecoder } = require('./sse');

const MAX_ROUNDS = 16;

class HttpError extends Error {}

/** One streamed chat completion: the request body out, the neutral response back. */
async function complete(baseUrl, body) {
  const url = `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify(body),
  });
  if (response.status >= 400) {
    throw new HttpError(`POST ${url}: HTTP ${response.status}: ${(await response.text()).slice(0, 500)}`);
  }
  const decoder = new SSEDecoder();
  const acc = new Accumulator();
  const take = (data) => {
    if (data !== '[DONE]') acc.add(JSON.parse(data));
  };
  for await (const read of response.body) decoder.push(read).forEach(take);
  decoder.end().forEach(take);
  return acc.response();
}

function wireAssistant(response) {
  const calls = response.tool_calls;
  const message = { role: 'assistant', content: response.content || (calls.length ? null : '') };
  if (response.reasoning) message.reasoning_content = response.reasoning;
  if (calls.length) {
    message.tool_calls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  }
  return message;
}

/** `runTool(name, arguments)` resolves to the tool's output text. */
async function runHttpTurn(baseUrl, userInput, tools, options, runTool) {
  const messages = [{ role: 'user', content: userInput }];
  const events = [];
  let input = userInput;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const body = { model: options.model ?? 'node-transport', messages, tools: tools.map((t) => t.schema), stream: true };
    const response = await complete(baseUrl, transform(body, baseUrl, options));
    messages.push(wireAssistant(response));
    const results = [];
    for (const call of response.tool_calls) {
      const content = await runTool(call.name, call.arguments);
      results.push({ tool_call_id: call.id, content });
      messages.push({ role: 'tool', content, tool_call_id: call.id });
    }
    events.push({
      input,
      response: response.content,
      reasoning: response.reasoning || null,
      tool_calls: response.tool_calls,
      tool_results: results,
      tools_used: [...new Set(response.tool_calls.map((c) => c.name))],
      timestamp: Date.now() / 1000,
    });
    input = '';
    if (!response.tool_calls.length) return { events };
  }
  throw new Error(`the turn did not finish within ${MAX_ROUNDS} rounds`);
}

module.exports = { HttpError, complete, runHttpTurn };
