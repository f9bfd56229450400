"""openai-python: a tool-call fragment that repeats its call's id and name doubles them in ChatCompletionStreamState.

The SDK's own chunk schema types `id` and `function.name` as optional on every
fragment (ChoiceDeltaToolCall), and gateways that write each fragment whole
repeat them. Imports only openai (and the HTTP library openai itself uses); no
network. Prints BUG (exit 1) or ok (exit 0).
"""

import json
import sys

import openai
from openai.lib.streaming.chat import ChatCompletionStreamState
from openai.types.chat.chat_completion_chunk import ChoiceDeltaToolCall

try:  # openai 3.x runs on httpx2; older releases on httpx
    import httpx2 as httpx
except ImportError:
    import httpx

ENVELOPE = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1760000000, "model": "gpt-4o-mini"}


def chunk(delta, finish_reason=None):
    return {**ENVELOPE, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}]}


CONTINUATION = {"index": 0, "id": "call_w", "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'}}
EVENTS = [
    chunk({"role": "assistant", "content": None, "tool_calls": [
        {"index": 0, "id": "call_w", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}),
    chunk({"tool_calls": [CONTINUATION]}),
    chunk({}, "tool_calls"),
]
BODY = ("".join(f"data: {json.dumps(e)}\n\n" for e in EVENTS) + "data: [DONE]\n\n").encode()
EXPECTED = [("call_w", "function", "get_weather", '{"city":"Paris"}')]


def main() -> int:
    print(f"openai {openai.__version__}")
    # The fragment is valid under the SDK's own schema: validation does not reject it.
    ChoiceDeltaToolCall.model_validate(CONTINUATION)
    print(f"ChoiceDeltaToolCall.model_validate accepts {json.dumps(CONTINUATION)}")

    def handler(request):
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=BODY)

    client = openai.OpenAI(api_key="test", base_url="http://test.invalid/v1", max_retries=0,
                           http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    state = ChatCompletionStreamState()
    try:
        stream = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "hi"}],
                                                stream=True)
        for chunk_ in stream:
            state.handle_chunk(chunk_)
        calls = state.get_final_completion().choices[0].message.tool_calls or []
        got = [(c.id, c.type, c.function.name, c.function.arguments) for c in calls]
        print(f"expected {EXPECTED}\ngot      {got}")
        bug = got != EXPECTED
    except Exception as exc:
        print(f"ChatCompletionStreamState raised {type(exc).__name__}: {exc!r}")
        bug = True
    print("BUG" if bug else "ok")
    return 1 if bug else 0


if __name__ == "__main__":
    sys.exit(main())
