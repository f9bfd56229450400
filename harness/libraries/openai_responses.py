"""The contracts' view of openai-python's Responses streaming: its SSE decoding, event models and accumulator.

``parse_stream`` serves the body to ``client.responses.stream(...)`` from an
in-memory transport and reads the neutral turn off the SDK's own
``get_final_response()``: one block per ``output_text`` part of a ``message``
item, per ``reasoning`` item (``text`` its summary texts joined, ``signature``
its ``encrypted_content``, ``""`` for none) and per ``function_call`` item
(``id`` its ``call_id``), each with the item's id; ``stop_reason`` is the
response's ``status`` and ``usage`` its ``usage`` as the SDK holds it.

Only the ``stream`` capability: ``serialize_message`` and
``transform_request`` are absent (an SDK user writes input items as dicts, and
the SDK has no request transform).
"""

from __future__ import annotations

import httpx
import openai

from harness.libraries import BASE_URL, MODEL


def _client(handler) -> openai.OpenAI:
    http_client = httpx.Client(transport=httpx.MockTransport(handler))
    return openai.OpenAI(api_key="test", base_url=BASE_URL, http_client=http_client, max_retries=0)


def output_blocks(item) -> list[dict]:
    """One openai-python Responses output item as neutral blocks (the OpenAI Agents SDK's adapter reads the same)."""
    if item.type == "message":
        return [{"type": "text", "text": part.text, "item_id": item.id}
                for part in item.content if part.type == "output_text"]
    if item.type == "reasoning":
        summary = [part.text for part in item.summary]
        return [{"type": "reasoning", "text": "".join(summary), "signature": item.encrypted_content or "",
                 "item_id": item.id, "summary": summary}]
    if item.type == "function_call":
        return [{"type": "tool_call", "id": item.call_id, "name": item.name, "arguments": item.arguments,
                 "item_id": item.id}]
    raise ValueError(f"the SDK accumulated a {item.type!r} output item, which a neutral turn has no type for")


class OpenAIResponsesAdapter:
    name = f"openai-python {openai.__version__} (Responses)"
    format = "openai-responses"

    def parse_stream(self, body: bytes) -> dict:
        def handler(request: httpx.Request) -> httpx.Response:
            return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

        with _client(handler) as client:
            with client.responses.stream(model=MODEL, input="hi") as stream:
                response = stream.get_final_response()
        return {
            "blocks": [block for item in response.output for block in output_blocks(item)],
            "stop_reason": response.status,
            "usage": response.usage.to_dict() if response.usage is not None else None,
        }


adapter = OpenAIResponsesAdapter()
