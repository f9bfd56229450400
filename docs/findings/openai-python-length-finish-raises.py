"""openai-python: the stream helpers refuse a plain text answer that ended with finish_reason "length".

No response_format and no tools were given, so nothing is to be parsed; yet
ChatCompletionStreamState.get_final_completion() (and the same call on
client.chat.completions.stream(...)) raises LengthFinishReasonError instead of
returning the truncated completion. Imports only openai (and the HTTP library
openai itself uses); no network. Prints BUG (exit 1) or ok (exit 0).
"""

import json
import sys

import openai
from openai.lib.streaming.chat import ChatCompletionStreamState

try:  # openai 3.x runs on httpx2; older releases on httpx
    import httpx2 as httpx
except ImportError:
    import httpx

ENVELOPE = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1760000000, "model": "gpt-4o-mini"}


def chunk(delta, finish_reason=None):
    return {**ENVELOPE, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}]}


EVENTS = [
    chunk({"role": "assistant", "content": "It is"}),
    chunk({"content": " noon in"}),
    chunk({}, "length"),
    {**ENVELOPE, "choices": [], "usage": {"prompt_tokens": 9, "completion_tokens": 3, "total_tokens": 12}},
]
BODY = ("".join(f"data: {json.dumps(e)}\n\n" for e in EVENTS) + "data: [DONE]\n\n").encode()
MESSAGES = [{"role": "user", "content": "What time is it?"}]


def client():
    def handler(request):
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=BODY)

    return openai.OpenAI(api_key="test", base_url="http://test.invalid/v1", max_retries=0,
                         http_client=httpx.Client(transport=httpx.MockTransport(handler)))


def with_state():
    state = ChatCompletionStreamState()
    for chunk_ in client().chat.completions.create(model="gpt-4o-mini", messages=MESSAGES, stream=True):
        state.handle_chunk(chunk_)
    return state.get_final_completion()


def with_stream_helper():
    with client().chat.completions.stream(model="gpt-4o-mini", messages=MESSAGES) as stream:
        return stream.get_final_completion()


def main() -> int:
    print(f"openai {openai.__version__}; a text answer cut at max_tokens (finish_reason 'length'), no parsing asked")
    bug = False
    for name, run in (("ChatCompletionStreamState", with_state), ("chat.completions.stream", with_stream_helper)):
        try:
            choice = run().choices[0]
            print(f"{name}: content={choice.message.content!r} finish_reason={choice.finish_reason!r}")
            bug |= (choice.message.content, choice.finish_reason) != ("It is noon in", "length")
        except Exception as exc:
            print(f"{name}: raised {type(exc).__name__}: {exc}")
            bug = True
    print("BUG" if bug else "ok")
    return 1 if bug else 0


if __name__ == "__main__":
    sys.exit(main())
