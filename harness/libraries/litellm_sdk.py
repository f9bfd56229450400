"""The contracts' view of litellm: its streaming path, ``stream_chunk_builder`` and its provider transforms.

``parse_stream`` serves the body to ``litellm.completion(model="openai/...",
stream=True, client=...)`` (an ``openai.OpenAI`` client on an in-memory httpx
transport) and joins the chunks litellm yields with
``litellm.stream_chunk_builder``, as litellm's docs show. ``usage`` is
litellm's ``Usage`` as plain JSON, without ``None`` entries and without the
``cost`` litellm adds.

``serialize_message`` sends the message, written as a litellm user holds it
(OpenAI dict, reasoning under litellm's ``reasoning_content`` field), through
``litellm.completion(model="openai/...")`` and returns the message from the
captured HTTP body.

``transform_request`` runs the body through litellm's own request building and
returns the HTTP body captured at the transport: ``deepseek/<model>`` (litellm's
DeepSeek provider) when the base URL's host is ``api.deepseek.com``, else
``openai/<model>`` (an OpenAI-compatible endpoint). The options map onto
litellm's parameters: effort ``off`` is ``reasoning_effort="none"`` for
DeepSeek (litellm sends ``thinking: disabled``) and nothing elsewhere; any
other effort is ``reasoning_effort`` as given; ``role`` and ``era`` have no
litellm counterpart and are not passed.

No network: every HTTP call is answered by an in-memory transport.
"""

from __future__ import annotations

import json
import os
from importlib.metadata import version
from urllib.parse import urlsplit

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # before the import: no cost-map download

import httpx  # noqa: E402
import litellm  # noqa: E402
import openai  # noqa: E402
from litellm.llms.custom_httpx.http_handler import HTTPHandler  # noqa: E402

from harness.libraries import BASE_URL, COMPLETION, MODEL

litellm.suppress_debug_info = True

DEEPSEEK_HOST = "api.deepseek.com"
_STREAM = (
    'data: {"id":"chatcmpl-test","object":"chat.completion.chunk","created":0,"model":"test-model",'
    '"choices":[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}\n\n'
    "data: [DONE]\n\n"
).encode()


def _capturing(sent: list[dict], stream_reply: bytes | None = None):
    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        sent.append(body)
        if body.get("stream"):
            return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=stream_reply or _STREAM)
        return httpx.Response(200, json=COMPLETION)

    return handler


def _openai_client(handler, base_url: str | None = None) -> openai.OpenAI:
    http_client = httpx.Client(transport=httpx.MockTransport(handler))
    return openai.OpenAI(api_key="test", base_url=base_url or BASE_URL, http_client=http_client, max_retries=0)


def litellm_message(message: dict) -> dict:
    """The neutral message as a litellm user holds it: an OpenAI dict, reasoning as ``reasoning_content``."""
    role = message["role"]
    if role == "tool":
        return {"role": "tool", "tool_call_id": message["tool_call_id"], "content": message.get("content")}
    wire: dict = {"role": role, "content": message.get("content")}
    if role == "assistant":
        if message.get("tool_calls"):
            wire["tool_calls"] = [
                {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
                for c in message["tool_calls"]
            ]
        if message.get("reasoning"):
            wire["reasoning_content"] = message["reasoning"]
    return wire


def _is_deepseek(base_url: str | None) -> bool:
    if not base_url:
        return False
    try:
        return (urlsplit(base_url).hostname or "").lower() == DEEPSEEK_HOST
    except ValueError:
        return False


def _usage(usage) -> dict | None:
    if usage is None:
        return None
    plain = usage.model_dump(exclude_none=True)
    plain.pop("cost", None)
    return plain


class LiteLLMAdapter:
    name = f"litellm {version('litellm')}"

    def parse_stream(self, body: bytes) -> dict:
        def handler(request: httpx.Request) -> httpx.Response:
            return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

        messages = [{"role": "user", "content": "hi"}]
        stream = litellm.completion(
            model=f"openai/{MODEL}", messages=messages, stream=True, client=_openai_client(handler)
        )
        chunks = list(stream)
        built = litellm.stream_chunk_builder(chunks, messages=messages)
        if built is None or not built.choices:
            return {"content": "", "reasoning": "", "tool_calls": [], "finish_reason": None,
                    "usage": _usage(getattr(built, "usage", None))}
        choice = built.choices[0]
        message = choice.message
        return {
            "content": message.content or "",
            "reasoning": getattr(message, "reasoning_content", None) or "",
            "tool_calls": [
                {"id": c.id, "name": c.function.name, "arguments": c.function.arguments}
                for c in message.tool_calls or []
            ],
            "finish_reason": choice.finish_reason,
            "usage": _usage(getattr(built, "usage", None)),
        }

    def serialize_message(self, message: dict) -> dict:
        sent: list[dict] = []
        litellm.completion(
            model=f"openai/{MODEL}", messages=[litellm_message(message)], client=_openai_client(_capturing(sent))
        )
        return sent[0]["messages"][0]

    def transform_request(self, body: dict, options: dict) -> dict:
        base_url = options.get("base_url")
        effort = options.get("effort")
        deepseek = _is_deepseek(base_url)
        sent: list[dict] = []
        handler = _capturing(sent)
        kwargs = {k: v for k, v in body.items() if k not in ("model", "messages")}
        if effort == "off":
            if deepseek:
                kwargs["reasoning_effort"] = "none"
        elif effort is not None:
            kwargs["reasoning_effort"] = effort
        model = body.get("model") or MODEL
        if deepseek:
            client = HTTPHandler(client=httpx.Client(transport=httpx.MockTransport(handler)))
            call = dict(model=f"deepseek/{model}", api_base=base_url, api_key="test", client=client)
        else:
            call = dict(model=f"openai/{model}", client=_openai_client(handler, base_url))
        response = litellm.completion(messages=body.get("messages") or [], **call, **kwargs)
        if kwargs.get("stream"):
            for _ in response:
                pass
        return sent[0]


adapter = LiteLLMAdapter()
