#!/usr/bin/env node
'use strict';
/**
 * A thin harness bridge around the Vercel AI SDK's Google provider (Gemini,
 * protocol 1, docs/adapter-protocol.md in the harness repository), speaking
 * the "gemini" format.
 *
 *   harness check --adapter-cmd "node examples/vercel-ai-google/bridge.js"
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
const { createGoogleGenerativeAI } = require('@ai-sdk/google');
const { AISDKError, generateId, generateText } = require('ai');

const FORMAT = 'gemini';
const BASE_URL = 'http://test.invalid/v1beta';
// A thinking model that signs its parts. (For Gemini 3 model ids the SDK writes a placeholder
// signature on unsigned calls that do not follow a signed one; this bridge shows what it sends as received.)
const MODEL = 'gemini-2.5-flash';

function model(fetch) {
  return createGoogleGenerativeAI({ baseURL: BASE_URL, apiKey: 'test', fetch }).languageModel(MODEL);
}

// ---------------------------------------------------------------- parse_stream

/** The SDK's own reading of an `alt=sse` stream: the bytes go in as the HTTP response, stream parts come out. */
async function parseStream(body) {
  const fetch = async () =>
    new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  try {
    const { stream } = await model(fetch).doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'Go.' }] }],
    });
    return await collect(stream);
  } catch (err) {
    if (AISDKError.isInstance(err)) throw new Refusal('invalid_input', `the SDK refused the stream: ${describe(err)}`);
    throw err;
  }
}

function signatureOf(part) {
  return part.providerMetadata?.google?.thoughtSignature;
}

/**
 * The stream parts as a neutral turn: one block per text, reasoning or call
 * part the SDK opened, in the order it opened them. A block's signature is the
 * `thoughtSignature` of its parts' metadata, a later one replacing an earlier
 * one (as streamText builds its content); a call's arguments are the `input`
 * of its `tool-call` part and its id the SDK's `toolCallId`.
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
  const sign = (block, part) => {
    const signature = signatureOf(part);
    if (signature != null) block.signature = signature;
  };
  for await (const part of stream) {
    switch (part.type) {
      case 'text-start':
        start(part.id, { type: 'text', text: '' });
        sign(open.get(part.id), part);
        break;
      case 'reasoning-start':
        start(part.id, { type: 'reasoning', text: '', signature: '' });
        sign(open.get(part.id), part);
        break;
      case 'text-delta':
      case 'reasoning-delta': {
        const block = open.get(part.id);
        block.text += part.delta;
        sign(block, part);
        break;
      }
      case 'tool-input-start':
        start(part.id, { type: 'tool_call', id: part.id, name: part.toolName, arguments: '' });
        break;
      case 'tool-call': {
        let block = open.get(part.toolCallId);
        if (!block) {
          block = { type: 'tool_call', id: part.toolCallId, name: part.toolName };
          blocks.push(block);
        }
        block.arguments = part.input;
        sign(block, part);
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
  return {
    blocks,
    stop_reason: finish?.finishReason?.raw ?? null,
    usage: finish?.usage?.raw ?? null,
  };
}

// ----------------------------------------------------------- serialize_message

function signed(block) {
  return block.signature ? { providerOptions: { google: { thoughtSignature: block.signature } } } : {};
}

/**
 * The neutral id of a call the model sent without one is "". An application never holds that: for such a
 * call the SDK made up a `toolCallId` (its `generateId`, which this bridge's parse_stream returns as the
 * call's id), and the application answers the call with that id. So an id-less neutral call gets an id made
 * up the same way, and the id-less results of the next user message take the ids made up for the id-less
 * calls of the latest assistant message, in order (a fresh one past those).
 */
let madeUp = [];

/** The id the application holds for the k-th id-less result of a user message. */
function heldId(k) {
  return madeUp[k] ?? generateId();
}

/** A neutral assistant message as the SDK's assistant ModelMessage parts, signatures where the blocks have them. */
function assistantParts(blocks, ids) {
  return blocks.map((block, n) => {
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text, ...signed(block) };
      case 'reasoning':
        return { type: 'reasoning', text: block.text, ...signed(block) };
      case 'tool_call':
        // A string input that is JSON is parsed by the provider into `args`; "" means a call without arguments.
        return { type: 'tool-call', toolCallId: ids.get(n), toolName: block.name, input: block.arguments || '{}', ...signed(block) };
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
      toolName: r.name,
      output: { type: 'text', value: r.content },
    })),
  };
}

/** The prompt that carries the neutral message, and which of the `contents` the SDK writes are its own. */
function prompt(msg) {
  if (msg.role === 'assistant') {
    // Each call's id as the application holds it: its own, or the one the SDK made up for an id-less call.
    const ids = new Map();
    const made = [];
    msg.blocks.forEach((block, n) => {
      if (block.type !== 'tool_call') return;
      const id = block.id || generateId();
      if (!block.id) made.push(id);
      ids.set(n, id);
    });
    madeUp = made;
    const calls = msg.blocks.flatMap((b, n) => (b.type === 'tool_call' ? [{ ...b, id: ids.get(n) }] : []));
    const messages = [{ role: 'user', content: 'Go.' }, { role: 'assistant', content: assistantParts(msg.blocks, ids) }];
    // The SDK refuses a prompt whose tool calls have no results: results follow the message.
    if (calls.length > 0) {
      messages.push(toolResults(calls.map((c) => ({ tool_call_id: c.id, name: c.name, content: 'ok' }))));
    }
    return { messages, own: (contents) => contents.slice(1, 2) };
  }
  if (msg.role === 'user') {
    const messages = [];
    let k = 0;
    const results = (msg.tool_results ?? []).map((r) => ({ ...r, tool_call_id: r.tool_call_id || heldId(k++) }));
    if (results.length > 0) messages.push(toolResults(results));
    if (msg.content) messages.push({ role: 'user', content: msg.content });
    return { messages, own: (contents) => contents };
  }
  throw new Refusal('invalid_input', `role ${JSON.stringify(msg.role)} has no Gemini content`);
}

/** The `Content` the SDK's provider would POST for this neutral message. */
async function serializeMessage(msg) {
  const { messages, own } = prompt(msg);
  let sent = null;
  const fetch = async (_url, init) => {
    sent = JSON.parse(init.body);
    return new Response(
      JSON.stringify({
        candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
      }),
      { status: 200, headers: { 'content-type': 'application/json' } },
    );
  };
  try {
    await generateText({ model: model(fetch), messages, maxRetries: 0 });
  } catch (err) {
    if (AISDKError.isInstance(err)) throw new Refusal('invalid_input', `the SDK refused the message: ${describe(err)}`);
    throw err;
  }
  const contents = own(sent?.contents ?? []);
  if (contents.length !== 1) {
    // The SDK wrote the message as several contents (or none): one Content cannot hold that.
    throw new Refusal('invalid_input', `the SDK wrote the message as ${contents.length} contents: ${JSON.stringify(contents)}`);
  }
  return contents[0];
}

// ---------------------------------------------------------------- the bridge

serve({
  name: 'vercel ai sdk (gemini)',
  format: FORMAT,
  capabilities: ['stream', 'messages'],
  methods: {
    serialize_message: (params) => serializeMessage(params.message),
    parse_stream: (params) => parseStream(Buffer.from(params.body_base64, 'base64')),
  },
});
