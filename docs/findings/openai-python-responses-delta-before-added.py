"""openai-python: the Responses stream accumulator raises on a delta that arrives before its item's output_item.added.

The API streams the items of one response interleaved (parallel calls), and a
delta may name its item (item_id, output_index) before the client has seen that
item's response.output_item.added. responses.stream(...) indexes its items by
output_index on each delta and raises RuntimeError ("Received a content event
for output index N before receiving its output item"), losing the whole turn.
Imports only openai (and the HTTP library it uses); no network. Prints BUG
(exit 1) or ok (exit 0).
"""

import json
import sys

import httpx
import openai

SHELL = {"id": "resp_01", "object": "response", "created_at": 1756315696, "model": "gpt-5", "output": [],
         "status": "in_progress", "usage": None}
CALL = {"id": "fc_A", "type": "function_call", "call_id": "call_A", "name": "get_weather", "arguments": ""}
DONE = {**CALL, "status": "completed", "arguments": '{"city":"Oslo"}'}
EVENTS = [
    {"type": "response.created", "response": SHELL},
    # the call's arguments arrive before the call is added
    {"type": "response.function_call_arguments.delta", "item_id": "fc_A", "output_index": 0, "delta": '{"city":'},
    {"type": "response.output_item.added", "output_index": 0, "item": CALL},
    {"type": "response.function_call_arguments.delta", "item_id": "fc_A", "output_index": 0, "delta": '"Oslo"}'},
    {"type": "response.function_call_arguments.done", "item_id": "fc_A", "output_index": 0,
     "arguments": '{"city":"Oslo"}'},
    {"type": "response.output_item.done", "output_index": 0, "item": DONE},
    {"type": "response.completed", "response": {**SHELL, "status": "completed", "output": [DONE]}},
]
BODY = "".join(f"event: {e['type']}\ndata: {json.dumps({**e, 'sequence_number': n})}\n\n"
               for n, e in enumerate(EVENTS)).encode()


def handler(request):
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=BODY)


client = openai.OpenAI(api_key="test", base_url="http://test.invalid/v1", max_retries=0,
                       http_client=httpx.Client(transport=httpx.MockTransport(handler)))
try:
    with client.responses.stream(model="gpt-5", input="Weather in Oslo?") as stream:
        response = stream.get_final_response()
except RuntimeError as exc:
    print(f"openai {openai.__version__}: raised RuntimeError: {exc}")
    print("expected: the call get_weather with arguments '{\"city\":\"Oslo\"}'")
    print("BUG")
    sys.exit(1)
print(f"openai {openai.__version__}: decoded {[item.to_dict() for item in response.output]}")
print("ok")
sys.exit(0)
