'use strict';
/**
 * Streamed chunks to one neutral response: content, reasoning, tool calls, finish reason, usage.
 *
 * Tool calls are keyed by their upstream `index`, never by their place in the
 * chunk's list. A fragment carrying a new `id` at an index already taken opens
 * the next call (gateways that number every parallel call 0); a fragment
 * without `index` continues the latest call.
 */

class Accumulator {
  constructor() {
    this.content = '';
    this.reasoning = '';
    this.calls = []; // {index, id, name, arguments}
    this.finishReason = null;
    this.usage = null;
  }

  add(chunk) {
    if (chunk.error) {
      throw new Error(`the provider sent an error inside the stream: ${JSON.stringify(chunk.error)}`);
    }
    if (chunk.usage) this.usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string') this.content += delta.content;
      if (typeof delta.reasoning_content === 'string') this.reasoning += delta.reasoning_content;
      for (const fragment of delta.tool_calls ?? []) this.fragment(fragment);
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
  }

  fragment(fragment) {
    const latest = this.calls[this.calls.length - 1];
    const index = fragment.index ?? latest?.index ?? 0;
    let call = [...this.calls].reverse().find((c) => c.index === index);
    if (call === undefined || (fragment.id && call.id && fragment.id !== call.id)) {
      call = { index, id: fragment.id ?? '', name: '', arguments: '' };
      this.calls.push(call);
    }
    const fn = fragment.function ?? {};
    if (fn.name) call.name = fn.name;
    if (fn.arguments != null) {
      call.arguments += typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments);
    }
  }

  response() {
    return {
      content: this.content,
      reasoning: this.reasoning,
      tool_calls: this.calls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
      finish_reason: this.finishReason,
      usage: this.usage,
    };
  }
}

module.exports = { Accumulator };
