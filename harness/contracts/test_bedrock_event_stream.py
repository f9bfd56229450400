"""Contract: a ConverseStream body is read as AWS event-stream messages: whole and CRC-checked, every header type, its exceptions raised.

Incident: `bedrock-exception-swallowed` (an exception message mid-stream
read as the end of a shorter turn, or skipped, and the half turn saved) and
`bedrock-event-stream-corrupt` (a decoder that trusted the lengths and never
checked a CRC returned a turn from bytes a proxy had damaged).

Rule: ``parse_stream`` of a ConverseStream body
(``application/vnd.amazon.eventstream``, written by
:mod:`harness.wire.bedrock_events`):

- refuses the body when a byte of a message's prelude or of its payload is
  changed, so that its prelude CRC32 or its message CRC32 no longer matches,
  even where the changed payload is still JSON (a changed byte is never read
  as a turn);
- refuses a body with an ``exception`` message (``:message-type``
  ``exception``, its ``:exception-type`` and a JSON payload with its
  ``message``) wherever it comes, with an error that names the exception's
  type and says its message;
- reads events whose headers hold a value of every type AWS defines (true,
  false, byte, short, integer, long, byte array, string, timestamp, UUID)
  as the same turn, and refuses a header whose type AWS does not define (its
  width is unknown, so the rest of the message cannot be read).

Level: wire (the framing AWS's SDKs read every Bedrock stream with).

Production fingerprint: a turn that ends mid-sentence with no error while
the service had sent ``throttlingException`` or
``modelStreamErrorException``; garbled tool input from a damaged stream.
"""

import json
import struct
import uuid
import zlib
from datetime import datetime, timezone

import pytest

from harness.clip import shown
from harness.contracts.block_checks import assert_same_turn
from harness.testing.bedrock_streams import comparable
from harness.testing.bedrock_incident import PLAN, TURN
from harness.under_test.invoke import refusal, valid
from harness.wire import eventstream
from harness.wire.bedrock_events import THROTTLED, Plan, turn_body, turn_events

pytestmark = [pytest.mark.wire, pytest.mark.formats("bedrock")]

# A value of every header type AWS defines, beside the three a Bedrock event carries.
EVERY_TYPE = {"x-true": True, "x-false": False, "x-long": 2**40, "x-int": -7, "x-bytes": b"\x00\xffraw",
              "x-time": datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc), "x-id": uuid.UUID(int=0x1234)}


def _with_header(message: bytes, header: bytes) -> bytes:
    """``message`` with the raw ``header`` (name length, name, type, value) added after its own, both CRCs redone."""
    total, size = struct.unpack_from(">II", message)
    prelude = struct.pack(">II", total + len(header), size + len(header))
    head = prelude + struct.pack(">I", zlib.crc32(prelude)) + message[12:12 + size] + header + message[12 + size:-4]
    return head + struct.pack(">I", zlib.crc32(head))


# A byte (type 2) and a short (type 3), which no Python value spells.
NARROW_INTEGERS = b"\x06x-byte\x02\x7f" + b"\x07x-short\x03\x80\x00"
UNDEFINED_TYPE = b"\x06x-what\x0b\x00\x00"  # type 11: no such type


def _payload(payload: dict) -> bytes:
    return json.dumps(payload, ensure_ascii=False).encode()


def _messages(body: bytes) -> list[tuple[int, int]]:
    """(start, end) of each message."""
    ends = eventstream.frame_ends(body)
    return list(zip([0, *ends], ends))


def _letter(body: bytes, start: int, end: int) -> int:
    """The last ASCII letter of the message's payload: inside a JSON string, so a flip of its low bit leaves the
    JSON valid and changes only what it says (a decoder that skips the CRC would read it as another turn)."""
    return max(k for k in range(start, end - 4) if chr(body[k]).isalpha() and body[k] < 0x80)


def test_a_changed_byte_is_refused_by_its_crc(stream):
    body = turn_body(TURN, PLAN)
    valid(stream).parse_stream(body)
    for number, (start, end) in enumerate(_messages(body), 1):
        # A byte of the prelude's lengths (under the prelude CRC) and a letter of the payload (under the message CRC).
        for at, what in ((start + 3, "total length, under the prelude CRC32"),
                         (_letter(body, start, end), "payload, under the message CRC32")):
            broken = body[:at] + bytes([body[at] ^ 0x01]) + body[at + 1:]
            refusal(stream.parse_stream, broken,
                    why=f"byte {at} (message {number}, its {what}) was changed, so its CRC does not match; "
                        f"body {shown(broken)}")


@pytest.mark.parametrize("at", [1, 3, 9, 17])
def test_an_exception_message_is_raised_with_its_type_and_message(stream, at):
    body = turn_body(TURN, Plan(pieces=PLAN.pieces, schedule=PLAN.schedule, exception=at))
    kind, text = THROTTLED
    error = refusal(stream.parse_stream, body,
                    why=f"the stream sends {kind} ('{text}') as its message {at + 1}; body {shown(body)}")
    said = str(error)
    assert kind in said and text in said, (
        f"parse_stream refused the stream, but its error {said!r} should name the exception's type {kind!r} and "
        f"say its message {text!r} (what the service sent, not a generic failure)")


def test_every_header_type_aws_defines_is_read(stream):
    body = b"".join(_with_header(eventstream.encode(
        {":event-type": name, ":content-type": "application/json", ":message-type": "event", **EVERY_TYPE},
        _payload(payload)), NARROW_INTEGERS) for name, payload in turn_events(TURN, PLAN))
    got = valid(stream).parse_stream(body)
    assert_same_turn(*comparable(got, TURN), f"bedrock turn {shown(TURN)}, each event with a header of every type AWS "
                                f"defines; body {shown(body)}")


def test_a_header_of_a_type_aws_does_not_define_is_refused(stream):
    events = turn_events(TURN, PLAN)
    odd = _with_header(eventstream.event_message(*events[2]), UNDEFINED_TYPE)
    body = b"".join(eventstream.event_message(*e) for e in events[:2]) + odd + b"".join(
        eventstream.event_message(*e) for e in events[3:])
    refusal(stream.parse_stream, body,
            why=f"message 3 has a header of type 11, which AWS does not define (its width is unknown); "
                f"body {shown(body)}")
