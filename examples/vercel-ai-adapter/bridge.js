#!/usr/bin/env node
'use strict';
/**
 * A thin harness bridge around the Vercel AI SDK's OpenAI-compatible provider
 * (protocol 1, docs/adapter-protocol.md in the harness repository).
 *
 *   harness check --adapter-cmd "node examples/vercel-ai-adapter/bridge.js"
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
const { createOpenAICompatible } = require('@ai-sdk/openai-compatible');
const { AISDKError, generateText } = require('ai');

const BASE_URL = 'http://test.invalid/v1';
// A tool message carries only its tool_call_id; the SDK's tool-result part
// also wants the tool's name. It is taken from an assistant message this
// process serialized earlier, else this placeholder (the name never reaches
// the wire message of a tool result).
const UNKNOWN_TOOL = 'unknown_tool';

function provider(fetch) {
  return createOpenAICompatible({ name: 'harness', baseURL: BASE_URL, fetch, includeUsage: true });
}

// ---------------------------------------------------------------- parse_stream

/**
 * The SDK's own accumulation of a streamed chat completion: the bytes go in
 * as the HTTP response body, the model's stream parts come out.
 */
async function parseStream(body) {
  const fetch = async () =>
    new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  const model = provider(fetch).chatModel('m');
  try {
    const { stream } = await model.doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
      includeRawChunks: false,
    });
    return await collect(stream);
  } catch (err) {
    // The SDK's own refusals (AI_InvalidResponseDataError, AI_JSONParseError, ...)
    // are the input's fault; anything else (a TypeError) is a crash: "internal".
    if (AISDKError.isInstance(err)) throw new Refusal('invalid_input', `the SDK refused the stream: ${describe(err)}`);
    throw err;
  }
}

/** Read the model's stream parts into the neutral response. */
async function collect(stream) {
  let content = '';
  let reasoning = '';
  const toolCalls = [];
  let finish = null;
  const errors = [];
  for await (const part of stream) {
    switch (part.type) {
      case 'text-delta':
        content += part.delta;
        break;
      case 'reasoning-delta':
        reasoning += part.delta;
        break;
      case 'tool-call':
        // `input` is the SDK's own joined argument text for the call.
        toolCalls.push({ id: part.toolCallId, name: part.toolName, arguments: part.input });
        break;
      case 'error':
        errors.push(part.error);
        break;
      case 'finish':
        finish = part;
        break;
      default:
        break; // stream-start, response-metadata, *-start/-end, tool-input-*
    }
  }
  if (errors.length > 0) {
    throw new Refusal('invalid_input', `the SDK reported a stream error: ${describe(errors[0])}`);
  }
  return {
    content,
    reasoning,
    tool_calls: toolCalls,
    finish_reason: finishReason(finish),
    usage: finish?.usage?.raw ?? null,
  };
}

const UNIFIED_TO_WIRE = {
  stop: 'stop',
  length: 'length',
  'tool-calls': 'tool_calls',
  'content-filter': 'content_filter',
};

/** The finish_reason the stream sent (the SDK keeps it as `raw`), else the unified one in OpenAI words. */
function finishReason(finish) {
  if (finish == null) return null;
  const reason = finish.finishReason;
  if (typeof reason === 'string') return UNIFIED_TO_WIRE[reason] ?? reason; // LanguageModelV2 shape
  if (reason?.raw != null) return reason.raw;
  if (reason?.unified == null || reason.unified === 'error' || reason.unified === 'other') return null;
  return UNIFIED_TO_WIRE[reason.unified] ?? reason.unified;
}

// ----------------------------------------------------------- serialize_message

const toolNames = new Map(); // tool_call_id -> name, from assistant messages seen

/** A neutral message as the SDK's ModelMessages, the message itself first. */
function modelMessages(msg) {
  switch (msg.role) {
    case 'system':
      return [{ role: 'system', content: msg.content ?? '' }];
    case 'user':
      return [{ role: 'user', content: msg.content ?? '' }];
    case 'assistant': {
      const parts = [];
      if (msg.reasoning) parts.push({ type: 'reasoning', text: msg.reasoning });
      if (msg.content) parts.push({ type: 'text', text: msg.content });
      const calls = msg.tool_calls ?? [];
      for (const call of calls) {
        toolNames.set(call.id, call.name);
        // The raw argument text: the provider sends a string input that is JSON as it is.
        parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.arguments });
      }
      const messages = [{ role: 'assistant', content: parts }];
      // The SDK refuses a prompt whose tool calls have no results (MissingToolResultsError):
      // results follow the message, and only the message itself is returned.
      if (calls.length > 0) {
        messages.push({
          role: 'tool',
          content: calls.map((call) => ({
            type: 'tool-result',
            toolCallId: call.id,
            toolName: call.name,
            output: { type: 'text', value: '' },
          })),
        });
      }
      return messages;
    }
    case 'tool': {
      const name = toolNames.get(msg.tool_call_id) ?? UNKNOWN_TOOL;
      const result = {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: msg.tool_call_id,
            toolName: name,
            output: { type: 'text', value: msg.content ?? '' },
          },
        ],
      };
      return [result];
    }
    default:
      throw new Refusal('invalid_input', `role ${JSON.stringify(msg.role)} has no AI SDK message`);
  }
}

/** The wire message the SDK's provider would POST for this neutral message. */
async function serializeMessage(msg) {
  const messages = modelMessages(msg);
  let sent = null;
  const fetch = async (_url, init) => {
    sent = JSON.parse(init.body);
    return new Response(
      JSON.stringify({
        id: 'x',
        object: 'chat.completion',
        created: 0,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      }),
      { status: 200, headers: { 'content-type': 'application/json' } },
    );
  };
  try {
    await generateText({
      model: provider(fetch).chatModel('m'),
      messages,
      allowSystemInMessages: true,
      maxRetries: 0,
    });
  } catch (err) {
    // The SDK refusing the message (AI_InvalidPromptError, ...) is the input's fault.
    if (AISDKError.isInstance(err)) throw new Refusal('invalid_input', `the SDK refused the message: ${describe(err)}`);
    throw err;
  }
  if (sent == null || !Array.isArray(sent.messages) || sent.messages.length === 0) {
    throw new Error(`the SDK sent no messages: ${JSON.stringify(sent)}`);
  }
  return sent.messages[0];
}

// ---------------------------------------------------------------- the bridge

serve({
  name: 'vercel ai sdk (openai-compatible)',
  capabilities: ['stream', 'messages'],
  methods: {
    serialize_message: (params) => serializeMessage(params.message),
    parse_stream: (params) => parseStream(Buffer.from(params.body_base64, 'base64')),
  },
});
