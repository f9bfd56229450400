'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { OptionError, transformRequest } = require('../src/provider');

const DEEPSEEK = 'https://api.deepseek.com/v1';
const TOOL = { type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } };
const HISTORY = [
  { role: 'user', content: 'q' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{}' } }] },
  { role: 'tool', content: 'r', tool_call_id: 'c1' },
  { role: 'assistant', content: 'done', reasoning_content: 'kept' },
  { role: 'assistant', content: 'plain' },
];

test('the thinking switch is top level and sent only when asked', () => {
  const body = { model: 'deepseek-chat', messages: [] };
  assert.deepEqual(transformRequest(body, { base_url: DEEPSEEK, effort: 'off' }).thinking, { type: 'disabled' });
  const high = transformRequest(body, { base_url: DEEPSEEK, effort: 'high' });
  assert.deepEqual([high.thinking, high.reasoning_effort, high.extra_body], [{ type: 'enabled' }, 'high', undefined]);
  assert.equal('thinking' in transformRequest(body, { base_url: DEEPSEEK }), false);
  assert.deepEqual(body, { model: 'deepseek-chat', messages: [] }, 'the input body is left unchanged');
});

test('the DeepSeek effort ladder keeps the settings apart; executors default to off', () => {
  const sent = (effort) => transformRequest({ messages: [] }, { base_url: DEEPSEEK, effort }).reasoning_effort;
  assert.deepEqual(['low', 'medium', 'high', 'max'].map(sent), ['low', 'low', 'high', 'max']);
  assert.deepEqual(transformRequest({ messages: [] }, { base_url: DEEPSEEK, role: 'executor' }).thinking, { type: 'disabled' });
});

test('with tools, the current era backfills every assistant turn and keeps real reasoning', () => {
  const out = transformRequest({ messages: HISTORY, tools: [TOOL] }, { base_url: DEEPSEEK });
  assert.deepEqual(out.messages.map((m) => m.reasoning_content), [undefined, '', undefined, 'kept', '']);
});

test('v3.2 backfills tool-call turns only; r1 strips it; no tools leaves it alone', () => {
  const v32 = transformRequest({ messages: HISTORY, tools: [TOOL] }, { base_url: DEEPSEEK, era: 'v3.2' });
  assert.deepEqual(v32.messages.map((m) => m.reasoning_content), [undefined, '', undefined, 'kept', undefined]);
  const r1 = transformRequest({ messages: HISTORY, tools: [TOOL] }, { base_url: DEEPSEEK, era: 'r1' });
  assert.ok(r1.messages.every((m) => !('reasoning_content' in m)));
  const noTools = transformRequest({ messages: HISTORY }, { base_url: DEEPSEEK });
  assert.deepEqual(noTools.messages, HISTORY);
});

test('other hosts, look-alikes included, get neither thinking nor reasoning_content', () => {
  for (const url of ['https://api.openai.com/v1', 'https://api.deepseek.com.evil.io/v1', 'https://api.deepseek.com@evil.io/', null]) {
    const out = transformRequest({ messages: HISTORY, tools: [TOOL], thinking: { type: 'enabled' } }, { base_url: url, effort: 'medium' });
    assert.equal('thinking' in out, false, url);
    assert.ok(out.messages.every((m) => !('reasoning_content' in m)), url);
    assert.equal(out.reasoning_effort, 'medium', url);
  }
  assert.deepEqual(transformRequest({ messages: [] }, { base_url: 'https://API.DeepSeek.com/beta', effort: 'off' }).thinking, { type: 'disabled' });
});

test('unknown option words are refused', () => {
  assert.throws(() => transformRequest({ messages: [] }, { effort: 'extreme' }), OptionError);
});
