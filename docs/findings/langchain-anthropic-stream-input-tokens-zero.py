"""langchain-anthropic: a streamed answer reports 0 input tokens when message_delta does not repeat them.

Anthropic's stream carries the input token count in message_start's usage;
message_delta carries the (cumulative) usage at the end, and the documented
stream's message_delta holds only output_tokens. ChatAnthropic.stream() reads
usage_metadata off message_delta alone and drops message_start's usage, so the
summed AIMessageChunk says input_tokens 0 (and loses the cache counts). Imports
only langchain-anthropic (and the anthropic client and HTTP library it uses);
no network. Prints BUG (exit 1) or ok (exit 0).
"""

import json
import sys
from importlib.metadata import version

import anthropic
import httpx2
from langchain_anthropic import ChatAnthropic

EVENTS = [
    ("message_start", {"type": "message_start", "message": {
        "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [],
        "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 472, "output_tokens": 1, "cache_read_input_tokens": 128}}}),
    ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
    ("content_block_delta", {"type": "content_block_delta", "index": 0,
                             "delta": {"type": "text_delta", "text": "Hello."}}),
    ("content_block_stop", {"type": "content_block_stop", "index": 0}),
    ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                       "usage": {"output_tokens": 15}}),
    ("message_stop", {"type": "message_stop"}),
]
BODY = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in EVENTS).encode()


def handler(request):
    return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=BODY)


model = ChatAnthropic(model="claude-sonnet-4-5", api_key="test", base_url="http://test.invalid", max_retries=0)
# ChatAnthropic takes no HTTP client; its anthropic client is a cached property, set here to one on a mock transport.
model.__dict__["_client"] = anthropic.Anthropic(api_key="test", base_url="http://test.invalid", max_retries=0,
                                                http_client=httpx2.Client(transport=httpx2.MockTransport(handler)))
total = None
for chunk in model.stream("Hi."):
    total = chunk if total is None else total + chunk

usage = total.usage_metadata
print(f"langchain-anthropic {version('langchain-anthropic')}: usage_metadata {json.dumps(usage)}")
# LangChain counts cache reads into input_tokens: 472 + 128.
if usage is None or usage.get("input_tokens") != 600:
    print("expected: input_tokens 600 (message_start's 472 plus 128 cache reads), as message_start sent them")
    print("BUG")
    sys.exit(1)
print("ok")
