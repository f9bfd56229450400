#!/usr/bin/env node
'use strict';
/**
 * The harness bridge for this adapter: JSON lines on stdin/stdout (protocol 1,
 * docs/adapter-protocol.md in the harness repository).
 *
 *   harness check --adapter-cmd "node examples/node-adapter/bridge.js"
 *
 * One request per line in, one reply per line out. stdout carries protocol
 * lines only; anything meant for people goes to stderr, which the harness
 * attaches to a failing contract's report.
 */

const readline = require('node:readline');
const { StreamError, parseStream, serializeMessage } = require('./src/codec');
const { OptionError, transformRequest } = require('./src/provider');

const PROTOCOL = 1;

/** An error reply of a given type; anything else thrown becomes "internal". */
class Refusal extends Error {
  constructor(type, message) {
    super(message);
    this.type = type;
  }
}

const methods = {
  handshake(params) {
    if (params.protocol !== PROTOCOL) {
      throw new Refusal('unsupported', `this adapter speaks protocol ${PROTOCOL}, not ${params.protocol}`);
    }
    return { protocol: PROTOCOL, name: 'node example adapter', capabilities: ['codec'] };
  },
  serialize_message: (params) => serializeMessage(params.message),
  parse_stream: (params) => parseStream(Buffer.from(params.body_base64, 'base64')),
  transform_request: (params) => transformRequest(params.body, params.options),
};

function answer(request) {
  const method = Object.hasOwn(methods, request.method) ? methods[request.method] : null;
  if (method === null) throw new Refusal('unsupported', `no method ${JSON.stringify(request.method)}`);
  try {
    return method(request.params ?? {});
  } catch (err) {
    // The codec's own refusals are the input's fault, as a Python adapter's ValueError would be.
    if (err instanceof StreamError || err instanceof OptionError) throw new Refusal('invalid_input', err.message);
    throw err;
  }
}

function reply(line) {
  const request = JSON.parse(line);
  try {
    return { id: request.id, result: answer(request) };
  } catch (err) {
    if (!(err instanceof Refusal)) process.stderr.write(`${request.method} failed: ${err.stack}\n`);
    return { id: request.id, error: { type: err.type ?? 'internal', message: String(err.message) } };
  }
}

readline
  .createInterface({ input: process.stdin, crlfDelay: Infinity })
  .on('line', (line) => process.stdout.write(`${JSON.stringify(reply(line))}\n`));
