"""litellm: no reasoning_content goes back to a DeepSeek model that thinks by default unless thinking is asked for.

deepseek-v4-flash runs in thinking mode by default; with tools, DeepSeek
requires every earlier assistant turn to carry reasoning_content. litellm's
DeepSeek transform knows this (it promotes the reasoning it stored in
provider_specific_fields, or writes a placeholder), but only runs that step
when the caller passed thinking/reasoning_effort. Imports only litellm (and the
HTTP library litellm itself uses); no network: the request is captured by an
in-memory transport. Prints BUG (exit 1) or ok (exit 0).
"""

import json
import logging
import os
import sys

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # before the import: no cost-map download

from importlib.metadata import version  # noqa: E402

import httpx  # noqa: E402
import litellm  # noqa: E402
from litellm.llms.custom_httpx.http_handler import HTTPHandler  # noqa: E402
from litellm.utils import supports_reasoning  # noqa: E402

litellm.suppress_debug_info = True
logging.getLogger("LiteLLM").setLevel(logging.ERROR)

MODEL = "deepseek/deepseek-v4-flash"
TOOLS = [{"type": "function", "function": {"name": "sql_query", "parameters": {"type": "object", "properties": {}}}}]


def call(cid):
    return [{"id": cid, "type": "function", "function": {"name": "sql_query", "arguments": "{}"}}]


HISTORY = [
    {"role": "user", "content": "Was invoice INV-0312 paid?"},
    # A turn as litellm stored it: the reasoning kept in provider_specific_fields.
    {"role": "assistant", "content": None, "tool_calls": call("call_1"),
     "provider_specific_fields": {"reasoning_content": "Look the invoice up first."}},
    {"role": "tool", "tool_call_id": "call_1", "content": "INV-0312: open"},
    # A turn whose reasoning was not kept (or the model returned none).
    {"role": "assistant", "content": None, "tool_calls": call("call_2")},
    {"role": "tool", "tool_call_id": "call_2", "content": "no payment rows"},
]
REPLY = {"id": "x", "object": "chat.completion", "created": 0, "model": "deepseek-v4-flash",
         "choices": [{"index": 0, "message": {"role": "assistant", "content": "Not paid."}, "finish_reason": "stop"}]}


def sent_assistants(**params):
    sent = []

    def handler(request):
        sent.append(json.loads(request.content))
        return httpx.Response(200, json=REPLY)

    client = HTTPHandler(client=httpx.Client(transport=httpx.MockTransport(handler)))
    litellm.completion(model=MODEL, messages=HISTORY, tools=TOOLS, api_key="test", client=client, **params)
    body = sent[0]
    settings = {k: body[k] for k in ("thinking", "reasoning_effort") if k in body}
    return settings, [m.get("reasoning_content", "<absent>") for m in body["messages"] if m["role"] == "assistant"]


def main() -> int:
    print(f"litellm {version('litellm')}")
    print(f"{MODEL}: supports_reasoning={supports_reasoning(model='deepseek-v4-flash', custom_llm_provider='deepseek')}"
          " (DeepSeek: thinking is on by default)")
    default_settings, default = sent_assistants()
    asked_settings, asked = sent_assistants(reasoning_effort="high")
    print(f"no thinking params  -> sent {default_settings or '{}'}; assistant reasoning_content: {default}")
    print(f"reasoning_effort=high -> sent {asked_settings}; assistant reasoning_content: {asked}")
    bug = "<absent>" in default
    if bug:
        print("with tools in thinking mode DeepSeek rejects such a request: HTTP 400 "
              "'The reasoning_content in the thinking mode must be passed back to the API.'")
    print("BUG" if bug else "ok")
    return 1 if bug else 0


if __name__ == "__main__":
    sys.exit(main())
