"""litellm: a redacted_thinking block's data goes to Anthropic base64-decoded when it decodes to base64 text.

litellm rewrites the data of every redacted_thinking block it sends to
Anthropic with native_redacted_thinking_data(): a value that is base64 of
base64 text is taken for a Bedrock Converse wrapper and decoded. The value is
opaque and must go back byte for byte; "ZGF0YQ==" goes back as "data".
Imports only litellm (and httpx, the HTTP library litellm uses); no network.
Prints BUG (exit 1) or ok (exit 0).
"""

import json
import os
import sys
from importlib.metadata import version

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import

import httpx  # noqa: E402
import litellm  # noqa: E402
from litellm.llms.custom_httpx.http_handler import HTTPHandler  # noqa: E402

DATA = "ZGF0YQ=="
REPLY = {"id": "msg_02", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
         "content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn", "stop_sequence": None,
         "usage": {"input_tokens": 1, "output_tokens": 1}}
sent = []


def handler(request):
    sent.append(json.loads(request.content))
    return httpx.Response(200, json=REPLY)


messages = [
    {"role": "user", "content": "List the folder."},
    {"role": "assistant", "content": "Listing.", "thinking_blocks": [{"type": "redacted_thinking", "data": DATA}],
     "tool_calls": [{"id": "toolu_01", "type": "function", "function": {"name": "list_dir", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "toolu_01", "content": "a.txt"},
]
litellm.completion(model="anthropic/claude-sonnet-4-5", messages=messages, api_key="test",
                   api_base="http://test.invalid", client=HTTPHandler(client=httpx.Client(
                       transport=httpx.MockTransport(handler))))

data = [b.get("data") for b in sent[0]["messages"][1]["content"] if b.get("type") == "redacted_thinking"]
print(f"litellm {version('litellm')}: redacted_thinking data {DATA!r} went to Anthropic as {data}")
if data != [DATA]:
    print("expected: the data byte for byte")
    print("BUG")
    sys.exit(1)
print("ok")
