'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { StreamError, ToolCallAccumulator, parseStream, serializeMessage } = require('../src/codec');

const CALL = { id: 'call_weather', name: 'get_weather', arguments: '{"city":"Paris"}' };

function sse(...chunks) {
  return Buffer.from(chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n');
}

function toolChunk(...fragments) {
  return { choices: [{ index: 0, delta: { tool_calls: fragments }, finish_reason: null }] };
}

const open = (index, id, name, args = '') => ({ index, id, type: 'function', function: { name, arguments: args } });
const more = (index, args) => ({ index, function: { arguments: args } });

test.describe('serializeMessage', () => {
  test('reasoning is a top-level reasoning_content beside untouched content', () => {
    const wire = serializeMessage({ role: 'assistant', content: 'It is 12.', reasoning: 'Check the invoice.' });
    assert.deepEqual(wire, { role: 'assistant', content: 'It is 12.', reasoning_content: 'Check the invoice.' });
  });

  test('reasoning rides along with tool calls, and content is null', () => {
    const wire = serializeMessage({ role: 'assistant', content: null, reasoning: 'Need weather.', tool_calls: [CALL] });
    assert.equal(wire.reasoning_content, 'Need weather.');
    assert.equal(wire.content, null);
    assert.deepEqual(wire.tool_calls, [
      { id: 'call_weather', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
    ]);
  });

  for (const reasoning of [null, undefined, '']) {
    test(`no reasoning_content key when reasoning is ${JSON.stringify(reasoning)}`, () => {
      const plain = serializeMessage({ role: 'assistant', content: 'Hi.', reasoning });
      assert.equal('reasoning_content' in plain, false, JSON.stringify(plain));
      const calls = serializeMessage({ role: 'assistant', content: null, reasoning, tool_calls: [CALL] });
      assert.equal('reasoning_content' in calls, false, JSON.stringify(calls));
    });
  }

  test('a tool-calls-only message sends content null, not ""', () => {
    assert.equal(serializeMessage({ role: 'assistant', content: '', tool_calls: [CALL] }).content, null);
  });

  test('user and tool messages', () => {
    assert.deepEqual(serializeMessage({ role: 'user', content: 'q', reasoning: 'x' }), { role: 'user', content: 'q' });
    assert.deepEqual(serializeMessage({ role: 'tool', content: 'sunny', tool_call_id: 'call_weather' }), {
      role: 'tool',
      content: 'sunny',
      tool_call_id: 'call_weather',
    });
  });
});

test.describe('ToolCallAccumulator', () => {
  test('fragments follow their upstream index, not their place in the chunk', () => {
    const acc = new ToolCallAccumulator();
    acc.add([open(0, 'call_a', 'f')]);
    acc.add([open(1, 'call_b', 'g')]);
    acc.add([more(0, '{"a":1}')]);
    acc.add([more(1, '{"b":2}')]);
    assert.deepEqual(acc.calls(), [
      { id: 'call_a', name: 'f', arguments: '{"a":1}' },
      { id: 'call_b', name: 'g', arguments: '{"b":2}' },
    ]);
  });

  test('several fragments in one chunk, out of index order', () => {
    const acc = new ToolCallAccumulator();
    acc.add([open(1, 'call_b', 'g', '{"b"'), open(0, 'call_a', 'f', '{"a"')]);
    acc.add([more(0, ':1}'), more(1, ':2}')]);
    assert.deepEqual(acc.calls(), [
      { id: 'call_a', name: 'f', arguments: '{"a":1}' },
      { id: 'call_b', name: 'g', arguments: '{"b":2}' },
    ]);
  });

  test('every call at index 0, told apart by a new id', () => {
    const acc = new ToolCallAccumulator();
    acc.add([open(0, 'call_a', 'f', '{"a"')]);
    acc.add([{ index: 0, id: 'call_a', function: { arguments: ':1}' } }]);
    acc.add([open(0, 'call_b', 'g', '{"b"')]);
    acc.add([{ index: 0, id: null, function: { name: null, arguments: ':2}' } }]);
    acc.add([open(0, 'call_c', 'h')]);
    assert.deepEqual(acc.calls(), [
      { id: 'call_a', name: 'f', arguments: '{"a":1}' },
      { id: 'call_b', name: 'g', arguments: '{"b":2}' },
      { id: 'call_c', name: 'h', arguments: '' },
    ]);
  });

  test('a missing index continues the latest call; numbering may start at 1', () => {
    const acc = new ToolCallAccumulator();
    acc.add([{ id: 'call_a', function: { name: 'f', arguments: '{"a":' } }]);
    acc.add([{ function: { arguments: '1}' } }]);
    acc.add([open(1, 'call_b', 'g', '{}')]);
    assert.deepEqual(acc.calls(), [
      { id: 'call_a', name: 'f', arguments: '{"a":1}' },
      { id: 'call_b', name: 'g', arguments: '{}' },
    ]);
  });

  test('object arguments are kept as compact JSON text', () => {
    const acc = new ToolCallAccumulator();
    acc.add([open(0, 'call_a', 'f', { city: 'Zürich', days: [1, 2] })]);
    assert.equal(acc.calls()[0].arguments, '{"city":"Zürich","days":[1,2]}');
  });
});

test.describe('parseStream', () => {
  test('content, reasoning, finish reason and usage', () => {
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    const body = sse(
      { choices: [{ index: 0, delta: { role: 'assistant', content: null, reasoning_content: '' } }] },
      { choices: [{ index: 0, delta: { reasoning_content: 'Think.' } }] },
      { choices: [{ index: 0, delta: { content: 'Hello' } }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { choices: [], usage },
    );
    assert.deepEqual(parseStream(body), {
      content: 'Hello',
      reasoning: 'Think.',
      tool_calls: [],
      finish_reason: 'stop',
      usage,
    });
  });

  test('twelve parallel calls streamed interleaved keep their own arguments', () => {
    const calls = Array.from({ length: 12 }, (_, k) => [`call_${k}`, `tool_${k}`, JSON.stringify({ city: `C${k}` })]);
    const chunks = calls.map(([id, name], k) => toolChunk(open(k, id, name)));
    for (const [k, [, , args]] of calls.entries()) chunks.push(toolChunk(more(k, args.slice(0, 4))));
    for (const [k, [, , args]] of calls.entries()) chunks.push(toolChunk(more(k, args.slice(4))));
    const got = parseStream(sse(...chunks)).tool_calls;
    assert.deepEqual(got, calls.map(([id, name, args]) => ({ id, name, arguments: args })));
  });

  test('CRLF, comments, data without a space, no [DONE]', () => {
    const body = Buffer.from(': ping\r\n\r\ndata:{"choices":[{"delta":{"content":"a"}}]}\r\n\r\ndata: {"choices":[{"delta":{"content":"b"}}]}');
    assert.equal(parseStream(body).content, 'ab');
  });

  test('refuses a non-JSON event, naming it', () => {
    assert.throws(() => parseStream(Buffer.from('data: {"choices":[]}\n\ndata: {oops\n\n')), (err) => {
      assert.ok(err instanceof StreamError);
      assert.equal(err.eventNumber, 2);
      return true;
    });
  });

  test('refuses bytes that are not UTF-8', () => {
    const body = Buffer.concat([Buffer.from('data: {"choices":[{"delta":{"content":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}]}\n\n')]);
    assert.throws(() => parseStream(body), /not valid UTF-8/);
  });

  test('refuses a second choice', () => {
    assert.throws(() => parseStream(sse({ choices: [{ index: 1, delta: { content: 'x' } }] })), /only choice 0/);
  });
});
