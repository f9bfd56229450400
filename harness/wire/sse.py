"""SSE bodies as servers frame them (chat: one ``data:`` event per chunk; Messages: named events), and read back.

The writer (:func:`sse`) and the reader (:func:`events`, :func:`chunks`) are
one pair: every framing the writer produces reads back to the same events,
by the WHATWG event-stream rules. The reference implementation under
mutation has its own parser (``harness/reference/sse.py``); this one reads
the harness's own streams, so a mutant there never changes what the harness
believes it sent.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

DONE = "[DONE]"
_LINE_END = re.compile(r"\r\n|\r|\n")

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
    payloads = [json.dumps(chunk, ensure_ascii=False) for chunk in chunks]
    if framing.done:
        payloads.append(DONE)
    return sse_events([(None, payload) for payload in payloads], framing)


def sse_events(named: Iterable[tuple[str | None, str]], framing: Framing = PLAIN) -> bytes:
    """``(event name, data)`` pairs as an SSE body: an ``event:`` line before the data when the name is not None.

    ``framing.done`` is the chat format's end marker and is not added here.
    """
    prefix = "data: " if framing.space else "data:"
    end = framing.line_end
    comment = f": keep-alive{end}{end}" if framing.keep_alive else ""
    events = [(f"event: {name}{end}" if name is not None else "") + f"{prefix}{payload}{end}{end}{comment}"
              for name, payload in named]
    body = comment + "".join(events)
    if not framing.terminated and events:
        # The last event stops right after its data line: no line end, no blank line.
        body = body[: len(body) - len(comment) - 2 * len(end)]
    return body.encode()


def events(body: bytes | str) -> list[str]:
    """The data of every event ``body`` dispatches, in order, ``[DONE]`` included (see :func:`named_events`)."""
    return [data for _, data in named_events(body)]


def named_events(body: bytes | str) -> list[tuple[str | None, str]]:
    """``(event name or None, data)`` of every event ``body`` dispatches, in order, ``[DONE]`` included.

    WHATWG framing: a line ends at CR, LF or CRLF; a blank line ends an event;
    a line starting with ``:`` is a comment; ``data:`` loses one leading space
    and its values join with LF; ``event:`` names the event (None without
    one); other fields (``id:``, ``retry:``) are not read. An event without data is no event, and one the body stops inside
    (no blank line after it) is discarded, as a browser discards it.
    """
    text = body.decode("utf-8") if isinstance(body, bytes) else body
    lines = _LINE_END.split(text.removeprefix("\ufeff"))
    found: list[tuple[str | None, str]] = []
    data: list[str] | None = None
    event: str | None = None
    for line in lines[:-1]:  # the last piece has no line end: the body stopped inside it
        if not line:
            if data is not None:
                found.append((event, "\n".join(data)))
            data, event = None, None
            continue
        name, colon, value = line.partition(":")
        value = value.removeprefix(" ") if colon else ""
        if name == "data":
            data = [*(data or []), value]
        elif name == "event":
            event = value
    return found


def chunks(body: bytes | str) -> list[dict]:
    """The JSON chunk of every event of ``body``; ``[DONE]`` is the end marker, not a chunk."""
    return [json.loads(data) for data in events(body) if data != DONE]
