'use strict';
/**
 * An incremental SSE decoder: network reads in, complete events out.
 *
 * A read may end anywhere: inside an event, between the `\r` and `\n` of a line
 * end, inside a UTF-8 character. So the decoder keeps what it has not finished:
 * the bytes of a cut character (TextDecoder in stream mode), the text after the
 * last complete line, a trailing `\r` that may be half of `\r\n`, and the data
 * lines of an event whose blank line has not arrived yet.
 */

class SSEDecoder {
  constructor() {
    this.decoder = new TextDecoder('utf-8');
    this.text = ''; // read but not yet a complete line
    this.data = []; // data lines of the event in progress
  }

  /** Feed one network read; returns the data of every event it completed. */
  push(bytes) {
    this.text += this.decoder.decode(bytes, { stream: true });
    const events = [];
    for (;;) {
      const end = /\r\n|\n|\r/.exec(this.text);
      if (end === null) break;
      if (end[0] === '\r' && end.index === this.text.length - 1) break; // may be half of a \r\n
      const line = this.text.slice(0, end.index);
      this.text = this.text.slice(end.index + end[0].length);
      const event = this.line(line);
      if (event !== null) events.push(event);
    }
    return events;
  }

  /** The stream ended: an event without its closing blank line is dropped, as the SSE rules say. */
  end() {
    this.decoder.decode();
    return [];
  }

  line(line) {
    if (line === '') {
      if (this.data.length === 0) return null;
      const data = this.data.join('\n');
      this.data = [];
      return data;
    }
    if (line.startsWith(':')) return null; // a comment: keep-alive
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    return null;
  }
}

module.exports = { SSEDecoder };
