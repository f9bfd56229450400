"""The contracts' view of anthropic-python: its own SSE decoding, event models and message accumulation.

``parse_stream`` serves the body to ``client.messages.stream(...)`` from an
in-memory transport and reads the neutral turn off the SDK's accumulated
``get_final_message()``. The SDK keeps a tool call's input only as the object
it parsed from the streamed pieces, so ``arguments`` is that object written
back as JSON (``"{}"`` for a call that streamed only ``""``); ``usage`` is the
SDK's ``Usage`` as it holds it.

``serialize_message`` of an assistant message replays what an SDK user
replays: the ``Message`` the SDK accumulated when that turn streamed (the turn
is served as Anthropic streams it) turned into a ``MessageParam`` by
``Message.to_param()``, the SDK's own way back into ``messages``, sent through
the SDK's request building; the message is read from the captured HTTP body.
The SDK offers nothing for a user message with tool results (its users write
those dicts themselves), so a user message raises ``NotImplementedError``.

The SDK has no request transform: no ``transform_request``.
"""

from __future__ import annotations

import json

import anthropic
import httpx2

from harness.libraries import ANTHROPIC_MESSAGE, ANTHROPIC_MODEL, ANTHROPIC_URL
from harness.libraries.anthropic_replay import replay_body

QUESTION = {"role": "user", "content": "Go."}


def _client(handler) -> anthropic.Anthropic:
    http_client = httpx2.Client(transport=httpx2.MockTransport(handler))
    return anthropic.Anthropic(api_key="test", base_url=ANTHROPIC_URL, http_client=http_client, max_retries=0)


def _streamed(body: bytes):
    def handler(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    with _client(handler) as client:
        with client.messages.stream(model=ANTHROPIC_MODEL, max_tokens=1024, messages=[QUESTION]) as stream:
            return stream.get_final_message()


def _block(block) -> dict:
    if block.type == "text":
        return {"type": "text", "text": block.text}
    if block.type == "thinking":
        return {"type": "reasoning", "text": block.thinking, "signature": block.signature}
    if block.type == "redacted_thinking":
        return {"type": "redacted_reasoning", "data": block.data}
    if block.type == "tool_use":
        return {"type": "tool_call", "id": block.id, "name": block.name,
                "arguments": json.dumps(block.input, ensure_ascii=False)}
    raise ValueError(f"the SDK accumulated a {block.type!r} block, which a neutral turn has no type for")


class AnthropicSDKAdapter:
    name = f"anthropic-python {anthropic.__version__}"
    format = "anthropic"

    def parse_stream(self, body: bytes) -> dict:
        message = _streamed(body)
        return {
            "blocks": [_block(b) for b in message.content],
            "stop_reason": message.stop_reason,
            "usage": message.usage.to_dict() if message.usage is not None else None,
        }

    def serialize_message(self, message: dict) -> dict:
        if message["role"] != "assistant":
            raise NotImplementedError("anthropic-python takes a user's tool results as dicts its users write")
        param = _streamed(replay_body(message["blocks"])).to_param()
        sent: list[dict] = []

        def handler(request: httpx2.Request) -> httpx2.Response:
            sent.append(json.loads(request.content))
            return httpx2.Response(200, json=ANTHROPIC_MESSAGE)

        with _client(handler) as client:
            client.messages.create(model=ANTHROPIC_MODEL, max_tokens=1024, messages=[QUESTION, param])
        return sent[0]["messages"][1]


adapter = AnthropicSDKAdapter()
