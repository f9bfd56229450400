"""The event-stream framing (harness.wire.eventstream) against botocore's own parser, an independent reader of AWS's format.

What the harness writes botocore reads as the same messages (headers of
every type, payloads, both CRCs), and the harness's reader refuses what
botocore refuses: a cut inside any message, a changed byte under either CRC.
The framing's read and write are inverses over Bedrock's events.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone

import pytest
from botocore.eventstream import EventStreamBuffer, ParserError

from harness.formats import spec_for
from harness.testing.bedrock_incident import PLAN, TURN
from harness.wire import eventstream
from harness.wire.bedrock_events import THROTTLED, Plan, turn_body
from harness.wire.framing import EVENT_STREAM

HEADERS = {":event-type": "contentBlockDelta", ":message-type": "event", "flag": True, "off": False,
           "n": -5, "big": 2**40, "raw": b"\x00\x01\xff", "when": datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc),
           "id": uuid.UUID("12345678-1234-5678-1234-567812345678")}


def _botocore(body: bytes) -> list:
    buffer = EventStreamBuffer()
    buffer.add_data(body)
    return list(buffer)


def test_botocore_reads_what_the_harness_writes():
    message = eventstream.encode(HEADERS, b'{"x": 1}')
    (read,) = _botocore(message)
    assert read.payload == b'{"x": 1}'
    assert read.headers == {**HEADERS, "when": int(HEADERS["when"].timestamp() * 1000), "id": HEADERS["id"].bytes}, (
        read.headers)
    (ours,) = eventstream.messages(message)
    assert ours.headers == HEADERS and ours.payload == b'{"x": 1}'


def test_a_turn_body_is_the_same_messages_to_botocore_and_to_the_harness():
    body = turn_body(TURN, PLAN)
    theirs = [(m.headers[":event-type"], json.loads(m.payload)) for m in _botocore(body)]
    ours = [(name, json.loads(data)[name]) for name, data in EVENT_STREAM.read(body)]
    assert ours == theirs
    assert EVENT_STREAM.write(EVENT_STREAM.read(body)) == body
    assert spec_for("bedrock").framing is EVENT_STREAM


@pytest.mark.parametrize("at", range(1, 200, 7))
def test_a_cut_inside_a_message_is_refused_by_both(at):
    body = turn_body(TURN, PLAN)
    ends = eventstream.frame_ends(body)
    assert ends[-1] == len(body)
    if at in ends:
        return
    with pytest.raises(eventstream.EventStreamError, match="ends inside"):
        eventstream.messages(body[:at])
    assert len(_botocore(body[:at])) == sum(1 for end in ends if end < at), "botocore keeps only whole messages"


@pytest.mark.parametrize("offset, what", [(5, "prelude CRC32"), (20, "message CRC32")])
def test_a_changed_byte_is_refused_by_both(offset, what):
    body = bytearray(turn_body(TURN, PLAN))
    body[offset] ^= 0x10
    with pytest.raises(eventstream.EventStreamError, match=what):
        eventstream.messages(bytes(body))
    with pytest.raises(ParserError):
        _botocore(bytes(body))


def test_an_exception_message_is_raised_with_its_type_and_message():
    body = turn_body(TURN, Plan(exception=2))
    with pytest.raises(eventstream.ExceptionEvent) as raised:
        EVENT_STREAM.read(body)
    assert (raised.value.kind, raised.value.message) == THROTTLED
    last = _botocore(body)[-1]
    assert last.headers[":message-type"] == "exception" and last.headers[":exception-type"] == THROTTLED[0]


def test_a_header_type_aws_does_not_define_is_refused_by_name():
    message = bytearray(eventstream.encode({"x": "y"}, b"{}"))
    message[12 + 2] = 12  # the type byte of header "x"
    head = bytes(message[:-4])
    fixed = head[:8] + eventstream.struct.pack(">I", eventstream.zlib.crc32(head[:8])) + head[12:]
    fixed += eventstream.struct.pack(">I", eventstream.zlib.crc32(fixed))
    with pytest.raises(eventstream.EventStreamError, match="type 12, which AWS does not define"):
        eventstream.messages(fixed)
