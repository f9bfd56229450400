"""How a format's stream body is cut into frames: the framing is a field of a format's row, not an assumption.

A framing knows the media type its bodies are served with, where each frame
of a body ends (all the delivery cuts need: a cut inside every frame, never at
its end), and how to read a body's events out and write events back as a
body (what the shapes of :mod:`harness.testing.shapes` rewrite). An event is
``(name, data)``: SSE keeps its ``event:`` name where the body has one, NDJSON
has none. SSE is what most formats here stream; NDJSON (one JSON value a
line) is what the next formats bring; AWS event-stream (binary, CRC-checked
messages, :mod:`harness.wire.eventstream`) is Bedrock's, each event's data
the JSON ``{event type: payload}``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from harness.wire import eventstream
from harness.wire.sse import named_events, sse_events

_SSE_EVENT_END = re.compile(rb"(?:\r\n|\n|\r){2}")
_LINE_END = re.compile(rb"\r\n|\n|\r")

Event = tuple["str | None", str]  # (the event's name, or None; its data)


@dataclass(frozen=True)
class BodyFraming:
    """A framing by name: the media type of its bodies, the offsets where each frame ends, its reader and writer."""

    name: str
    media_type: str
    frame_ends: Callable[[bytes], list[int]]
    read: Callable[[bytes], list[Event]]  # the events a body dispatches, in order
    write: Callable[[Sequence[Event]], bytes]  # events as a whole body, which reads back to them
    text: bool = True  # its bodies are UTF-8 text (served with charset=utf-8); False: binary

    def frames(self, body: bytes) -> list[bytes]:
        """``body`` cut after every frame (the separator stays with its frame); joined they give ``body``."""
        edges = [0, *[end for end in self.frame_ends(body) if 0 < end < len(body)], len(body)]
        return [body[a:b] for a, b in zip(edges, edges[1:]) if b > a]


def _sse_ends(body: bytes) -> list[int]:
    return [m.end() for m in _SSE_EVENT_END.finditer(body)]


def _line_ends(body: bytes) -> list[int]:
    return [m.end() for m in _LINE_END.finditer(body)]


def _sse_read(body: bytes) -> list[Event]:
    # Every event the body carries, the last one too where the body stops right after its data line.
    return named_events(body + b"\n\n")


def _lines(body: bytes) -> list[Event]:
    return [(None, line.decode("utf-8")) for line in _LINE_END.split(body) if line.strip()]


def _ndjson(events: Sequence[Event]) -> bytes:
    return "".join(f"{data}\n" for _, data in events).encode()


SSE = BodyFraming("sse", "text/event-stream", _sse_ends, _sse_read, sse_events)
NDJSON = BodyFraming("ndjson", "application/x-ndjson", _line_ends, _lines, _ndjson)
EVENT_STREAM = BodyFraming("eventstream", "application/vnd.amazon.eventstream", eventstream.frame_ends,
                           eventstream.events, eventstream.write_events, text=False)
