"""litellm: a streamed Bedrock turn's stopReason survives only as an OpenAI finish_reason.

ConverseStream ends a turn with messageStop {stopReason}. litellm turns it into
OpenAI's finish_reason (end_turn and stop_sequence to "stop", tool_use to
"tool_calls") and keeps no copy of Bedrock's value in the streamed chunks or
in stream_chunk_builder's message: a turn that stopped at one of the caller's
stop sequences reads exactly like one that ended on its own. Imports only
litellm (and httpx, the HTTP library litellm uses); no network. Prints BUG
(exit 1) or ok (exit 0).
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

MODEL = "bedrock/converse/anthropic.claude-sonnet-4-20250514-v1:0"
ROUTE = {"api_base": "http://bedrock-runtime.test.invalid", "aws_region_name": "us-east-1",
         "aws_access_key_id": "test", "aws_secret_access_key": "test"}
QUESTION = {"role": "user", "content": "Count to ten."}


def string(name: str, value: str) -> bytes:
    return bytes([len(name)]) + name.encode() + b"\x07" + struct.pack(">H", len(value)) + value.encode()


def event(kind: str, payload: dict) -> bytes:
    headers = string(":event-type", kind) + string(":content-type", "application/json") + string(":message-type", "event")
    data = json.dumps(payload).encode()
    prelude = struct.pack(">II", 16 + len(headers) + len(data), len(headers))
    head = prelude + struct.pack(">I", zlib.crc32(prelude)) + headers + data
    return head + struct.pack(">I", zlib.crc32(head))


def streamed(stop_reason: str):
    events = [("messageStart", {"role": "assistant"}),
              ("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": "Counting: 1, 2, 3"}}),
              ("contentBlockStop", {"contentBlockIndex": 0}),
              ("messageStop", {"stopReason": stop_reason}),
              ("metadata", {"usage": {"inputTokens": 20, "outputTokens": 9, "totalTokens": 29},
                            "metrics": {"latencyMs": 5}})]
    body = b"".join(event(kind, payload) for kind, payload in events)
    chunks = list(litellm.completion(model=MODEL, messages=[QUESTION], stream=True, stop=["4"], **ROUTE,
                                     client=HTTPHandler(client=httpx.Client(transport=httpx.MockTransport(
                                         lambda request: httpx.Response(
                                             200, headers={"content-type": "application/vnd.amazon.eventstream"},
                                             content=body))))))
    built = litellm.stream_chunk_builder(chunks, messages=[QUESTION])
    return built.choices[0].finish_reason, repr([c.model_dump() for c in chunks]) + repr(built.model_dump())


ended, ended_text = streamed("end_turn")
stopped, stopped_text = streamed("stop_sequence")
print(f"litellm {version('litellm')}: end_turn -> finish_reason {ended!r}; stop_sequence -> finish_reason "
      f"{stopped!r}; 'stop_sequence' anywhere in the chunks or the built response: {'stop_sequence' in stopped_text}")
if ended == stopped and "stop_sequence" not in stopped_text:
    print("BUG")
    sys.exit(1)
print("ok")
