"""The reference's reader of AWS event-stream bodies: whole, CRC-checked messages, or an error naming where.

Each message: prelude (total length, headers length, big-endian uint32; a
CRC32 of those 8 bytes), headers, payload, a CRC32 of all before it. Header
values are typed: 0/1 booleans, 2-5 signed integers of 1, 2, 4 and 8 bytes,
6 bytes and 7 a string (2-byte length first), 8 a timestamp (8 bytes), 9 a
UUID (16 bytes); any other type is refused, since its width is unknown.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator

_PRELUDE = 12
_WIDTHS = {0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16}


class FrameError(ValueError):
    """A body the reader refuses: cut inside a message, a CRC that does not match, a header it cannot read."""


def _headers(raw: bytes) -> dict[str, object]:
    found: dict[str, object] = {}
    at = 0
    while at < len(raw):
        size = raw[at]
        name = raw[at + 1:at + 1 + size].decode("utf-8", "replace")
        at += 1 + size
        if at >= len(raw):
            raise FrameError(f"header {name!r} has no type")
        kind = raw[at]
        at += 1
        if kind in (6, 7):
            (length,) = struct.unpack_from(">H", raw, at)
            value: object = raw[at + 2:at + 2 + length]
            at += 2 + length
            if kind == 7:
                value = value.decode("utf-8")
        elif kind in _WIDTHS:
            value = raw[at:at + _WIDTHS[kind]] if kind in (2, 3, 4, 5, 8, 9) else kind == 0
            at += _WIDTHS[kind]
        else:
            raise FrameError(f"header {name!r} has type {kind}, which AWS does not define")
        if at > len(raw):
            raise FrameError(f"header {name!r} runs past the headers")
        found[name] = value
    return found


def messages(body: bytes) -> Iterator[tuple[int, dict[str, object], bytes]]:
    """``(message number, headers, payload)`` for each message of ``body``, checked as the module says."""
    at, number = 0, 0
    while at < len(body):
        number += 1
        if len(body) - at < _PRELUDE:
            raise FrameError(f"message {number}: the body ends inside its prelude")
        total, size, crc = struct.unpack_from(">III", body, at)
        if zlib.crc32(body[at:at + 8]) != crc:
            raise FrameError(f"message {number}: its prelude CRC32 does not match")
        if total < _PRELUDE + 4 + size:
            raise FrameError(f"message {number}: a total length of {total} cannot hold {size} bytes of headers")
        if at + total > len(body):
            raise FrameError(f"message {number}: the body ends after {len(body) - at} of its {total} bytes")
        whole = body[at:at + total]
        if zlib.crc32(whole[:-4]) != struct.unpack_from(">I", whole, total - 4)[0]:
            raise FrameError(f"message {number}: its message CRC32 does not match")
        try:
            headers = _headers(whole[_PRELUDE:_PRELUDE + size])
        except (struct.error, UnicodeDecodeError, FrameError) as exc:
            raise FrameError(f"message {number}: its headers cannot be read ({exc})") from None
        yield number, headers, whole[_PRELUDE + size:-4]
        at += total
