"""litellm: an empty tool result goes to Bedrock Converse as a blank text block, which Bedrock refuses.

A tool that returns nothing ("") is answered in Converse by a toolResult whose
content holds no blank text: Bedrock answers 400 "The text field in the
ContentBlock object at messages.2.content.0 is blank" to a blank text block,
inside a toolResult too. litellm's Converse request building writes the tool
message's content "" as toolResult.content [{"text": ""}]. Imports only
litellm (and httpx, the HTTP library litellm uses); no network. Prints BUG
(exit 1) or ok (exit 0).
"""

import json
import os
import sys
from importlib.metadata import version

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no cost-map download at import

import httpx  # noqa: E402
import litellm  # noqa: E402
from litellm.llms.custom_httpx.http_handler import HTTPHandler  # noqa: E402

MODEL = "bedrock/converse/anthropic.claude-sonnet-4-20250514-v1:0"
ROUTE = {"api_base": "http://bedrock-runtime.test.invalid", "aws_region_name": "us-east-1",
         "aws_access_key_id": "test", "aws_secret_access_key": "test"}
TOOLS = [{"type": "function", "function": {"name": "clear_cache", "parameters": {"type": "object"}}}]
REPLY = {"output": {"message": {"role": "assistant", "content": [{"text": "ok"}]}}, "stopReason": "end_turn",
         "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2}, "metrics": {"latencyMs": 1}}
HISTORY = [{"role": "user", "content": "Clear the cache."},
           {"role": "assistant", "content": None, "tool_calls": [
               {"id": "tooluse_01", "type": "function", "function": {"name": "clear_cache", "arguments": "{}"}}]},
           {"role": "tool", "tool_call_id": "tooluse_01", "content": ""}]

sent = []


def capture(request: httpx.Request) -> httpx.Response:
    sent.append(json.loads(request.content))
    return httpx.Response(200, json=REPLY)


litellm.completion(model=MODEL, messages=HISTORY, tools=TOOLS, **ROUTE,
                   client=HTTPHandler(client=httpx.Client(transport=httpx.MockTransport(capture))))
results = [block["toolResult"] for block in sent[0]["messages"][2]["content"] if "toolResult" in block]
blank = [item for result in results for item in result.get("content", []) if item.get("text", None) is not None
         and not item["text"].strip()]

print(f"litellm {version('litellm')}: the empty tool result goes to Bedrock as {results!r}")
if blank:
    print("BUG")
    sys.exit(1)
print("ok")
