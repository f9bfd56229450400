"""langchain-openai: Responses deltas are grouped by arrival, not by their item: parallel calls lose their arguments.

ChatOpenAI(use_responses_api=True).stream() gives each event's content block a
running index that moves on whenever an event's output_index differs from the
previous event's, and langchain-core merges the blocks of one index. The
Responses API names each delta's item (item_id, output_index), and parallel
calls may stream interleaved; then every delta opens a block of its own. Two
calls whose argument deltas alternate come back as get_weather({}) twice
plus two nameless calls and two invalid ones. Imports only langchain-openai
(and the HTTP library its client uses); no network. Prints BUG (exit 1) or
ok (exit 0).
"""

import json
import sys
from importlib.metadata import version

import httpx
from langchain_openai import ChatOpenAI

SHELL = {"id": "resp_01", "object": "response", "created_at": 1756315696, "model": "gpt-5", "output": [],
         "status": "in_progress", "usage": None}
ARGS = {"fc_A": ('{"city":', '"Paris"}'), "fc_B": ('{"city":', '"Oslo"}')}


def call(item_id: str, call_id: str, arguments: str, status: str) -> dict:
    return {"id": item_id, "type": "function_call", "status": status, "call_id": call_id, "name": "get_weather",
            "arguments": arguments}


def delta(item_id: str, n: int, piece: int) -> dict:
    return {"type": "response.function_call_arguments.delta", "item_id": item_id, "output_index": n,
            "delta": ARGS[item_id][piece]}


DONE = [call("fc_A", "call_A", '{"city":"Paris"}', "completed"), call("fc_B", "call_B", '{"city":"Oslo"}', "completed")]
EVENTS = [
    {"type": "response.created", "response": SHELL},
    {"type": "response.output_item.added", "output_index": 0, "item": call("fc_A", "call_A", "", "in_progress")},
    {"type": "response.output_item.added", "output_index": 1, "item": call("fc_B", "call_B", "", "in_progress")},
    # the two calls' argument deltas interleave, each naming its own item
    delta("fc_A", 0, 0), delta("fc_B", 1, 0), delta("fc_A", 0, 1), delta("fc_B", 1, 1),
    {"type": "response.function_call_arguments.done", "item_id": "fc_A", "output_index": 0,
     "arguments": DONE[0]["arguments"]},
    {"type": "response.output_item.done", "output_index": 0, "item": DONE[0]},
    {"type": "response.function_call_arguments.done", "item_id": "fc_B", "output_index": 1,
     "arguments": DONE[1]["arguments"]},
    {"type": "response.output_item.done", "output_index": 1, "item": DONE[1]},
    {"type": "response.completed", "response": {**SHELL, "status": "completed", "output": DONE}},
]
BODY = "".join(f"event: {e['type']}\ndata: {json.dumps({**e, 'sequence_number': n})}\n\n"
               for n, e in enumerate(EVENTS)).encode()
EXPECTED = [("get_weather", {"city": "Paris"}, "call_A"), ("get_weather", {"city": "Oslo"}, "call_B")]


def handler(request):
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=BODY)


model = ChatOpenAI(model="gpt-5", api_key="test", base_url="http://test.invalid/v1", max_retries=0,
                   use_responses_api=True, http_client=httpx.Client(transport=httpx.MockTransport(handler)))
total = None
for chunk in model.stream("Weather in Paris and Oslo?"):
    total = chunk if total is None else total + chunk
got = [(c["name"], c["args"], c["id"]) for c in total.tool_calls]
print(f"langchain-openai {version('langchain-openai')}: tool_calls {got}")
print(f"  invalid_tool_calls: {[(c['name'], c['args'], c['id']) for c in total.invalid_tool_calls]}")
print(f"expected: tool_calls {EXPECTED}")
if got == EXPECTED and not total.invalid_tool_calls:
    print("ok")
    sys.exit(0)
print("BUG")
sys.exit(1)
