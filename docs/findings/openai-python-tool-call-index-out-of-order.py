"""openai-python: streamed tool calls whose `index` arrives out of order (0, 2, 1) are merged or crash.

Imports only openai (and the HTTP library openai itself uses); no network: the
SSE body is served by an in-memory transport. Prints BUG (exit 1) or ok (exit 0).
"""

import json
import sys

import openai
from openai.lib.streaming._deltas import accumulate_delta
from openai.lib.streaming.chat import ChatCompletionStreamState

try:  # openai 3.x runs on httpx2; older releases on httpx
    import httpx2 as httpx
except ImportError:
    import httpx

ENVELOPE = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1760000000, "model": "gpt-4o-mini"}
CALLS = [("call_0", "get_weather", '{"city":"Paris"}'), ("call_1", "get_time", '{"tz":"CET"}'),
         ("call_2", "get_news", '{"topic":"rain"}')]


def chunk(delta, finish_reason=None):
    return {**ENVELOPE, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}]}


def opening(index):
    cid, name, arguments = CALLS[index]
    return {"index": index, "id": cid, "type": "function", "function": {"name": name, "arguments": arguments}}


EVENTS = [
    chunk({"role": "assistant", "content": None, "tool_calls": [opening(0)]}),
    chunk({"tool_calls": [opening(2)]}),
    chunk({"tool_calls": [opening(1)]}),
    chunk({}, "tool_calls"),
    {**ENVELOPE, "choices": [], "usage": {"prompt_tokens": 12, "completion_tokens": 30, "total_tokens": 42}},
]
BODY = ("".join(f"data: {json.dumps(e)}\n\n" for e in EVENTS) + "data: [DONE]\n\n").encode()
EXPECTED = sorted(CALLS)


def via_accumulate_delta():
    acc = {}
    for event in EVENTS[:3]:
        acc = accumulate_delta(acc, json.loads(json.dumps(event["choices"][0]["delta"])))
    return sorted((c["id"], c["function"]["name"], c["function"]["arguments"]) for c in acc["tool_calls"])


def via_stream_state():
    def handler(request):
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=BODY)

    client = openai.OpenAI(api_key="test", base_url="http://test.invalid/v1", max_retries=0,
                           http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    state = ChatCompletionStreamState()
    stream = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "hi"}],
                                            stream=True)
    for chunk_ in stream:
        state.handle_chunk(chunk_)
    message = state.get_final_completion().choices[0].message
    return sorted((c.id, c.function.name, c.function.arguments) for c in message.tool_calls or [])


def main() -> int:
    print(f"openai {openai.__version__}; tool-call indices streamed as 0, 2, 1")
    print(f"expected calls: {EXPECTED}")
    bug = False
    merged = via_accumulate_delta()
    print(f"accumulate_delta:          {merged}")
    bug |= merged != EXPECTED
    try:
        got = via_stream_state()
        print(f"ChatCompletionStreamState: {got}")
        bug |= got != EXPECTED
    except Exception as exc:
        print(f"ChatCompletionStreamState: raised {type(exc).__name__}: {exc}")
        bug = True
    print("BUG" if bug else "ok")
    return 1 if bug else 0


if __name__ == "__main__":
    sys.exit(main())
