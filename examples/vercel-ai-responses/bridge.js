#!/usr/bin/env node
'use strict';
/**
 * A thin harness bridge around the Vercel AI SDK's OpenAI provider on the
 * Responses API (protocol 1, docs/adapter-protocol.md in the harness
 * repository), speaking the "openai-responses" format.
 *
 *   harness check --adapter-cmd "node examples/vercel-ai-responses/bridge.js"
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
const { createOpenAI } = require('@ai-sdk/openai');
const { AISDKError, generateText } = require('ai');

const FORMAT = 'openai-responses';
const BASE_URL = 'http://test.invalid/v1';
// A reasoning model, as the format's streams come from (the SDK treats item ids by model family).
const MODEL = 'gpt-5';
// The SDK's tool-result part wants the tool's name; a neutral result has only the call's id.
// The name never reaches a function_call_output item.
const UNKNOWN_TOOL = 'unknown_tool';
// Without storage every item goes back whole, which is what the format's history rules are about.
const STATELESS = { openai: { store: false } };

function model(fetch) {
  return createOpenAI({ baseURL: BASE_URL, apiKey: 'test', fetch }).responses(MODEL);
}

// ---------------------------------------------------------------- parse_stream

/** The SDK's own reading of a Responses stream: the bytes go in as the HTTP response, stream parts come out. */
async function parseStream(body) {
  const fetch = async () =>
    new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  try {
    const { stream } = await model(fetch).doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'Go.' }] }],
      providerOptions: STATELESS,
    });
    return await collect(stream);
  } catch (err) {
    if (AISDKError.isInstance(err)) throw new Refusal('invalid_input', `the SDK refused the stream: ${describe(err)}`);
    throw err;
  }
}

function openaiMetadata(part) {
  return part.providerMetadata?.openai ?? {};
}

/**
 * The stream parts as a neutral turn, one block per output item in the order
 * streamText's content holds them: a message or reasoning item where the SDK
 * opened its part (on `response.output_item.added`), a function call at its
 * `tool-call` part (on `response.output_item.done`). The SDK streams a
 * reasoning item as one reasoning part per summary part (ids `rs_...:0`,
 * `rs_...:1`), a message item as one text part, a function call as
 * tool-input parts and its `tool-call`.
 */
async function collect(stream) {
  const blocks = [];
  const texts = new Map(); // text part id -> block
  const reasoning = new Map(); // reasoning part id -> its summary entry {item, text}
  const items = new Map(); // reasoning item id -> block
  let finish = null;
  const errors = [];
  for await (const part of stream) {
    switch (part.type) {
      case 'text-start': {
        const block = { type: 'text', text: '', item_id: openaiMetadata(part).itemId };
        texts.set(part.id, block);
        blocks.push(block);
        break;
      }
      case 'text-delta': {
        // What streamText does with a delta whose part was never started: an error part, the text lost.
        const block = texts.get(part.id);
        if (block) block.text += part.delta;
        else errors.push(`text part ${part.id} not found`);
        break;
      }
      case 'reasoning-start': {
        const { itemId } = openaiMetadata(part);
        if (!items.has(itemId)) {
          const block = { type: 'reasoning', text: '', signature: '', item_id: itemId, summary: [] };
          items.set(itemId, block);
          blocks.push(block);
        }
        reasoning.set(part.id, { item: items.get(itemId), text: '' });
        encrypted(items.get(itemId), part);
        break;
      }
      case 'reasoning-delta': {
        const entry = reasoning.get(part.id);
        if (entry) entry.text += part.delta;
        else errors.push(`reasoning part ${part.id} not found`);
        break;
      }
      case 'reasoning-end': {
        const entry = reasoning.get(part.id);
        if (!entry) {
          errors.push(`reasoning part ${part.id} not found`);
          break;
        }
        // As the SDK writes its reasoning parts back: an empty part is no summary part.
        if (entry.text) entry.item.summary.push(entry.text);
        encrypted(entry.item, part);
        break;
      }
      case 'tool-call':
        // A call takes its place where streamText's content holds it: at its `tool-call` part, which the SDK
        // emits on the item's response.output_item.done (its tool-input-start, on `added`, makes no content).
        // `input` is the item's own arguments, from that event.
        blocks.push({
          type: 'tool_call', id: part.toolCallId, name: part.toolName, arguments: part.input, item_id: openaiMetadata(part).itemId,
        });
        break;
      case 'error':
        errors.push(part.error);
        break;
      case 'finish':
        finish = part;
        break;
      default:
        break; // stream-start, response-metadata, text-end, tool-input-start/-delta/-end
    }
  }
  if (errors.length > 0) throw new Refusal('invalid_input', `the SDK reported a stream error: ${describe(errors[0])}`);
  for (const block of items.values()) block.text = block.summary.join('');
  return { blocks, stop_reason: stopReason(finish), usage: finish?.usage?.raw ?? null };
}

/** The item's encrypted_content, as the SDK's latest part of it carries it (null: none). */
function encrypted(block, part) {
  const value = openaiMetadata(part).reasoningEncryptedContent;
  if (value !== undefined) block.signature = value ?? '';
}

/**
 * The response's status as the SDK reports it. The SDK reads `response.completed`
 * as finish reason "stop" or "tool-calls" with no raw reason; `response.incomplete`
 * keeps its `incomplete_details.reason` as the raw reason; a stream that ended
 * without either finishes as "other".
 */
function stopReason(finish) {
  if (finish === null) return null;
  const { unified, raw } = finish.finishReason;
  if (raw != null) throw new Refusal('invalid_input', `the SDK finished the response as ${unified} (${raw}), not completed`);
  return unified === 'other' ? null : 'completed';
}

// ----------------------------------------------------------- serialize_message

/**
 * A neutral assistant message as the SDK's assistant ModelMessage parts, each naming its output item.
 * Consecutive text blocks of one `item_id` are the parts of one message item; the SDK holds a message item
 * as one text part (its stream joins the parts' deltas), so they become one text part with the texts joined.
 */
function assistantParts(blocks) {
  let last = null; // the latest text part, while the blocks after it are text of the same item
  return blocks.flatMap((block) => {
    const openai = { itemId: block.item_id };
    if (block.type !== 'text') last = null;
    switch (block.type) {
      case 'text': {
        if (last !== null && block.item_id != null && last.providerOptions.openai.itemId === block.item_id) {
          last.text += block.text;
          return [];
        }
        last = { type: 'text', text: block.text, providerOptions: { openai } };
        return [last];
      }
      case 'reasoning': {
        // The SDK holds one reasoning part per summary part, each naming the item and its encrypted_content.
        const reasoningOptions = { openai: { ...openai, reasoningEncryptedContent: block.signature || null } };
        const summary = block.summary ?? (block.text ? [block.text] : []);
        return (summary.length > 0 ? summary : ['']).map((text) => ({ type: 'reasoning', text, providerOptions: reasoningOptions }));
      }
      case 'tool_call':
        // A string input that is JSON goes out as it is; "" means a call without arguments.
        return [{ type: 'tool-call', toolCallId: block.id, toolName: block.name, input: block.arguments || '{}', providerOptions: { openai } }];
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

/** The prompt that carries the neutral message, and which of the `input` items the SDK writes are its own. */
function prompt(msg) {
  if (msg.role === 'assistant') {
    const calls = msg.blocks.filter((b) => b.type === 'tool_call');
    const messages = [{ role: 'user', content: 'Go.' }, { role: 'assistant', content: assistantParts(msg.blocks) }];
    // The SDK refuses a prompt whose tool calls have no results: results follow the message.
    if (calls.length > 0) messages.push(toolResults(calls.map((c) => ({ tool_call_id: c.id, content: 'ok' }))));
    return { messages, own: (input) => input.slice(1, input.length - calls.length) };
  }
  if (msg.role === 'user') {
    const messages = [];
    if ((msg.tool_results ?? []).length > 0) messages.push(toolResults(msg.tool_results));
    if (msg.content) messages.push({ role: 'user', content: msg.content });
    return { messages, own: (input) => input };
  }
  throw new Refusal('invalid_input', `role ${JSON.stringify(msg.role)} has no Responses input items`);
}

/** The `input` items the SDK's provider would POST for this neutral message. */
async function serializeMessage(msg) {
  const { messages, own } = prompt(msg);
  if (messages.length === 0) return [];
  let sent = null;
  const fetch = async (_url, init) => {
    sent = JSON.parse(init.body);
    return new Response(
      JSON.stringify({
        id: 'resp_test', object: 'response', created_at: 0, model: MODEL, status: 'completed',
        output: [{ id: 'msg_test', type: 'message', status: 'completed', role: 'assistant',
          content: [{ type: 'output_text', text: 'ok', annotations: [] }] }],
        usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
      }),
      { status: 200, headers: { 'content-type': 'application/json' } },
    );
  };
  try {
    await generateText({ model: model(fetch), messages, maxRetries: 0, providerOptions: STATELESS });
  } catch (err) {
    if (AISDKError.isInstance(err)) throw new Refusal('invalid_input', `the SDK refused the message: ${describe(err)}`);
    throw err;
  }
  if (!Array.isArray(sent?.input)) throw new Error(`the SDK sent no input: ${JSON.stringify(sent)}`);
  return own(sent.input);
}

// ---------------------------------------------------------------- the bridge

serve({
  name: 'vercel ai sdk (openai responses)',
  format: FORMAT,
  capabilities: ['stream', 'messages'],
  methods: {
    serialize_message: (params) => serializeMessage(params.message),
    parse_stream: (params) => parseStream(Buffer.from(params.body_base64, 'base64')),
  },
});
