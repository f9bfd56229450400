'use strict';
/**
 * What the generic request body becomes for the provider being talked to.
 *
 * The provider is named by `options.provider_url` when the harness serves a
 * recording on a loopback address (it plays the provider recorded there), and
 * by the base URL otherwise. Only the exact host `api.deepseek.com` gets the
 * DeepSeek profile: thinking switch at the top level of the body, its effort
 * ladder (medium goes as low), `reasoning_content` carried by the era's rule.
 * Every other host gets no `thinking` and no `reasoning_content`, and the
 * effort word passes through as `reasoning_effort`.
 */

const DEEPSEEK_HOST = 'api.deepseek.com';
const DEEPSEEK_EFFORT = { low: 'low', medium: 'low', high: 'high', max: 'max' };

function isDeepSeek(url) {
  try {
    return new URL(url).hostname === DEEPSEEK_HOST;
  } catch {
    return false;
  }
}

function transform(body, baseUrl, options) {
  const out = structuredClone(body);
  const effort = options.effort ?? null;
  if (!isDeepSeek(options.provider_url ?? baseUrl)) {
    out.messages = out.messages.map(withoutReasoning);
    if (effort !== null && effort !== 'off') out.reasoning_effort = effort;
    return out;
  }
  const wanted = effort === null && options.role === 'executor' ? 'off' : effort;
  if (wanted !== null) {
    out.thinking = { type: wanted === 'off' ? 'disabled' : 'enabled' };
    if (wanted !== 'off') out.reasoning_effort = DEEPSEEK_EFFORT[wanted];
  }
  const era = options.era ?? 'current';
  if (era === 'r1') {
    out.messages = out.messages.map(withoutReasoning);
  } else if (out.tools?.length) {
    out.messages = out.messages.map((m) => {
      const carries = m.role === 'assistant' && (era === 'current' || m.tool_calls?.length);
      return carries && m.reasoning_content == null ? { ...m, reasoning_content: '' } : m;
    });
  }
  return out;
}

function withoutReasoning(message) {
  const { reasoning_content: _dropped, ...rest } = message;
  return rest;
}

module.exports = { transform };
