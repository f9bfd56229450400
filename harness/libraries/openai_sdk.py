"""The contracts' view of openai-python: its own SSE decoding, chunk models and stream accumulation.

``parse_stream`` serves the body to ``client.chat.completions.create(...,
stream=True)`` from an in-memory transport and accumulates the chunks with the
SDK's ``ChatCompletionStreamState``, the helper its docs give for accumulating
a ``create(stream=True)`` stream by hand (``chat.completions.stream()`` runs the
same state, but first drops every chunk whose ``object`` is not
``chat.completion.chunk``, an Azure workaround).

``serialize_message`` writes the neutral message as the typed
``ChatCompletionMessageParam`` dict an openai-python user writes, sends it
through the SDK's request building and returns the message as it left in the
captured HTTP body.

openai-python has no provider transform, so there is no ``transform_request``:
the ``request`` capability is absent.
"""

from __future__ import annotations

import json

import httpx
import openai
from openai.lib.streaming.chat import ChatCompletionStreamState

from harness.libraries import BASE_URL, COMPLETION, MODEL


def _client(handler) -> openai.OpenAI:
    http_client = httpx.Client(transport=httpx.MockTransport(handler))
    return openai.OpenAI(api_key="test", base_url=BASE_URL, http_client=http_client, max_retries=0)


def _tool_call_param(call: dict) -> dict:
    param = {"id": call["id"], "type": "function", "function": {"name": call["name"], "arguments": call["arguments"]}}
    # A dialect's signature rides on its call (docs/adapter-protocol.md); openai-python sends extra keys as given.
    return {**param, "extra_content": call["extra_content"]} if "extra_content" in call else param


def message_param(message: dict) -> dict:
    """The neutral message as an openai-python user writes a ``ChatCompletionMessageParam``."""
    role = message["role"]
    if role == "tool":
        return {"role": "tool", "tool_call_id": message["tool_call_id"], "content": message.get("content")}
    if role == "assistant":
        param: dict = {"role": "assistant", "content": message.get("content")}
        if message.get("tool_calls"):
            param["tool_calls"] = [_tool_call_param(c) for c in message["tool_calls"]]
        if "reasoning_details" in message:
            param["reasoning_details"] = message["reasoning_details"]
        return param
    return {"role": role, "content": message.get("content")}


class OpenAISDKAdapter:
    name = f"openai-python {openai.__version__}"

    def parse_stream(self, body: bytes) -> dict:
        def handler(request: httpx.Request) -> httpx.Response:
            return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

        with _client(handler) as client:
            stream = client.chat.completions.create(
                model=MODEL, messages=[{"role": "user", "content": "hi"}], stream=True
            )
            state = ChatCompletionStreamState()
            for chunk in stream:
                state.handle_chunk(chunk)
            completion = state.get_final_completion()
        return _neutral(completion)

    def serialize_message(self, message: dict) -> dict:
        sent: list[dict] = []

        def handler(request: httpx.Request) -> httpx.Response:
            sent.append(json.loads(request.content))
            return httpx.Response(200, json=COMPLETION)

        with _client(handler) as client:
            client.chat.completions.create(model=MODEL, messages=[message_param(message)])
        return sent[0]["messages"][0]


def _neutral(completion) -> dict:
    choice = completion.choices[0] if completion.choices else None
    message = choice.message if choice is not None else None
    extra = (getattr(message, "model_extra", None) or {}) if message is not None else {}
    calls = (message.tool_calls or []) if message is not None else []
    turn = {
        "content": (message.content if message is not None else None) or "",
        "reasoning": extra.get("reasoning_content") or "",
        "tool_calls": [_call(c) for c in calls],
        "finish_reason": choice.finish_reason if choice is not None else None,
        "usage": completion.usage.to_dict() if completion.usage is not None else None,
    }
    # The chat dialects' opaque values, where the stream state kept them (its extra fields).
    if "reasoning_details" in extra:
        turn["reasoning_details"] = extra["reasoning_details"]
    return turn


def _call(call) -> dict:
    neutral = {"id": call.id, "name": call.function.name, "arguments": call.function.arguments}
    extra = getattr(call, "model_extra", None) or {}
    return {**neutral, "extra_content": extra["extra_content"]} if "extra_content" in extra else neutral


adapter = OpenAISDKAdapter()
