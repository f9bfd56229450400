"""A boto3 ``bedrock-runtime`` client whose HTTP requests are answered in memory, for the Bedrock library adapters.

botocore sends each request through its ``before-send`` event; a handler that
returns a response ends the send there, and botocore then parses that response
as one from AWS: for ``ConverseStream`` its own event-stream reader (prelude
and message CRC32s, typed headers, ``:message-type``) and its ConverseStream
shapes (``redactedContent`` blobs decoded to bytes, exceptions raised). So the
body a contract gives is read by botocore's code, not by a stub of it (botocore's
``Stubber`` hands back parsed dicts and skips all of that).
"""

from __future__ import annotations

import io
import json

import boto3
import urllib3
from botocore.awsrequest import AWSResponse

REGION = "us-east-1"
ENDPOINT = "http://bedrock-runtime.test.invalid"
MODEL = "anthropic.claude-sonnet-4-20250514-v1:0"  # a model ID libraries know streams
EVENT_STREAM = "application/vnd.amazon.eventstream"
# What ``Converse`` (not streamed) answers, for requests whose body alone is wanted.
CONVERSE_REPLY = {"output": {"message": {"role": "assistant", "content": [{"text": "ok"}]}},
                  "stopReason": "end_turn", "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
                  "metrics": {"latencyMs": 1}}


def _response(url: str, content_type: str, body: bytes) -> AWSResponse:
    headers = {"content-type": content_type}
    raw = urllib3.response.HTTPResponse(body=io.BytesIO(body), status=200, headers=headers, preload_content=False)
    return AWSResponse(url, 200, headers, raw)


def client(stream_body: bytes = b"", sent: list[dict] | None = None):
    """A ``bedrock-runtime`` client: ``ConverseStream`` answers ``stream_body``, ``Converse`` answers a short reply.

    The JSON body of each request is appended to ``sent`` when one is given.
    """
    def send(request, **_) -> AWSResponse:
        if sent is not None:
            sent.append(json.loads(request.body))
        if request.url.endswith("/converse-stream"):
            return _response(request.url, EVENT_STREAM, stream_body)
        return _response(request.url, "application/json", json.dumps(CONVERSE_REPLY).encode())

    runtime = boto3.client("bedrock-runtime", region_name=REGION, endpoint_url=ENDPOINT,
                           aws_access_key_id="test", aws_secret_access_key="test")
    runtime.meta.events.register("before-send.bedrock-runtime", send)
    return runtime

