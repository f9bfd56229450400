"""litellm: an Anthropic stream that ends before message_stop comes back as a finished answer when nothing or everything but message_stop came.

litellm.completion(model="anthropic/...", stream=True) raises when the body
ends after a content block but before message_delta (MidStreamFallbackError);
it checks only that a finish reason arrived. So an empty body (the connection
closed after the 200) is an empty answer with finish_reason "stop" and a
prompt count litellm estimates itself, and a body that ends after
message_delta, or whose last event is an error event where message_stop
belongs, is a complete answer. Imports only litellm (and httpx, the HTTP
library litellm uses); no network. Prints BUG (exit 1) or ok (exit 0).
"""

import json
import os
import sys
from importlib.metadata import version

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import

import httpx  # noqa: E402
import litellm  # noqa: E402
from litellm.llms.custom_httpx.http_handler import HTTPHandler  # noqa: E402

EVENTS = [
    {"type": "message_start", "message": {
        "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 12, "output_tokens": 1}}},
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "The deploy is safe."}},
    {"type": "content_block_stop", "index": 0},
    {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
     "usage": {"output_tokens": 6}},
]
OVERLOADED = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
CASES = {
    "empty body": [],
    "cut after message_delta": EVENTS,
    "an error event in place of message_stop": [*EVENTS, OVERLOADED],
}


def read(events):
    served = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()
    client = HTTPHandler(client=httpx.Client(transport=httpx.MockTransport(
        lambda request: httpx.Response(200, headers={"content-type": "text/event-stream"}, content=served))))
    messages = [{"role": "user", "content": "Is the deploy safe?"}]
    chunks = list(litellm.completion(model="anthropic/claude-sonnet-4-5", messages=messages, stream=True,
                                     client=client, api_key="test", api_base="http://test.invalid"))
    return litellm.stream_chunk_builder(chunks, messages=messages)


bug = False
for name, events in CASES.items():
    try:
        built = read(events)
    except Exception as exc:  # the fix: the stream did not complete
        print(f"litellm {version('litellm')}, {name}: raised {type(exc).__name__}")
        continue
    choice = built.choices[0]
    print(f"litellm {version('litellm')}, {name}: returned content {choice.message.content!r}, finish_reason "
          f"{choice.finish_reason!r}, usage {built.usage.prompt_tokens}+{built.usage.completion_tokens}, no error")
    bug = True
if bug:
    print("expected: an error for each, since no message_stop came")
    print("BUG")
    sys.exit(1)
print("ok")
