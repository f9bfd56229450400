'use strict';
/**
 * The codec under test: neutral chat messages to OpenAI-compatible wire JSON,
 * and streamed SSE bodies to the neutral response.
 *
 * Wire rules kept here (each one took a production agent down when broken):
 * - `reasoning_content` is a top-level key of an assistant message, beside
 *   `content`, and absent when there is no reasoning;
 * - an assistant message with `tool_calls` and no text sends `content: null`;
 * - a streamed tool-call fragment belongs to the call its upstream `index`
 *   names, never to the call at its position in the chunk's `tool_calls` list
 *   (a chunk nearly always holds one fragment, so that position is always 0);
 * - a provider's opaque reasoning values go back as they came, where they
 *   came: `reasoning_details` entries (OpenRouter; streamed pieces joined by
 *   their `index`) on the assistant message, in order; a call's
 *   `extra_content` (Google's thought signature) on that call.
 */

const { StreamError, events } = require('./sse');

function callToWire(call) {
  const wire = { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments ?? '' } };
  if (call.extra_content != null) wire.extra_content = call.extra_content;
  return wire;
}

/** One neutral message `{role, content, reasoning, tool_calls, tool_call_id}` as the provider expects it. */
function serializeMessage(msg) {
  const wire = { role: msg.role, content: msg.content ?? null };
  if (msg.role === 'assistant') {
    const calls = msg.tool_calls ?? [];
    if (calls.length > 0 && !msg.content) wire.content = null;
    if (msg.reasoning) wire.reasoning_content = msg.reasoning;
    if (msg.reasoning_details?.length) wire.reasoning_details = msg.reasoning_details;
    if (calls.length > 0) wire.tool_calls = calls.map(callToWire);
  }
  if (msg.role === 'tool') wire.tool_call_id = msg.tool_call_id ?? null;
  return wire;
}

/**
 * Joins the `tool_calls` fragments of one streamed response into whole calls.
 *
 * Quirks accepted: `id` and `name` only on a call's first fragment (later ones
 * omit them or send null); every call sent at `index` 0 and told apart by a
 * new `id`; `index` missing (the fragment continues the latest call); numbering
 * that starts at 1; `arguments` sent as an already-parsed object.
 */
class ToolCallAccumulator {
  constructor() {
    this.accs = []; // upstream index -> the slot holding the call open at that index
    this.opened = []; // every call in arrival order: {index, id, name, pieces}
    this.lastIndex = null;
  }

  /** Takes the `tool_calls` list of one chunk's delta. */
  add(fragments) {
    // i is the fragment's place in this chunk's list: it must never pick the call.
    for (const [i, frag] of fragments.entries()) {
      const index = frag.index ?? this.lastIndex ?? 0;
      const slot = (this.accs[index] ??= { open: null });
      if (slot.open === null || opensAnotherCall(slot.open, frag)) {
        slot.open = { index, id: frag.id ?? null, name: frag.function?.name ?? null, pieces: [] };
        this.opened.push(slot.open);
      }
      if (frag.extra_content != null) slot.open.extra_content = frag.extra_content;
      const piece = argumentsText(frag);
      if (piece !== null) slot.open.pieces.push(piece);
      this.lastIndex = index;
    }
  }

  /** The calls `{id, name, arguments}` in upstream index order; calls that shared an index keep arrival order. */
  calls() {
    const ordered = [...this.opened].sort((a, b) => a.index - b.index); // a stable sort
    return ordered.map((call) => ({
      id: call.id,
      name: call.name,
      arguments: call.pieces.join(''),
      ...(call.extra_content != null ? { extra_content: call.extra_content } : {}),
    }));
  }
}

// Fields whose streamed pieces are parts of one text; any other field is the entry's own value.
const APPENDED = ['text', 'summary', 'data'];

/** Joins streamed `reasoning_details` pieces into whole entries by their `index`, in order of first arrival. */
class ReasoningDetails {
  constructor() {
    this.entries = new Map(); // index (or a fresh key for an entry without one) -> the entry
  }

  add(pieces) {
    for (const piece of pieces) {
      const key = piece.index ?? Symbol('unindexed');
      if (!this.entries.has(key)) this.entries.set(key, {});
      const entry = this.entries.get(key);
      for (const [name, value] of Object.entries(piece)) {
        if (APPENDED.includes(name) && typeof value === 'string' && typeof entry[name] === 'string') {
          entry[name] += value;
        } else if (value !== null || !(name in entry)) {
          entry[name] = value; // a later null erases nothing
        }
      }
    }
  }

  list() {
    return [...this.entries.values()];
  }
}

// Another id at an index already taken: the endpoint numbers every call 0, so a new call starts.
function opensAnotherCall(open, frag) {
  return frag.id != null && frag.id !== open.id;
}

function argumentsText(frag) {
  const args = frag.function?.arguments;
  if (args == null) return null;
  // Some endpoints send the parsed object; keep what a string stream of it would have carried.
  return typeof args === 'string' ? args : JSON.stringify(args);
}

/** A whole streamed chat completion (a Buffer) as `{content, reasoning, tool_calls, finish_reason, usage}`. */
function parseStream(body) {
  const response = {
    content: [], reasoning: [], calls: new ToolCallAccumulator(), details: new ReasoningDetails(), finish_reason: null,
    usage: null,
  };
  for (const [number, data] of events(body)) {
    takeChunk(new Event(number, data), response);
  }
  const details = response.details.list();
  return {
    content: response.content.join(''),
    reasoning: response.reasoning.join(''),
    tool_calls: response.calls.calls(),
    finish_reason: response.finish_reason,
    usage: response.usage,
    ...(details.length > 0 ? { reasoning_details: details } : {}),
  };
}

class Event {
  constructor(number, data) {
    this.number = number;
    this.data = data;
  }

  refuse(reason) {
    return new StreamError(this.number, this.data, reason);
  }
}

function takeChunk(event, response) {
  let chunk;
  try {
    chunk = JSON.parse(event.data);
  } catch (err) {
    throw event.refuse(`not JSON (${err.message})`);
  }
  if (!isObject(chunk)) throw event.refuse('the chunk is not a JSON object');
  if (chunk.error != null) throw event.refuse('the provider reported an error inside the stream');
  if (chunk.usage != null) {
    if (!isObject(chunk.usage)) throw event.refuse("'usage' is not an object");
    response.usage = chunk.usage;
  }
  // A usage-only chunk has "choices": [] (some providers leave the key out).
  const choices = chunk.choices ?? [];
  if (!Array.isArray(choices)) throw event.refuse("'choices' is not a list");
  for (const choice of choices) takeChoice(event, choice, response);
}

function takeChoice(event, choice, response) {
  if (!isObject(choice)) throw event.refuse('a choice is not an object');
  if (choice.index != null && !Number.isInteger(choice.index)) throw event.refuse("a choice 'index' is not an integer");
  if (choice.index != null && choice.index !== 0) {
    throw event.refuse(`choice index ${choice.index}: only choice 0 is read (n > 1 is not supported)`);
  }
  if (choice.finish_reason != null) {
    if (typeof choice.finish_reason !== 'string') throw event.refuse("'finish_reason' is not a string");
    response.finish_reason = choice.finish_reason;
  }
  const delta = choice.delta;
  if (delta == null) return;
  if (!isObject(delta)) throw event.refuse("'delta' is not an object");
  for (const [key, parts] of [['content', response.content], ['reasoning_content', response.reasoning]]) {
    const text = delta[key];
    if (text != null && typeof text !== 'string') throw event.refuse(`delta '${key}' is neither a string nor null`);
    if (text) parts.push(text);
  }
  const details = delta.reasoning_details;
  if (details != null) {
    if (!Array.isArray(details) || !details.every(isObject)) {
      throw event.refuse("delta 'reasoning_details' is not a list of objects");
    }
    response.details.add(details);
  }
  const fragments = delta.tool_calls;
  if (fragments == null) return;
  if (!Array.isArray(fragments)) throw event.refuse("delta 'tool_calls' is not a list");
  for (const frag of fragments) checkFragment(event, frag);
  response.calls.add(fragments);
}

function checkFragment(event, frag) {
  if (!isObject(frag)) throw event.refuse('a tool_calls entry is not an object');
  if (frag.index != null && !Number.isInteger(frag.index)) throw event.refuse("a tool call 'index' is not an integer");
  if (frag.id != null && typeof frag.id !== 'string') throw event.refuse("a tool call 'id' is neither a string nor null");
  const fn = frag.function;
  if (fn == null) return;
  if (!isObject(fn)) throw event.refuse("a tool call 'function' is not an object");
  if (fn.name != null && typeof fn.name !== 'string') throw event.refuse("a tool call 'name' is neither a string nor null");
  const args = fn.arguments;
  if (args != null && typeof args !== 'string' && !isObject(args)) {
    throw event.refuse("a tool call 'arguments' is neither a string, an object nor null");
  }
}

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

module.exports = { StreamError, ToolCallAccumulator, parseStream, serializeMessage };
