"""litellm: an interleaved Anthropic turn goes back regrouped as all thinking, then text, then tool calls.

litellm.completion(model="anthropic/...", stream=True) and stream_chunk_builder
keep a streamed turn as thinking_blocks, one content string and tool_calls: the
blocks' order is lost. Sent back in the next request, a turn of thinking, text
and a call, then more thinking and a second call (interleaved thinking) is
written [thinking, thinking, text, tool_use, tool_use]; Anthropic requires the
latest assistant turn's thinking to come back as it was, in place. Imports only
litellm (and httpx, the HTTP library litellm uses); no network. Prints BUG
(exit 1) or ok (exit 0).
"""

import json
import os
import sys
from importlib.metadata import version

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import

import httpx  # noqa: E402
import litellm  # noqa: E402
from litellm.llms.custom_httpx.http_handler import HTTPHandler  # noqa: E402


def block_events(index, start, deltas):
    yield "content_block_start", {"type": "content_block_start", "index": index, "content_block": start}
    for delta in deltas:
        yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
    yield "content_block_stop", {"type": "content_block_stop", "index": index}


BLOCKS = [
    ({"type": "thinking", "thinking": "", "signature": ""},
     [{"type": "thinking_delta", "thinking": "Paris first."}, {"type": "signature_delta", "signature": "EqQBCkgIAxAB"}]),
    ({"type": "text", "text": ""}, [{"type": "text_delta", "text": "Checking Paris."}]),
    ({"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {}},
     [{"type": "input_json_delta", "partial_json": '{"city": "Paris"}'}]),
    ({"type": "thinking", "thinking": "", "signature": ""},
     [{"type": "thinking_delta", "thinking": "Now Rome."}, {"type": "signature_delta", "signature": "Eo8BCkYIAxgC"}]),
    ({"type": "tool_use", "id": "toolu_02", "name": "get_weather", "input": {}},
     [{"type": "input_json_delta", "partial_json": '{"city": "Rome"}'}]),
]
EVENTS = [("message_start", {"type": "message_start", "message": {
    "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [],
    "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 12, "output_tokens": 1}}})]
for i, (start, deltas) in enumerate(BLOCKS):
    EVENTS += block_events(i, start, deltas)
EVENTS += [("message_delta", {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                              "usage": {"output_tokens": 40}}),
           ("message_stop", {"type": "message_stop"})]
BODY = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in EVENTS).encode()
REPLY = {"id": "msg_02", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
         "content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn", "stop_sequence": None,
         "usage": {"input_tokens": 1, "output_tokens": 1}}
sent = []


def handler(request):
    body = json.loads(request.content)
    if body.get("stream"):
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=BODY)
    sent.append(body)
    return httpx.Response(200, json=REPLY)


client = HTTPHandler(client=httpx.Client(transport=httpx.MockTransport(handler)))
call = dict(model="anthropic/claude-sonnet-4-5", client=client, api_key="test", api_base="http://test.invalid")
history = [{"role": "user", "content": "Weather in Paris and Rome?"}]
chunks = list(litellm.completion(messages=history, stream=True, **call))
assistant = litellm.stream_chunk_builder(chunks, messages=history).choices[0].message.model_dump(exclude_none=True)
history += [assistant] + [{"role": "tool", "tool_call_id": c["id"], "content": "12C"} for c in assistant["tool_calls"]]
litellm.completion(messages=history, **call)

order = [b["type"] for b in sent[0]["messages"][1]["content"]]
want = [start["type"] for start, _ in BLOCKS]
print(f"litellm {version('litellm')}: streamed {want}, sent back {order}")
if order != want:
    print("expected: the blocks in the order they streamed")
    print("BUG")
    sys.exit(1)
print("ok")
