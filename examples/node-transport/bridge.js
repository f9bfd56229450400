#!/usr/bin/env node
'use strict';
/**
 * The harness bridge for this adapter (protocol 1): it offers the `transport`
 * capability, so the harness serves its recordings from the loopback provider
 * and hands `run_http_turn` that server's base URL.
 *
 *   harness check --adapter-cmd "node examples/node-transport/bridge.js"
 *
 * During `run_http_turn` the adapter asks the harness to run each tool with a
 * `tool` request and reads the reply from stdin.
 */

const readline = require('node:readline');
const { runHttpTurn } = require('./src/turn');

const PROTOCOL = 1;
const pending = new Map(); // our callback id -> resolve/reject
let nextId = 0;

function send(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function ask(method, params) {
  nextId += 1;
  const id = `t${nextId}`;
  send({ id, method, params });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

const methods = {
  handshake(params) {
    if (params.protocol !== PROTOCOL) {
      throw Object.assign(new Error(`this adapter speaks protocol ${PROTOCOL}, not ${params.protocol}`), { type: 'unsupported' });
    }
    return { protocol: PROTOCOL, name: 'node transport example', capabilities: ['transport'] };
  },
  run_http_turn(params) {
    const runTool = async (name, args) => (await ask('tool', { name, arguments: args })).content;
    return runHttpTurn(params.base_url, params.user_input, params.tools, params.options ?? {}, runTool);
  },
};

async function serve(request) {
  const method = Object.hasOwn(methods, request.method) ? methods[request.method] : null;
  try {
    if (method === null) throw Object.assign(new Error(`no method ${JSON.stringify(request.method)}`), { type: 'unsupported' });
    send({ id: request.id, result: await method(request.params ?? {}) });
  } catch (err) {
    if (!err.type) process.stderr.write(`${request.method} failed: ${err.stack}\n`);
    send({ id: request.id, error: { type: err.type ?? 'internal', message: String(err.message) } });
  }
}

readline.createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method !== undefined) {
    serve(message);
    return;
  }
  const waiter = pending.get(message.id);
  pending.delete(message.id);
  if (waiter === undefined) return;
  if (message.error) waiter.reject(new Error(`the harness answered ${message.error.type}: ${message.error.message}`));
  else waiter.resolve(message.result);
});
