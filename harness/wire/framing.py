"""How a format's stream body is cut into frames: the framing is a field of a format's row, not an assumption.

A framing knows the media type its bodies are served with and where each
frame of a body ends, which is all the delivery cuts need (a cut inside every
frame, never at its end). SSE is what every format here streams today;
NDJSON (one JSON value a line) is what the next formats bring.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_SSE_EVENT_END = re.compile(rb"(?:\r\n|\n|\r){2}")
_LINE_END = re.compile(rb"\r\n|\n|\r")


@dataclass(frozen=True)
class BodyFraming:
    """A framing by name: the media type of its bodies and the offsets where each frame of a body ends."""

    name: str
    media_type: str
    frame_ends: Callable[[bytes], list[int]]

    def frames(self, body: bytes) -> list[bytes]:
        """``body`` cut after every frame (the separator stays with its frame); joined they give ``body``."""
        edges = [0, *[end for end in self.frame_ends(body) if 0 < end < len(body)], len(body)]
        return [body[a:b] for a, b in zip(edges, edges[1:]) if b > a]


def _sse_ends(body: bytes) -> list[int]:
    return [m.end() for m in _SSE_EVENT_END.finditer(body)]


def _line_ends(body: bytes) -> list[int]:
    return [m.end() for m in _LINE_END.finditer(body)]


SSE = BodyFraming("sse", "text/event-stream", _sse_ends)
NDJSON = BodyFraming("ndjson", "application/x-ndjson", _line_ends)
