"""botocore: an event-stream message with a header type AWS does not define raises KeyError, not botocore's parser error.

botocore's EventStreamBuffer checks both CRC32s and the lengths of every
message and raises its own ParserError subclasses (ChecksumMismatch,
InvalidHeadersLength, ...) for a body it cannot read. A header whose type byte
is not one of the ten AWS defines (here 11) escapes as a bare KeyError from
its header-type table, so code that catches botocore's errors around a
converse_stream loop is crashed by it instead. Imports only botocore; no
network. Prints BUG (exit 1) or ok (exit 0).
"""

import json
import struct
import sys
import zlib

import botocore
from botocore.eventstream import EventStreamBuffer, ParserError


def header(name: str, kind: int, value: bytes) -> bytes:
    return bytes([len(name)]) + name.encode() + bytes([kind]) + value


def string(name: str, value: str) -> bytes:
    return header(name, 7, struct.pack(">H", len(value)) + value.encode())


def message(headers: bytes, payload: bytes) -> bytes:
    prelude = struct.pack(">II", 16 + len(headers) + len(payload), len(headers))
    head = prelude + struct.pack(">I", zlib.crc32(prelude)) + headers + payload
    return head + struct.pack(">I", zlib.crc32(head))


headers = string(":event-type", "messageStart") + string(":message-type", "event") + header("x-what", 11, b"\x00")
body = message(headers, json.dumps({"role": "assistant"}).encode())

buffer = EventStreamBuffer()
buffer.add_data(body)
try:
    list(buffer)
    got = "no error"
except ParserError as exc:
    got = f"{type(exc).__name__} (a botocore ParserError)"
except Exception as exc:  # noqa: BLE001 (what escapes is the finding)
    got = f"{type(exc).__name__}: {exc}"

print(f"botocore {botocore.__version__}: a header of type 11 -> {got}")
if got.startswith("KeyError"):
    print("BUG")
    sys.exit(1)
print("ok")
