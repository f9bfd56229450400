"""AWS event-stream messages (``application/vnd.amazon.eventstream``): the binary framing Bedrock streams in.

A message is a prelude (total length, headers length, both big-endian
uint32, then a CRC32 of those 8 bytes), the headers, the payload and a CRC32
of everything before it. A header is a name (1-byte length, UTF-8), a type
byte and a value: 0 true, 1 false, 2 byte, 3 short, 4 integer, 5 long
(signed, big-endian), 6 byte array and 7 string (2-byte length first),
8 timestamp (milliseconds, int64), 9 UUID (16 bytes). ``:message-type`` is
``event`` (named by ``:event-type``), ``exception`` (``:exception-type``, the
payload a JSON object with its ``message``) or ``error`` (``:error-code``,
``:error-message``).

:func:`messages` reads a body strictly: a body cut anywhere but between two
messages, a CRC that does not match, a length the prelude cannot have, a
header type AWS does not define: each an :class:`EventStreamError` naming the
message and the byte. :func:`events` reads the events out as ``(event type,
data)`` pairs whose data is the JSON ``{event type: payload}`` (botocore's
own shape of a Bedrock event) and raises :class:`ExceptionEvent` at an
exception or error message; :func:`write_events` is its inverse.
"""

from __future__ import annotations

import json
import struct
import uuid
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

_PRELUDE = 12
_MIN_MESSAGE = _PRELUDE + 4
# botocore's limits: a message larger than these is refused, not buffered.
MAX_HEADERS = 128 * 1024
MAX_PAYLOAD = 16 * 1024 * 1024
_FIXED = {2: ">b", 3: ">h", 4: ">i", 5: ">q", 8: ">q"}


class EventStreamError(ValueError):
    """A body that is not whole, well-formed event-stream messages."""


class ExceptionEvent(EventStreamError):
    """The stream's own error: an ``exception`` (or ``error``) message, with its type and message."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"the stream sent an exception: {kind}: {message}")
        self.kind = kind
        self.message = message


@dataclass(frozen=True)
class Message:
    headers: dict
    payload: bytes


def _crc(data: bytes) -> int:
    return zlib.crc32(data) & 0xFFFFFFFF


def _header(name: str, value: object) -> bytes:
    raw = name.encode("utf-8")
    if isinstance(value, bool):
        typed = bytes([0 if value else 1])
    elif isinstance(value, int):
        typed = b"\x04" + struct.pack(">i", value) if -2**31 <= value < 2**31 else b"\x05" + struct.pack(">q", value)
    elif isinstance(value, bytes):
        typed = b"\x06" + struct.pack(">H", len(value)) + value
    elif isinstance(value, str):
        text = value.encode("utf-8")
        typed = b"\x07" + struct.pack(">H", len(text)) + text
    elif isinstance(value, datetime):
        typed = b"\x08" + struct.pack(">q", int(value.timestamp() * 1000))
    elif isinstance(value, uuid.UUID):
        typed = b"\x09" + value.bytes
    else:
        raise TypeError(f"header {name!r}: no event-stream type for {value!r}")
    return bytes([len(raw)]) + raw + typed


def encode(headers: dict, payload: bytes) -> bytes:
    """One message: ``headers`` (name -> value, typed as :func:`_header` says) and ``payload``."""
    block = b"".join(_header(name, value) for name, value in headers.items())
    prelude = struct.pack(">II", _MIN_MESSAGE + len(block) + len(payload), len(block))
    head = prelude + struct.pack(">I", _crc(prelude)) + block + payload
    return head + struct.pack(">I", _crc(head))


def _headers(raw: bytes, number: int) -> dict:
    found, at = {}, 0
    while at < len(raw):
        size = raw[at]
        name_end = at + 1 + size
        if size == 0 or name_end + 1 > len(raw):
            raise EventStreamError(f"message {number}: a header name runs past the headers at byte {at}")
        name, kind, at = raw[at + 1:name_end].decode("utf-8", "replace"), raw[name_end], name_end + 1
        if kind in (0, 1):
            value: object = kind == 0
        elif kind in _FIXED:
            width = struct.calcsize(_FIXED[kind])
            if at + width > len(raw):
                raise EventStreamError(f"message {number}: header {name!r} runs past the headers")
            value = struct.unpack_from(_FIXED[kind], raw, at)[0]
            value = datetime.fromtimestamp(value / 1000, timezone.utc) if kind == 8 else value
            at += width
        elif kind in (6, 7):
            if at + 2 > len(raw):
                raise EventStreamError(f"message {number}: header {name!r} runs past the headers")
            length = struct.unpack_from(">H", raw, at)[0]
            value, at = raw[at + 2:at + 2 + length], at + 2 + length
            if at > len(raw):
                raise EventStreamError(f"message {number}: header {name!r} runs past the headers")
            if kind == 7:
                try:
                    value = value.decode("utf-8")
                except UnicodeDecodeError:
                    raise EventStreamError(f"message {number}: header {name!r} is not UTF-8") from None
        elif kind == 9:
            if at + 16 > len(raw):
                raise EventStreamError(f"message {number}: header {name!r} runs past the headers")
            value, at = uuid.UUID(bytes=raw[at:at + 16]), at + 16
        else:
            raise EventStreamError(f"message {number}: header {name!r} has type {kind}, which AWS does not define")
        found[name] = value
    return found


def _prelude(body: bytes, at: int, number: int) -> tuple[int, int]:
    total, headers = struct.unpack_from(">II", body, at)
    (crc,) = struct.unpack_from(">I", body, at + 8)
    if crc != _crc(body[at:at + 8]):
        raise EventStreamError(f"message {number} at byte {at}: the prelude CRC32 does not match")
    if headers > MAX_HEADERS or total - headers - _MIN_MESSAGE > MAX_PAYLOAD or total < _MIN_MESSAGE + headers:
        raise EventStreamError(f"message {number} at byte {at}: lengths {total} (total) and {headers} (headers) "
                               "no message has")
    return total, headers


def messages(body: bytes) -> list[Message]:
    """Every message of ``body``; a body that is not whole messages, each CRC matching, raises."""
    found, at = [], 0
    while at < len(body):
        number = len(found) + 1
        if len(body) - at < _PRELUDE:
            raise EventStreamError(f"the body ends inside the prelude of message {number} (byte {len(body)})")
        total, headers = _prelude(body, at, number)
        if at + total > len(body):
            raise EventStreamError(f"the body ends inside message {number}: {len(body) - at} of its {total} bytes")
        whole = body[at:at + total]
        if struct.unpack_from(">I", whole, total - 4)[0] != _crc(whole[:-4]):
            raise EventStreamError(f"message {number} at byte {at}: the message CRC32 does not match")
        found.append(Message(_headers(whole[_PRELUDE:_PRELUDE + headers], number), whole[_PRELUDE + headers:-4]))
        at += total
    return found


def frame_ends(body: bytes) -> list[int]:
    """Where each message ends, by the lengths the preludes state (as far as they can be read)."""
    ends, at = [], 0
    while len(body) - at >= _PRELUDE:
        total = struct.unpack_from(">I", body, at)[0]
        if total < _MIN_MESSAGE:
            break
        at += total
        ends.append(at)
    return ends


def _exception(message: Message) -> ExceptionEvent:
    headers = message.headers
    if headers.get(":message-type") == "error":
        return ExceptionEvent(str(headers.get(":error-code")), str(headers.get(":error-message")))
    try:
        said = json.loads(message.payload).get("message")
    except (ValueError, AttributeError):
        said = message.payload.decode("utf-8", "replace")
    return ExceptionEvent(str(headers.get(":exception-type")), str(said))


def events(body: bytes) -> list[tuple[str, str]]:
    """The events of ``body`` as ``(event type, '{event type: payload}')``; an exception message raises it."""
    found = []
    for number, message in enumerate(messages(body), 1):
        kind = message.headers.get(":message-type")
        if kind in ("exception", "error"):
            raise _exception(message)
        name = message.headers.get(":event-type")
        if kind != "event" or not isinstance(name, str):
            raise EventStreamError(f"message {number}: :message-type {kind!r}, :event-type {name!r}: not an event")
        try:
            payload = json.loads(message.payload or b"{}")
        except ValueError as exc:
            raise EventStreamError(f"message {number} ({name}): the payload is not JSON: {exc}") from None
        found.append((name, json.dumps({name: payload}, ensure_ascii=False)))
    return found


def event_message(name: str, payload: object) -> bytes:
    """One ``event`` message of type ``name`` carrying ``payload`` as JSON."""
    return encode({":event-type": name, ":content-type": "application/json", ":message-type": "event"},
                  json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def exception_message(kind: str, text: str) -> bytes:
    """One ``exception`` message of type ``kind`` whose payload says ``text``, as Bedrock sends a mid-stream error."""
    return encode({":exception-type": kind, ":content-type": "application/json", ":message-type": "exception"},
                  json.dumps({"message": text}).encode("utf-8"))


def write_events(found: Sequence[tuple[str | None, str]]) -> bytes:
    """Events back as a body: each data a JSON object of one key, the event type, holding the payload."""
    body = b""
    for _, data in found:
        value = json.loads(data)
        if not isinstance(value, dict) or len(value) != 1:
            raise ValueError(f"an event-stream event is one {{type: payload}} object, not {data[:200]!r}")
        ((name, payload),) = value.items()
        body += event_message(name, payload)
    return body
