"""litellm: a ConverseStream body cut right after messageStart, or before its metadata event, is a finished answer.

litellm.completion(model="bedrock/converse/...", stream=True) raises when the
body ends inside the content blocks, but a body that ends right after
messageStart (the connection dropped after the first event) comes back from
stream_chunk_builder as an empty answer with finish_reason "stop", and a body
that ends after messageStop, without the metadata event ConverseStream always
sends last, as a complete one; both with a usage litellm estimates itself from
the text instead of the server's counts. Imports only litellm (and httpx, the
HTTP library litellm uses); no network. Prints BUG (exit 1) or ok (exit 0).
"""

import json
import os
import struct
import sys
import zlib
from importlib.metadata import version

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import

import httpx  # noqa: E402
import litellm  # noqa: E402
from litellm.llms.custom_httpx.http_handler import HTTPHandler  # noqa: E402


def string(name: str, value: str) -> bytes:
    return bytes([len(name)]) + name.encode() + b"\x07" + struct.pack(">H", len(value)) + value.encode()


def event(kind: str, payload: dict) -> bytes:
    headers = string(":event-type", kind) + string(":content-type", "application/json") + string(":message-type", "event")
    data = json.dumps(payload).encode()
    prelude = struct.pack(">II", 16 + len(headers) + len(data), len(headers))
    head = prelude + struct.pack(">I", zlib.crc32(prelude)) + headers + data
    return head + struct.pack(">I", zlib.crc32(head))


EVENTS = [("messageStart", {"role": "assistant"}),
          ("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": "The deploy is safe."}}),
          ("contentBlockStop", {"contentBlockIndex": 0}),
          ("messageStop", {"stopReason": "end_turn"})]  # the metadata event that ends every stream is cut off
CASES = {"cut after messageStart": EVENTS[:1], "cut before metadata": EVENTS}


def read(events):
    body = b"".join(event(kind, payload) for kind, payload in events)
    client = HTTPHandler(client=httpx.Client(transport=httpx.MockTransport(lambda request: httpx.Response(
        200, headers={"content-type": "application/vnd.amazon.eventstream"}, content=body))))
    messages = [{"role": "user", "content": "Is the deploy safe?"}]
    chunks = list(litellm.completion(model="bedrock/converse/anthropic.claude-sonnet-4-20250514-v1:0",
                                     messages=messages, stream=True, client=client,
                                     api_base="http://bedrock-runtime.test.invalid", aws_region_name="us-east-1",
                                     aws_access_key_id="test", aws_secret_access_key="test"))
    return litellm.stream_chunk_builder(chunks, messages=messages)


returned = []
for case, events in CASES.items():
    try:
        built = read(events)
        choice = built.choices[0]
        returned.append(case)
        print(f"{case}: an answer {choice.message.content!r}, finish_reason {choice.finish_reason!r}, "
              f"usage {built.usage.prompt_tokens}/{built.usage.completion_tokens} (no usage was sent)")
    except Exception as exc:  # noqa: BLE001 (an error is the right outcome)
        print(f"{case}: {type(exc).__name__}")

print(f"litellm {version('litellm')}")
if returned:
    print("BUG")
    sys.exit(1)
print("ok")
