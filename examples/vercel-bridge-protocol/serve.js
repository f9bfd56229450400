'use strict';
/**
 * The harness bridge protocol (protocol 1, docs/adapter-protocol.md in the
 * harness repository) for the Vercel AI SDK bridges beside this folder: one
 * JSON request a line on stdin, one answer a line on stdout, in order. A
 * bridge names itself, its wire format and its capability methods; this file
 * answers the handshake and turns what a method throws into an error reply.
 * Node built-ins only, so each bridge requires it by path.
 *
 * stdout carries protocol lines only; console.log is sent to stderr so that a
 * stray log line from a dependency cannot corrupt the channel.
 */

const readline = require('node:readline');

console.log = console.error;
console.info = console.error;
globalThis.AI_SDK_LOG_WARNINGS = false;

const PROTOCOL = 1;

/** An error reply of a given type; anything else thrown becomes "internal". */
class Refusal extends Error {
  constructor(type, message) {
    super(message);
    this.type = type;
  }
}

/** An error as one line of text, whatever was thrown. */
function describe(err) {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}

async function reply(methods, line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    process.stderr.write(`not a JSON line: ${line}\n`);
    return null;
  }
  try {
    if (!Object.hasOwn(methods, request.method)) {
      throw new Refusal('unsupported', `no method ${JSON.stringify(request.method)}`);
    }
    return { id: request.id, result: await methods[request.method](request.params ?? {}) };
  } catch (err) {
    if (!(err instanceof Refusal)) process.stderr.write(`${request.method} failed: ${err?.stack ?? err}\n`);
    const type = err instanceof Refusal ? err.type : 'internal';
    return { id: request.id, error: { type, message: String(err?.message ?? err) } };
  }
}

/**
 * Answer the harness until stdin closes. `format` is left out of the handshake
 * when absent (the harness then reads the default, chat completions);
 * `methods` maps protocol method names (parse_stream, serialize_message) to
 * functions of their params.
 */
function serve({ name, format, capabilities, methods }) {
  const all = {
    ...methods,
    handshake(params) {
      if (params.protocol !== PROTOCOL) {
        throw new Refusal('unsupported', `this adapter speaks protocol ${PROTOCOL}, not ${params.protocol}`);
      }
      return { protocol: PROTOCOL, name, ...(format ? { format } : {}), capabilities };
    },
  };
  // One request at a time, answered in order.
  let queue = Promise.resolve();
  readline
    .createInterface({ input: process.stdin, crlfDelay: Infinity })
    .on('line', (line) => {
      queue = queue.then(async () => {
        const answer = await reply(all, line);
        if (answer !== null) process.stdout.write(`${JSON.stringify(answer)}\n`);
      });
    });
}

module.exports = { Refusal, describe, serve };
