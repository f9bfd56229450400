"""litellm: a streamed Anthropic turn's stop_reason is kept only as its OpenAI finish_reason, so two of them come out alike.

litellm.completion(model="anthropic/...", stream=True) and stream_chunk_builder
map message_delta's stop_reason onto OpenAI's finish_reason and keep the
original only for pause_turn and refusal (in provider_specific_fields). A turn
that stopped on a stop sequence comes out exactly like one that ended
(finish_reason "stop", which litellm's own Messages adapter reads back as
end_turn), and a turn that ended (end_turn) with a tool call in it exactly like
a tool_use turn. Imports only litellm (and httpx, the HTTP library litellm
uses); no network. Prints BUG (exit 1) or ok (exit 0).
"""

import json
import os
import sys
from importlib.metadata import version

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import

import httpx  # noqa: E402
import litellm  # noqa: E402
from litellm.llms.custom_httpx.http_handler import HTTPHandler  # noqa: E402

TEXT = [({"type": "text", "text": ""}, {"type": "text_delta", "text": "The answer is"})]
CALL = TEXT + [({"type": "tool_use", "id": "toolu_01", "name": "get_time", "input": {}},
                {"type": "input_json_delta", "partial_json": "{}"})]
# Pairs of streams that differ only in message_delta's stop_reason.
PAIRS = [(TEXT, "end_turn", "stop_sequence"), (CALL, "end_turn", "tool_use")]


def body(blocks, stop_reason):
    events = [{"type": "message_start", "message": {
        "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 12, "output_tokens": 1}}}]
    for index, (start, delta) in enumerate(blocks):
        events += [{"type": "content_block_start", "index": index, "content_block": start},
                   {"type": "content_block_delta", "index": index, "delta": delta},
                   {"type": "content_block_stop", "index": index}]
    stop_sequence = "###" if stop_reason == "stop_sequence" else None
    events += [{"type": "message_delta", "delta": {"stop_reason": stop_reason, "stop_sequence": stop_sequence},
                "usage": {"output_tokens": 9}}, {"type": "message_stop"}]
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()


def read(blocks, stop_reason):
    served = body(blocks, stop_reason)
    client = HTTPHandler(client=httpx.Client(transport=httpx.MockTransport(
        lambda request: httpx.Response(200, headers={"content-type": "text/event-stream"}, content=served))))
    messages = [{"role": "user", "content": "What time is it?"}]
    chunks = list(litellm.completion(model="anthropic/claude-sonnet-4-5", messages=messages, stream=True,
                                     client=client, api_key="test", api_base="http://test.invalid", stop=["###"]))
    choice = litellm.stream_chunk_builder(chunks, messages=messages).choices[0]
    kept = (getattr(choice.message, "provider_specific_fields", None) or {}).get("stop_reason")
    return choice.finish_reason, kept


bug = False
for blocks, one, other in PAIRS:
    got = {reason: read(blocks, reason) for reason in (one, other)}
    print(f"litellm {version('litellm')}: {[b[0]['type'] for b in blocks]} streamed with stop_reason "
          + ", ".join(f"{reason!r} -> (finish_reason, stop_reason kept) {got[reason]}" for reason in got))
    bug |= got[one] == got[other]
if bug:
    print("expected: streams that differ in stop_reason come out different (the stop_reason kept)")
    print("BUG")
    sys.exit(1)
print("ok")
