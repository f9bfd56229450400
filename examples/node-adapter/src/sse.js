'use strict';
/**
 * Server-sent-events framing: a raw response body (a Buffer) to the data of each event.
 *
 * Line ends may be CRLF, LF or a lone CR; several `data:` lines of one event
 * are joined with "\n"; comments (`:`) and other fields are skipped; a body may
 * end without `[DONE]` or without a closing blank line. Each line must be
 * valid UTF-8: a replacement character would hide corruption inside tool
 * arguments, so a bad line is refused instead.
 */

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const LF = 0x0a;
const CR = 0x0d;
const DONE = '[DONE]';
const SHOWN = 200; // characters of an offending event quoted in an error

/** The one error the stream parser raises: a body it refuses, naming the event. */
class StreamError extends Error {
  constructor(eventNumber, text, reason) {
    const shown = JSON.stringify(text.slice(0, SHOWN)) + (text.length > SHOWN ? '...' : '');
    super(`event ${eventNumber}: ${reason}: ${shown}`);
    this.name = 'StreamError';
    this.eventNumber = eventNumber;
    this.text = text;
  }
}

/** The lines of `body`, each a Buffer without its line end. */
function* lines(body) {
  let start = 0;
  for (let k = 0; k < body.length; k++) {
    const byte = body[k];
    if (byte !== LF && byte !== CR) continue;
    yield body.subarray(start, k);
    if (byte === CR && body[k + 1] === LF) k++;
    start = k + 1;
  }
  yield body.subarray(start);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeLine(raw, eventNumber) {
  try {
    return utf8.decode(raw);
  } catch {
    throw new StreamError(eventNumber, escaped(raw), 'not valid UTF-8');
  }
}

// Printable ASCII as is, every other byte as \xNN, so the bad byte shows in the message.
function escaped(raw) {
  return Array.from(raw, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('');
}

/** Yields `[eventNumber, data]` for each event that carries data, up to `[DONE]`. */
function* events(body) {
  const text = body.subarray(0, 3).equals(BOM) ? body.subarray(3) : body;
  let number = 0;
  let data = [];
  // The trailing empty line closes an event the stream left unterminated.
  for (const raw of [...lines(text), Buffer.alloc(0)]) {
    const line = decodeLine(raw, number + 1);
    if (line !== '') {
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1);
      if (field === 'data') data.push(value.startsWith(' ') ? value.slice(1) : value);
      continue;
    }
    if (data.length === 0) continue;
    number++;
    const joined = data.join('\n');
    data = [];
    if (joined.trim() === DONE) return;
    yield [number, joined];
  }
}

module.exports = { StreamError, events };
