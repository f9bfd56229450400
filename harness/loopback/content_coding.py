"""HTTP content codings of a streamed body: which one a request accepts, and the body written in it.

A provider (or the CDN before it) may answer a streamed request with
``Content-Encoding: gzip``, ``deflate`` or ``br``; a client decodes before it
frames events. A real server uses only a coding the request's
``Accept-Encoding`` offers, so the players here do the same: the coding they
prefer when it is offered, else the offered one the client ranks highest,
else ``identity`` (no header, no coding; also when nothing is offered, as
servers answer a client that sends no ``Accept-Encoding``).

Each piece of a delivery is compressed and flushed on its own, as a server
that flushes a compressed stream does, so the bytes of a piece decode to
exactly that piece of the body and the delivery's cuts survive the coding.
"""

from __future__ import annotations

import zlib

import brotli

IDENTITY = "identity"
CODINGS = ("gzip", "deflate", "br")


def offered(accept_encoding: str | None) -> list[str]:
    """The codings of :data:`CODINGS` that ``accept_encoding`` accepts, the client's best first."""
    ranked: dict[str, float] = {}
    for item in (accept_encoding or "").split(","):
        name, _, params = item.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if name.strip():
            ranked.setdefault(name.strip().lower(), q)
    star = ranked.get("*", 0.0)
    order = sorted(CODINGS, key=lambda c: (-ranked.get(c, star), list(ranked).index(c) if c in ranked else 99))
    return [c for c in order if ranked.get(c, star) > 0]


def choose(preferred: str, accept_encoding: str | None) -> str:
    """The coding a server that prefers ``preferred`` answers in: never one the request did not offer."""
    if preferred == IDENTITY:
        return IDENTITY
    accepted = offered(accept_encoding)
    if preferred in accepted:
        return preferred
    return accepted[0] if accepted else IDENTITY


def encode(pieces: list[bytes], coding: str) -> list[bytes]:
    """``pieces`` written in ``coding``: each compressed and flushed, the coding's end in the last one."""
    if coding == IDENTITY:
        return list(pieces)
    if coding == "br":
        compressor = brotli.Compressor()
        coded = [compressor.process(p) + compressor.flush() for p in pieces]
        return coded[:-1] + [coded[-1] + compressor.finish()]
    if coding not in CODINGS:
        raise ValueError(f"content coding {coding!r}; expected identity or one of {', '.join(CODINGS)}")
    compressor = zlib.compressobj(wbits=31 if coding == "gzip" else 15)  # 31: gzip's header; 15: zlib's (HTTP deflate)
    coded = [compressor.compress(p) + compressor.flush(zlib.Z_SYNC_FLUSH) for p in pieces]
    return coded[:-1] + [coded[-1] + compressor.flush()]
