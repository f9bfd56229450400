"""langchain-openai: a Responses stream cut off before response.completed comes back as a finished message.

ChatOpenAI(use_responses_api=True).stream() iterates the events of
client.responses.create(stream=True) and yields a chunk per event; when the
body ends early (a dropped connection, a proxy timeout) the iteration just
stops. Nothing checks that response.completed (or response.failed /
response.incomplete) arrived, so the sum of the chunks is a normal AIMessage:
half an answer, no status, and a call whose arguments were cut, which
LangChain files as an invalid tool call. Imports only langchain-openai (and
the HTTP library its client uses); no network. Prints BUG (exit 1) or ok (exit 0).
"""

import json
import sys
from importlib.metadata import version

import httpx
from langchain_openai import ChatOpenAI

SHELL = {"id": "resp_01", "object": "response", "created_at": 1756315696, "model": "gpt-5", "output": [],
         "status": "in_progress", "usage": None}
MESSAGE = {"id": "msg_01", "type": "message", "status": "in_progress", "role": "assistant", "content": []}
PART = {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}
CALL = {"id": "fc_A", "type": "function_call", "status": "in_progress", "call_id": "call_A", "name": "get_weather",
        "arguments": ""}
EVENTS = [
    {"type": "response.created", "response": SHELL},
    {"type": "response.output_item.added", "output_index": 0, "item": MESSAGE},
    {"type": "response.content_part.added", "item_id": "msg_01", "output_index": 0, "content_index": 0, "part": PART},
    {"type": "response.output_text.delta", "item_id": "msg_01", "output_index": 0, "content_index": 0,
     "delta": "Checking the weather in "},
    {"type": "response.output_text.delta", "item_id": "msg_01", "output_index": 0, "content_index": 0,
     "delta": "Paris."},
    {"type": "response.output_text.done", "item_id": "msg_01", "output_index": 0, "content_index": 0,
     "text": "Checking the weather in Paris."},
    {"type": "response.output_item.added", "output_index": 1, "item": CALL},
    {"type": "response.function_call_arguments.delta", "item_id": "fc_A", "output_index": 1, "delta": '{"city":'},
    # the connection drops here: no more arguments, no output_item.done, no response.completed
]
BODY = "".join(f"event: {e['type']}\ndata: {json.dumps({**e, 'sequence_number': n})}\n\n"
               for n, e in enumerate(EVENTS)).encode()


def handler(request):
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=BODY)


model = ChatOpenAI(model="gpt-5", api_key="test", base_url="http://test.invalid/v1", max_retries=0,
                   use_responses_api=True, http_client=httpx.Client(transport=httpx.MockTransport(handler)))
try:
    total = None
    for chunk in model.stream("Weather in Paris?"):
        total = chunk if total is None else total + chunk
except Exception as exc:  # a fixed release refuses the cut stream
    print(f"langchain-openai {version('langchain-openai')}: raised {type(exc).__name__}: {exc}")
    print("ok")
    sys.exit(0)
print(f"langchain-openai {version('langchain-openai')}: .stream() ended normally; the sum is")
print(f"  text: {total.text!r}")
print(f"  tool_calls: {total.tool_calls}")
print(f"  invalid_tool_calls: {total.invalid_tool_calls}")
print(f"  response_metadata status: {total.response_metadata.get('status')!r}")
print("expected: an error, since the stream ended before response.completed")
print("BUG")
sys.exit(1)
