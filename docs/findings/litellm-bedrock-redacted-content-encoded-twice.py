"""litellm: a redactedContent block streamed by Bedrock goes back base64-encoded a second time.

ConverseStream sends a redacted reasoning block's bytes as base64 in
delta.reasoningContent.redactedContent. litellm's stream keeps that base64 text
as the thinking block's "data" (a redacted_thinking block), and its Converse
request building base64-encodes "data" again when the message goes back, so
Bedrock receives different bytes: "thinking or redacted_thinking blocks in the
latest assistant message cannot be modified" on the request after a tool
round. Imports only litellm (and httpx, the HTTP library litellm uses); no
network. Prints BUG (exit 1) or ok (exit 0).
"""

import base64
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
REDACTED = base64.b64encode(b"\x00\x01opaque\xff").decode()  # what Bedrock streams for the block's bytes
QUESTION = {"role": "user", "content": "What is the weather in Oslo?"}
TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}]


def string(name: str, value: str) -> bytes:
    return bytes([len(name)]) + name.encode() + b"\x07" + struct.pack(">H", len(value)) + value.encode()


def event(kind: str, payload: dict) -> bytes:
    headers = string(":event-type", kind) + string(":content-type", "application/json") + string(":message-type", "event")
    data = json.dumps(payload).encode()
    prelude = struct.pack(">II", 16 + len(headers) + len(data), len(headers))
    head = prelude + struct.pack(">I", zlib.crc32(prelude)) + headers + data
    return head + struct.pack(">I", zlib.crc32(head))


EVENTS = [("messageStart", {"role": "assistant"}),
          ("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"reasoningContent": {"redactedContent": REDACTED}}}),
          ("contentBlockStop", {"contentBlockIndex": 0}),
          ("contentBlockStart", {"contentBlockIndex": 1, "start": {"toolUse": {"toolUseId": "tooluse_01",
                                                                               "name": "get_weather"}}}),
          ("contentBlockDelta", {"contentBlockIndex": 1, "delta": {"toolUse": {"input": '{"city": "Oslo"}'}}}),
          ("contentBlockStop", {"contentBlockIndex": 1}),
          ("messageStop", {"stopReason": "tool_use"}),
          ("metadata", {"usage": {"inputTokens": 20, "outputTokens": 9, "totalTokens": 29}, "metrics": {"latencyMs": 5}})]
BODY = b"".join(event(kind, payload) for kind, payload in EVENTS)
REPLY = {"output": {"message": {"role": "assistant", "content": [{"text": "ok"}]}}, "stopReason": "end_turn",
         "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2}, "metrics": {"latencyMs": 1}}


def client(handler) -> HTTPHandler:
    return HTTPHandler(client=httpx.Client(transport=httpx.MockTransport(handler)))


chunks = list(litellm.completion(model=MODEL, messages=[QUESTION], stream=True, tools=TOOLS, client=client(
    lambda request: httpx.Response(200, headers={"content-type": "application/vnd.amazon.eventstream"}, content=BODY)),
    **ROUTE))
held = litellm.stream_chunk_builder(chunks, messages=[QUESTION]).choices[0].message.model_dump(exclude_none=True)

sent = []


def capture(request: httpx.Request) -> httpx.Response:
    sent.append(json.loads(request.content))
    return httpx.Response(200, json=REPLY)


history = [QUESTION, held, {"role": "tool", "tool_call_id": "tooluse_01", "content": "4 °C"}]
litellm.completion(model=MODEL, messages=history, tools=TOOLS, thinking={"type": "enabled", "budget_tokens": 1024},
                   client=client(capture), **ROUTE)
back = [block["reasoningContent"]["redactedContent"] for block in sent[0]["messages"][1]["content"]
        if "redactedContent" in block.get("reasoningContent", {})]

print(f"litellm {version('litellm')}: streamed redactedContent {REDACTED!r}, sent back {back!r}")
if back != [REDACTED]:
    print("BUG")
    sys.exit(1)
print("ok")
