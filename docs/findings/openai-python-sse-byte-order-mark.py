"""openai-python: a stream that opens with a UTF-8 byte order mark loses its first event.

The SSE rules (WHATWG HTML, "Server-sent events", interpretation of the event
stream) decode the stream as UTF-8 and drop one leading byte order mark, so
the first line is still the `data` field. openai-python's SSE decoder keeps the
mark: the first line's field name becomes "\\ufeffdata", which is no field,
and the first chunk of the reply (here: its opening text) is dropped without a
word. Imports only openai (and the HTTP library openai itself uses); no
network. Prints BUG (exit 1) or ok (exit 0).
"""

import json
import sys

import openai

try:  # openai 3.x runs on httpx2; older releases on httpx
    import httpx2 as httpx
except ImportError:
    import httpx

ENVELOPE = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1760000000, "model": "gpt-4o-mini"}


def chunk(delta, finish_reason=None):
    return {**ENVELOPE, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}]}


EVENTS = [chunk({"role": "assistant", "content": "Checking "}), chunk({"content": "the weather."}), chunk({}, "stop")]
PLAIN = ("".join(f"data: {json.dumps(e)}\n\n" for e in EVENTS) + "data: [DONE]\n\n").encode()
WITH_BOM = b"\xef\xbb\xbf" + PLAIN


def text_of(body: bytes) -> str:
    def handler(request):
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    client = openai.OpenAI(api_key="test", base_url="http://test.invalid/v1", max_retries=0,
                           http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    stream = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "hi"}],
                                            stream=True)
    return "".join(c.choices[0].delta.content or "" for c in stream if c.choices)


def main() -> int:
    print(f"openai {openai.__version__}")
    plain, marked = text_of(PLAIN), text_of(WITH_BOM)
    print(f"without a byte order mark: {plain!r}\nwith one:                  {marked!r}")
    bug = marked != plain
    print("BUG" if bug else "ok")
    return 1 if bug else 0


if __name__ == "__main__":
    sys.exit(main())
