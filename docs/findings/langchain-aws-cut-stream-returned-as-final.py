"""langchain-aws: a ConverseStream body that ends after messageStop, before its metadata event, is a finished answer.

ChatBedrockConverse.stream() raises ("Incomplete Bedrock response stream:
missing messageStop event") when the body ends before messageStop, but the
turn is complete only with the metadata event ConverseStream always sends last
(its usage and metrics are required members of AWS's own model). A body cut
between the two (a proxy or a dropped connection) streams out as a whole
answer whose usage_metadata is simply missing, so cost accounting and context
budgeting read nothing and no error is raised. Imports only langchain-aws (and
boto3/botocore, which it uses); no network. Prints BUG (exit 1) or ok (exit 0).
"""

import io
import json
import struct
import sys
import zlib
from importlib.metadata import version

import boto3
import urllib3
from botocore.awsrequest import AWSResponse
from langchain_aws import ChatBedrockConverse


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
BODY = b"".join(event(kind, payload) for kind, payload in EVENTS)


def send(request, **_):
    headers = {"content-type": "application/vnd.amazon.eventstream"}
    raw = urllib3.response.HTTPResponse(body=io.BytesIO(BODY), status=200, headers=headers, preload_content=False)
    return AWSResponse(request.url, 200, headers, raw)


client = boto3.client("bedrock-runtime", region_name="us-east-1", endpoint_url="http://bedrock-runtime.test.invalid",
                      aws_access_key_id="test", aws_secret_access_key="test")
client.meta.events.register("before-send.bedrock-runtime", send)
model = ChatBedrockConverse(model="anthropic.claude-sonnet-4-20250514-v1:0", client=client, region_name="us-east-1")
try:
    total = None
    for chunk in model.stream("Is the deploy safe?"):
        total = chunk if total is None else total + chunk
    got = f"an answer {total.content!r}, usage_metadata {total.usage_metadata!r}"
except Exception as exc:  # noqa: BLE001 (an error is the right outcome)
    total, got = None, f"{type(exc).__name__}: {exc}"

print(f"langchain-aws {version('langchain-aws')}: a body cut before its metadata event -> {got}")
if total is not None:
    print("BUG")
    sys.exit(1)
print("ok")
