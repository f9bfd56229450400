#!/usr/bin/env node
'use strict';
/**
 * A thin harness bridge around the Vercel AI SDK's Anthropic provider
 * (protocol 1, docs/adapter-protocol.md in the harness repository), speaking
 * the "anthropic" format.
 *
 *   harness check --adapter-cmd "node examples/vercel-ai-anthropic/bridge.js"
 *
 * Nothing here parses or serializes the wire itself: every answer is what the
 * SDK's own code produced. No network is used; the provider's `fetch` is
 * replaced by a function that hands it the harness's bytes (parse_stream) or
 * records the body the SDK would POST (serialize_message).
 *
 * The protocol loop, the handshake and error replies are the shared
 * ../vercel-bridge-protocol/serve.js.
 */

const { Refusal, describe, serve } = require('../vercel-bridge-protocol/serve.js');
const { createAnthropic } = require('@ai-sdk/anthropic');
const { AISDKError, generateText } = require('ai');

const FORMAT = 'anthropic';
const BASE_URL = 'http://test.invalid/v1';
const MODEL = 'claude-test';
// The SDK's tool-result part wants the tool's name; a neutral result has only the call's id.
// The name never reaches the wire message of a tool result.
const UNKNOWN_TOOL = 'unknown_tool';

function model(fetch) {
  return createAnthropic({ baseURL: BASE_URL, apiKey: 'test', fetch }).languageModel(MODEL);
}

// ---------------------------------------------------------------- parse_stream

/** The SDK's own reading of a Messages stream: the bytes go in as the HTTP response, stream parts come out. */
async function parseStream(body) {
  const fetch = async () =>
    new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  try {
    const { stream } = await model(fetch).doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'Go.' }] }],
      maxOutputTokens: 1024,
    });
    return await collect(stream);
  } catch (err) {
    if (AISDKError.isInstance(err)) throw new Refusal('invalid_input', `the SDK refused the stream: ${describe(err)}`);
    throw err;
  }
}

function anthropicMetadata(part) {
  return part.providerMetadata?.anthropic ?? {};
}

/**
 * The stream parts as a neutral turn: one block per text, reasoning or tool
 * input the SDK opened, in the order it opened them (the SDK names each by
 * the stream's block index, a call by its id); a call's arguments are the
 * `input` of the SDK's tool-call part (its joined argument text).
 */
async function collect(stream) {
  const blocks = [];
  const open = new Map(); // the SDK's part id -> the block it builds
  let finish = null;
  const errors = [];
  const start = (id, block) => {
    open.set(id, block);
    blocks.push(block);
  };
  for await (const part of stream) {
    switch (part.type) {
      case 'text-start':
        start(part.id, { type: 'text', text: '' });
        break;
      case 'text-delta':
        open.get(part.id).text += part.delta;
        break;
      case 'reasoning-start': {
        const { redactedData } = anthropicMetadata(part);
        start(part.id, redactedData != null
          ? { type: 'redacted_reasoning', data: redactedData }
          : { type: 'reasoning', text: '', signature: '' });
        break;
      }
      case 'reasoning-delta': {
        const block = open.get(part.id);
        block.text += part.delta;
        const { signature } = anthropicMetadata(part);
        // As the SDK builds its own messages (ai, stream-text): a later piece's metadata replaces the earlier.
        if (signature != null) block.signature = signature;
        break;
      }
      case 'tool-input-start':
        start(part.id, { type: 'tool_call', id: part.id, name: part.toolName, arguments: '' });
        break;
      case 'tool-call': {
        const block = open.get(part.toolCallId);
        if (block) block.arguments = part.input;
        else blocks.push({ type: 'tool_call', id: part.toolCallId, name: part.toolName, arguments: part.input });
        break;
      }
      case 'error':
        errors.push(part.error);
        break;
      case 'finish':
        finish = part;
        break;
      default:
        break; // stream-start, response-metadata, *-end, tool-input-delta
    }
  }
  if (errors.length > 0) throw new Refusal('invalid_input', `the SDK reported a stream error: ${describe(errors[0])}`);
  // What the SDK's streamText does with such a stream: NoOutputGeneratedError (with output, it finishes as "other").
  if (finish === null && blocks.length === 0) {
    throw new Refusal('invalid_input', 'the stream ended without a finish part and without output');
  }
  for (const block of blocks) if (block.type === 'redacted_reasoning') delete block.text;
  return {
    blocks,
    stop_reason: finish?.finishReason?.raw ?? null,
    usage: finish?.usage?.raw ?? null,
  };
}

// ----------------------------------------------------------- serialize_message

/** A neutral assistant message as the SDK's assistant ModelMessage parts. */
function assistantParts(blocks) {
  return blocks.map((block) => {
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text };
      case 'reasoning':
        return { type: 'reasoning', text: block.text, providerOptions: { anthropic: { signature: block.signature } } };
      case 'redacted_reasoning':
        return { type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: block.data } } };
      case 'tool_call':
        // The SDK's tool-call input is the parsed arguments; "" means a call without arguments.
        return { type: 'tool-call', toolCallId: block.id, toolName: block.name, input: JSON.parse(block.arguments || '{}') };
      default:
        throw new Refusal('invalid_input', `block type ${JSON.stringify(block.type)} has no AI SDK part`);
    }
  });
}

function toolResults(results) {
  return {
    role: 'tool',
    content: results.map((r) => ({
      type: 'tool-result',
      toolCallId: r.tool_call_id,
      toolName: UNKNOWN_TOOL,
      output: { type: 'text', value: r.content },
    })),
  };
}

/** The prompt that carries the neutral message, and the position of its wire message in the body. */
function prompt(msg) {
  const question = { role: 'user', content: 'Go.' };
  if (msg.role === 'assistant') {
    const calls = msg.blocks.filter((b) => b.type === 'tool_call');
    const messages = [question, { role: 'assistant', content: assistantParts(msg.blocks) }];
    // The SDK refuses a prompt whose tool calls have no results: results follow the message.
    if (calls.length > 0) messages.push(toolResults(calls.map((c) => ({ tool_call_id: c.id, content: 'ok' }))));
    return { messages, position: 1 };
  }
  if (msg.role === 'user') {
    const messages = [];
    if ((msg.tool_results ?? []).length > 0) messages.push(toolResults(msg.tool_results));
    if (msg.content) messages.push({ role: 'user', content: msg.content });
    return { messages, position: 0 };
  }
  throw new Refusal('invalid_input', `role ${JSON.stringify(msg.role)} has no Messages wire message`);
}

/** The wire message the SDK's provider would POST for this neutral message. */
async function serializeMessage(msg) {
  const { messages, position } = prompt(msg);
  let sent = null;
  const fetch = async (_url, init) => {
    sent = JSON.parse(init.body);
    return new Response(
      JSON.stringify({
        id: 'msg_test', type: 'message', role: 'assistant', model: MODEL,
        content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
      { status: 200, headers: { 'content-type': 'application/json' } },
    );
  };
  try {
    await generateText({ model: model(fetch), messages, maxRetries: 0, maxOutputTokens: 1024 });
  } catch (err) {
    if (AISDKError.isInstance(err)) throw new Refusal('invalid_input', `the SDK refused the message: ${describe(err)}`);
    throw err;
  }
  const wire = sent?.messages?.[position];
  if (wire == null) throw new Error(`the SDK sent no message at ${position}: ${JSON.stringify(sent)}`);
  return wire;
}

// ---------------------------------------------------------------- the bridge

serve({
  name: 'vercel ai sdk (anthropic)',
  format: FORMAT,
  capabilities: ['stream', 'messages'],
  methods: {
    serialize_message: (params) => serializeMessage(params.message),
    parse_stream: (params) => parseStream(Buffer.from(params.body_base64, 'base64')),
  },
});
