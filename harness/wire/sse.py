"""SSE bodies as a chat-completions server frames them: one ``data:`` event per chunk."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

@dataclass(frozen=True)
class Framing:
    """How the events of a body are written.

    ``space``: ``data: `` rather than ``data:``; ``line_end``: ``"\\n"``,
    ``"\\r\\n"`` or ``"\\r"``; ``keep_alive``: a ``: keep-alive`` comment event
    before the first event and after each; ``done``: a closing ``data: [DONE]``
    event; ``terminated``: the last event ends with its blank line (without
    one, WHATWG SSE discards that event).
    """

    space: bool = True
    line_end: str = "\n"
    keep_alive: bool = False
    done: bool = True
    terminated: bool = True


PLAIN = Framing()


def sse(chunks: Iterable[dict], framing: Framing = PLAIN) -> bytes:
    """``chunks`` as an SSE body, one ``data:`` event each, framed by ``framing``."""
    prefix = "data: " if framing.space else "data:"
    payloads = [json.dumps(chunk, ensure_ascii=False) for chunk in chunks]
    if framing.done:
        payloads.append("[DONE]")
    end = framing.line_end
    comment = f": keep-alive{end}{end}" if framing.keep_alive else ""
    events = [f"{prefix}{payload}{end}{end}{comment}" for payload in payloads]
    body = comment + "".join(events)
    if not framing.terminated and events:
        # The last event stops right after its data line: no line end, no blank line.
        body = body[: len(body) - len(comment) - 2 * len(end)]
    return body.encode()
