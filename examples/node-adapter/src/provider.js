'use strict';
/**
 * What a generic chat-completions body becomes for one provider.
 *
 * Only the exact host `api.deepseek.com` gets the DeepSeek profile (a
 * look-alike such as `api.deepseek.com.evil.io` must not); every other host,
 * and no base URL at all, gets the generic profile.
 *
 * DeepSeek: the thinking switch `thinking: {type}` goes at the TOP LEVEL of the
 * body (never inside an `extra_body`, which only the OpenAI Python SDK
 * flattens); nothing is sent when the caller did not ask; a sub-agent
 * (`role: "executor"`) defaults to thinking disabled; the effort ladder is
 * low/high/max and the server reads medium as high, so medium goes as low. With
 * `tools`, earlier assistant turns carry `reasoning_content` by the rule of the
 * era (r1: never; v3.2: turns with tool calls; current: every turn), with `""`
 * backfilled and real values never overwritten; a null `reasoning_content` is
 * never sent (DeepSeek gets the field as a string or not at all).
 *
 * Generic: never `thinking` nor `reasoning_content` (strict endpoints reject
 * unknown message fields); the effort word passes through, except to OpenAI's
 * newest families beside function tools, which take only `none` there. Mistral's
 * models take 9-character alphanumeric tool call ids: every other id is renamed,
 * in the call and in its result alike, never two to one.
 */

const crypto = require('node:crypto');

const DEEPSEEK_HOST = 'api.deepseek.com';
const EFFORTS = ['off', 'low', 'medium', 'high', 'max'];
const ROLES = ['main', 'executor'];
const ERAS = ['r1', 'v3.2', 'current'];
const DEEPSEEK_EFFORT = { low: 'low', medium: 'low', high: 'high', max: 'max' };
const NO_TOOLS_BESIDE_EFFORT = ['gpt-5.6', 'gpt-6'];
const MISTRAL_FAMILIES = ['mistral-', 'magistral-', 'codestral-', 'devstral-', 'ministral-', 'pixtral-',
  'open-mistral-', 'open-mixtral-'];
const MISTRAL_ID = /^[a-zA-Z0-9]{9}$/;
const ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Thrown for options outside the documented vocabulary. */
class OptionError extends Error {}

function readOptions(options) {
  const parsed = {
    baseUrl: options.base_url ?? null,
    effort: options.effort ?? null,
    role: options.role || 'main',
    era: options.era || 'current',
  };
  for (const [name, allowed] of [['effort', [null, ...EFFORTS]], ['role', ROLES], ['era', ERAS]]) {
    if (!allowed.includes(parsed[name])) {
      throw new OptionError(`option ${name}=${JSON.stringify(parsed[name])}; expected one of ${JSON.stringify(allowed)}`);
    }
  }
  return parsed;
}

function hostOf(baseUrl) {
  try {
    return new URL(baseUrl).hostname;
  } catch {
    return null; // not a URL: no provider of ours
  }
}

function isDeepSeek(baseUrl) {
  return baseUrl != null && hostOf(baseUrl) === DEEPSEEK_HOST;
}

/** A new body for the provider `options.base_url` names; `body` is left as it was. */
function transformRequest(body, options) {
  const parsed = readOptions(options ?? {});
  const copy = structuredClone(body);
  return isDeepSeek(parsed.baseUrl) ? forDeepSeek(copy, parsed) : forGeneric(copy, parsed);
}

function forGeneric(body, options) {
  delete body.thinking;
  body.messages = (body.messages ?? []).map(withoutReasoning);
  const model = String(body.model ?? '').toLowerCase();
  if (MISTRAL_FAMILIES.some((family) => model.startsWith(family))) body.messages = mistralIds(body.messages);
  // No portable word for "off" exists here, so it sends nothing.
  if (options.effort === null || options.effort === 'off') return body;
  const functionTools = (body.tools ?? []).some((tool) => tool?.type === 'function');
  const refusesPair = NO_TOOLS_BESIDE_EFFORT.some((family) => model.startsWith(family));
  body.reasoning_effort = functionTools && refusesPair ? 'none' : options.effort;
  return body;
}

function mistralIds(messages) {
  const taken = new Set(messages.flatMap((m) => [m.tool_call_id, ...(m.tool_calls ?? []).map((c) => c.id)]));
  const renamed = new Map();
  const newId = (old) => {
    if (typeof old !== 'string' || MISTRAL_ID.test(old)) return old;
    for (let salt = 0; !renamed.has(old); salt += 1) {
      const digest = crypto.createHash('sha256').update(`${salt}:${old}`).digest();
      const candidate = Array.from(digest.subarray(0, 9), (byte) => ALPHANUMERIC[byte % 62]).join('');
      if (!taken.has(candidate)) {
        renamed.set(old, candidate);
        taken.add(candidate);
      }
    }
    return renamed.get(old);
  };
  return messages.map((m) => {
    let out = m;
    if (m.tool_calls?.length) out = { ...out, tool_calls: m.tool_calls.map((c) => ({ ...c, id: newId(c.id) })) };
    if (m.role === 'tool' && 'tool_call_id' in m) out = { ...out, tool_call_id: newId(m.tool_call_id) };
    return out;
  });
}

function forDeepSeek(body, options) {
  switchThinking(body, options);
  // The field goes as a string or not at all: a null (an old record's) is no reasoning.
  body.messages = carryReasoning(body.messages ?? [], options.era, Boolean(body.tools?.length))
    .map((m) => (m.reasoning_content === null ? withoutReasoning(m) : m));
  return body;
}

function switchThinking(body, options) {
  let effort = options.effort;
  // A sub-agent executes a task; the default high-effort thinking only slows it.
  if (effort === null && options.role === 'executor') effort = 'off';
  if (effort === null) return; // the caller did not ask: the server default stands
  body.thinking = { type: effort === 'off' ? 'disabled' : 'enabled' };
  if (effort !== 'off') body.reasoning_effort = DEEPSEEK_EFFORT[effort];
}

function carryReasoning(messages, era, hasTools) {
  if (era === 'r1') return messages.map(withoutReasoning); // R1 rejects it as an intermediate result
  if (!hasTools) return messages; // without tools the server ignores the field either way
  return messages.map((m) => (mustCarry(m, era) && m.reasoning_content == null ? { ...m, reasoning_content: '' } : m));
}

function mustCarry(message, era) {
  if (message.role !== 'assistant') return false;
  return era === 'current' || Boolean(message.tool_calls?.length);
}

function withoutReasoning(message) {
  const { reasoning_content: _dropped, ...rest } = message;
  return rest;
}

module.exports = { OptionError, transformRequest };
