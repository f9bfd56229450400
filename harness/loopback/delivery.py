"""How the loopback provider hands a response body to the network: whole, or cut into pieces.

A real provider's stream reaches a client in whatever pieces TCP and the
proxies in between produce: an event may end in the middle of one read, a
``\\r\\n`` may straddle two reads, and so may the bytes of one UTF-8
character. Replay in one piece hides every client bug that assumes a read
holds whole events; a delivery setting makes each of those cuts certain.

Modes:

``whole``
    the body in one write.
``bytes``
    pieces of ``size`` bytes.
``inside-events``
    every event (a frame of the body's framing: an SSE event, an NDJSON line)
    is cut in its middle, so no piece ends where an event ends.
``inside-crlf``
    the body is framed with ``\\r\\n`` line ends and every piece ends between
    a ``\\r`` and its ``\\n``.
``inside-utf8``
    every multi-byte UTF-8 character is cut after its first byte.

``delay`` (seconds) is waited between pieces; with a few milliseconds each
piece reaches the client in a read of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from harness.wire.framing import SSE, BodyFraming

MODES = ("whole", "bytes", "inside-events", "inside-crlf", "inside-utf8")
# The other direction's bound: seconds a client has to send a request's headers, and again its body.
CLIENT_TIMEOUT = 60.0


@dataclass(frozen=True)
class Delivery:
    """How a body is written: ``mode`` (see the module), ``size`` for ``bytes``, ``delay`` between pieces."""

    mode: str = "whole"
    size: int = 0
    delay: float = 0.0

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"delivery mode {self.mode!r}; expected one of {', '.join(MODES)}")
        if self.mode == "bytes" and self.size < 1:
            raise ValueError(f"delivery mode 'bytes' needs a size of at least 1 byte, got {self.size}")
        if self.delay < 0 or self.delay > 5:
            raise ValueError(f"delivery delay {self.delay} s; expected 0 to 5 seconds")

    @classmethod
    def parse(cls, text: str, delay: float = 0.0) -> Delivery:
        """``whole``, ``bytes:N`` (or just ``N``), ``inside-events``, ``inside-crlf``, ``inside-utf8``."""
        mode, _, size = text.partition(":")
        if mode.isdigit():
            mode, size = "bytes", mode
        if size and not size.isdigit():
            raise ValueError(f"delivery {text!r}: the size after ':' must be a number of bytes")
        return cls(mode, int(size or 0), delay)

    def describe(self) -> str:
        shown = f"bytes:{self.size}" if self.mode == "bytes" else self.mode
        return shown + (f", {self.delay * 1000:g} ms between pieces" if self.delay else "")

    def pieces(self, body: bytes, framing: BodyFraming = SSE) -> list[bytes]:
        """``body`` (framed as ``framing`` says) as the pieces this delivery writes, in order; joined, the body sent."""
        if self.mode == "whole" or not body:
            return [body]
        if self.mode == "bytes":
            return [body[i : i + self.size] for i in range(0, len(body), self.size)]
        if self.mode == "inside-crlf":
            body = to_crlf(body)
            return _split_at(body, [m.start() + 1 for m in re.finditer(rb"\r\n", body)])
        if self.mode == "inside-utf8":
            return _split_at(body, [m.start() + 1 for m in re.finditer(rb"[\xc2-\xf4]", body)])
        return _split_at(body, _event_middles(body, framing.frame_ends(body)))

    def body(self, body: bytes) -> bytes:
        """What the client receives once every piece arrived (``inside-crlf`` reframes the line ends)."""
        return b"".join(self.pieces(body))


WHOLE = Delivery()


def to_crlf(body: bytes) -> bytes:
    """``body`` with every line end written ``\\r\\n``."""
    return re.sub(rb"\r\n|\r|\n", b"\r\n", body)


def _event_middles(body: bytes, ends: list[int]) -> list[int]:
    """One cut inside each event (``ends``: where each ends, its separator included): never at a line end nor in a character."""
    cuts, start = [], 0
    for end in [*ends, len(body)]:
        content = len(body[start:end].rstrip(b"\r\n"))  # the event without the line ends that close it
        cut = start + content // 2
        while cut > start and (body[cut] & 0xC0 == 0x80 or body[cut - 1 : cut] in (b"\r", b"\n")):
            cut -= 1  # a continuation byte or a line end would make this another kind of cut
        if start < cut < start + content:
            cuts.append(cut)
        start = max(start, end)
    return cuts


def _split_at(body: bytes, cuts: list[int]) -> list[bytes]:
    edges = [0, *sorted(set(c for c in cuts if 0 < c < len(body))), len(body)]
    return [body[a:b] for a, b in zip(edges, edges[1:])]
