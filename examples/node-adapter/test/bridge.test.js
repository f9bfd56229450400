'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');

/** Sends each request to a fresh bridge process and collects the reply lines. */
async function converse(requests) {
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'bridge.js')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const replies = [];
  const done = new Promise((resolve) => {
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      replies.push(JSON.parse(line));
      if (replies.length === requests.length) resolve();
    });
  });
  for (const request of requests) child.stdin.write(`${JSON.stringify(request)}\n`);
  await done;
  child.stdin.end();
  return replies;
}

test('handshake, a parse of raw bytes, and structured errors', async () => {
  const body = Buffer.from('data: {"choices":[{"delta":{"content":"h\u00e9"}}]}\n\n');
  const bad = Buffer.from([0x64, 0x61, 0x74, 0x61, 0x3a, 0xff, 0x0a, 0x0a]);
  const replies = await converse([
    { id: 0, method: 'handshake', params: { protocol: 1 } },
    { id: 1, method: 'parse_stream', params: { body_base64: body.toString('base64') } },
    { id: 2, method: 'parse_stream', params: { body_base64: bad.toString('base64') } },
    { id: 3, method: 'run_turn', params: {} },
    { id: 4, method: 'handshake', params: { protocol: 2 } },
  ]);
  assert.deepEqual(replies[0], { id: 0, result: { protocol: 1, name: 'node example adapter', capabilities: ['codec'] } });
  assert.equal(replies[1].result.content, 'h\u00e9');
  assert.equal(replies[2].error.type, 'invalid_input');
  assert.equal(replies[3].error.type, 'unsupported');
  assert.equal(replies[4].error.type, 'unsupported');
});
