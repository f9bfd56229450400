"""anthropic-python: Message.to_param() hands back an empty text block, which the API refuses.

A streamed answer whose text block opened with "" and got no text_delta (a text
block beside a tool call) is accumulated by messages.stream(...) as a text block
with text "". Message.to_param(), the SDK's way to put a response back into
`messages`, keeps it, and messages.create(...) sends it: Anthropic answers such
a request with 400 "messages: text content blocks must be non-empty". Imports
only anthropic (and the HTTP library anthropic itself uses); no network.
Prints BUG (exit 1) or ok (exit 0).
"""

import json
import sys

import anthropic
import httpx2

EVENTS = [
    ("message_start", {"type": "message_start", "message": {
        "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 12, "output_tokens": 1}}}),
    ("content_block_start", {"type": "content_block_start", "index": 0,
                             "content_block": {"type": "text", "text": ""}}),
    ("content_block_stop", {"type": "content_block_stop", "index": 0}),
    ("content_block_start", {"type": "content_block_start", "index": 1, "content_block": {
        "type": "tool_use", "id": "toolu_01", "name": "list_dir", "input": {}}}),
    ("content_block_delta", {"type": "content_block_delta", "index": 1,
                             "delta": {"type": "input_json_delta", "partial_json": ""}}),
    ("content_block_stop", {"type": "content_block_stop", "index": 1}),
    ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                       "usage": {"output_tokens": 9}}),
    ("message_stop", {"type": "message_stop"}),
]
BODY = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in EVENTS).encode()
REPLY = {"id": "msg_02", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
         "content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn", "stop_sequence": None,
         "usage": {"input_tokens": 1, "output_tokens": 1}}
sent = []


def handler(request):
    body = json.loads(request.content)
    if body.get("stream"):
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=BODY)
    sent.append(body)
    return httpx2.Response(200, json=REPLY)


client = anthropic.Anthropic(api_key="test", base_url="http://test.invalid", max_retries=0,
                             http_client=httpx2.Client(transport=httpx2.MockTransport(handler)))
question = {"role": "user", "content": "What is in the folder?"}
with client.messages.stream(model="claude-sonnet-4-5", max_tokens=1024, messages=[question]) as stream:
    message = stream.get_final_message()
results = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "a.txt"}]}
client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=[question, message.to_param(), results])

replayed = sent[0]["messages"][1]["content"]
print(f"anthropic {anthropic.__version__}: the assistant message goes back as {json.dumps(replayed)}")
empty = [b for b in replayed if b.get("type") == "text" and not b.get("text")]
if empty:
    print("expected: no text block without text (Anthropic: 'text content blocks must be non-empty')")
    print("BUG")
    sys.exit(1)
print("ok")
