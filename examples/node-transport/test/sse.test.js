'use strict';
const assert = require('node:assert/strict');
const { test } = require('node:test');
const { SSEDecoder } = require('../src/sse');

const BODY = Buffer.from('data: {"a":"Zürich"}\r\n\r\n: keep-alive\r\n\r\ndata: [DONE]\r\n\r\n');

function decodeIn(pieces) {
  const decoder = new SSEDecoder();
  return [...pieces.flatMap((p) => decoder.push(p)), ...decoder.end()];
}

test('a body in one piece gives its events', () => {
  assert.deepEqual(decodeIn([BODY]), ['{"a":"Zürich"}', '[DONE]']);
});

test('a body one byte at a time gives the same events', () => {
  const bytes = [...BODY].map((b) => Buffer.from([b]));
  assert.deepEqual(decodeIn(bytes), ['{"a":"Zürich"}', '[DONE]']);
});

test('an event without its closing blank line is dropped', () => {
  assert.deepEqual(decodeIn([Buffer.from('data: x\n\ndata: y')]), ['x']);
});
