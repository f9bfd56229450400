"""langchain-core: streamed tool-call fragments are merged by arrival, not by their index.

`ChatOpenAI.stream()` yields one `AIMessageChunk` per SSE chunk, and users sum
them with `+`. The sum merges `tool_call_chunks` by `index`, but only against
the calls accumulated so far: two fragments of one call that arrive in the
same chunk, when that chunk is the first, stay two entries (the second a
phantom call with no id and no name), and calls keep the order they opened in,
not the order of their index (the position of each call in the message).
Imports only langchain-openai (and the HTTP library it uses); no network.
Prints BUG (exit 1) or ok (exit 0).
"""

import json
import sys

import httpx
from langchain_openai import ChatOpenAI

ENVELOPE = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1760000000, "model": "gpt-4o-mini"}


def chunk(delta, finish_reason=None):
    return {**ENVELOPE, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}]}


def opening(index, cid, name, arguments=""):
    return {"index": index, "id": cid, "type": "function", "function": {"name": name, "arguments": arguments}}


STREAMS = {
    # Call 0's opening fragment and its arguments in one chunk, the first of the stream.
    "two fragments of one call in the first chunk": [
        chunk({"role": "assistant", "content": None, "tool_calls": [
            opening(0, "call_a", "read_file"), {"index": 0, "function": {"arguments": '{"path":"a.txt"}'}}]}),
        chunk({"tool_calls": [opening(1, "call_b", "read_file", '{"path":"b.txt"}')]}),
        chunk({}, "tool_calls"),
    ],
    # Call 1 opens before call 0.
    "call 1 opened before call 0": [
        chunk({"role": "assistant", "content": None, "tool_calls": [opening(1, "call_b", "read_file", '{"path":"b.txt"}')]}),
        chunk({"tool_calls": [opening(0, "call_a", "read_file", '{"path":"a.txt"}')]}),
        chunk({}, "tool_calls"),
    ],
}
EXPECTED = [("call_a", "read_file", '{"path":"a.txt"}'), ("call_b", "read_file", '{"path":"b.txt"}')]


def calls_of(events) -> list:
    body = ("".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n").encode()

    def handler(request):
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    model = ChatOpenAI(model="gpt-4o-mini", api_key="test", base_url="http://test.invalid/v1", max_retries=0,
                       http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    total = None
    for part in model.stream("hi"):
        total = part if total is None else total + part
    return [(c.get("id"), c.get("name"), c.get("args")) for c in total.tool_call_chunks]


def main() -> int:
    bug = False
    for what, events in STREAMS.items():
        got = calls_of(events)
        print(f"{what}:\n  expected {EXPECTED}\n  got      {got}")
        bug |= got != EXPECTED
    print("BUG" if bug else "ok")
    return 1 if bug else 0


if __name__ == "__main__":
    sys.exit(main())
