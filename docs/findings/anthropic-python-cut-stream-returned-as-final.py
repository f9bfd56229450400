"""anthropic-python: a Messages stream cut off before message_stop comes back from get_final_message() as if complete.

The connection ends (cleanly, HTTP 200) after the first text block, before
message_delta and message_stop. messages.stream(...).get_final_message()
returns the partial message, stop_reason None, and raises nothing; nothing in
the SDK tells the caller the turn did not end. Imports only anthropic (and the
HTTP library anthropic itself uses); no network. Prints BUG (exit 1) or ok
(exit 0).
"""

import json
import sys

import anthropic
import httpx2

EVENTS = [
    ("message_start", {"type": "message_start", "message": {
        "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 12, "output_tokens": 1}}}),
    ("content_block_start", {"type": "content_block_start", "index": 0,
                             "content_block": {"type": "text", "text": ""}}),
    ("content_block_delta", {"type": "content_block_delta", "index": 0,
                             "delta": {"type": "text_delta", "text": "The deploy is safe to"}}),
    ("content_block_stop", {"type": "content_block_stop", "index": 0}),
    # cut here: no further blocks, no message_delta, no message_stop
]
BODY = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in EVENTS).encode()


def handler(request):
    return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=BODY)


client = anthropic.Anthropic(api_key="test", base_url="http://test.invalid", max_retries=0,
                             http_client=httpx2.Client(transport=httpx2.MockTransport(handler)))
try:
    with client.messages.stream(model="claude-sonnet-4-5", max_tokens=1024,
                                messages=[{"role": "user", "content": "Is the deploy safe?"}]) as stream:
        message = stream.get_final_message()
except Exception as exc:  # the fix: the SDK says the stream ended early
    print(f"anthropic {anthropic.__version__}: raised {type(exc).__name__}: {exc}")
    print("ok")
    sys.exit(0)
print(f"anthropic {anthropic.__version__}: get_final_message() returned {message.content[0].text!r}, "
      f"stop_reason {message.stop_reason!r}, without an error")
print("expected: an error, since the stream ended before message_stop")
print("BUG")
sys.exit(1)
