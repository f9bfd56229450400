"""The contracts' view of the OpenAI Agents SDK's Responses model: ``OpenAIResponsesModel.stream_response``.

``parse_stream`` serves the body to ``OpenAIResponsesModel.stream_response``
(an ``AsyncOpenAI`` client on an in-memory ``httpx.MockTransport``, tracing
off, no tools) and iterates the events it yields, as the SDK's run loop does.
The SDK decodes the stream with openai-python's SSE decoder and event models,
accumulates no deltas, and raises on ``response.failed``,
``response.incomplete`` and ``error``; its run loop takes the turn from the
``response.completed`` event (``ModelResponse.output`` is that response's
``output``) and raises ``ModelBehaviorError`` when none came, which is what
this adapter does too, with the run loop's fallback to the
``output_item.done`` items when that ``output`` is empty (some backends leave
it empty).

The neutral turn is read off that response: one block per ``output_text``
part of a ``message`` item, per ``reasoning`` item (``text`` its summary texts
joined, ``summary`` those texts, ``signature`` its ``encrypted_content``,
``""`` for none) and per ``function_call`` item (``id`` its ``call_id``), each
with the item's id; ``stop_reason`` is the response's ``status`` and
``usage`` its ``usage`` as openai-python holds it.

Only the ``stream`` capability. The SDK's history replay,
``ModelResponse.to_input_items``, is a ``model_dump`` of the output items it
received; the user half of a neutral message has no natural SDK form
(``ItemHelpers.tool_call_output_item`` takes the SDK's tool-call object, which
a neutral tool result, carrying only its ``call_id``, does not give), so
there is no ``serialize_message``. There is no request transform either.
"""

from __future__ import annotations

import asyncio
from importlib.metadata import version

import httpx
from agents import ModelSettings
from agents.exceptions import ModelBehaviorError
from agents.models.interface import ModelTracing
from agents.models.openai_responses import OpenAIResponsesModel
from openai import AsyncOpenAI
from openai.types.responses import Response, ResponseCompletedEvent, ResponseOutputItemDoneEvent

from harness.libraries import BASE_URL, MODEL
from harness.libraries.openai_responses import output_blocks


async def _completed(body: bytes) -> Response:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    http_client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    client = AsyncOpenAI(api_key="test", base_url=BASE_URL, http_client=http_client, max_retries=0)
    async with client:
        events = OpenAIResponsesModel(MODEL, client).stream_response(
            None, "hi", ModelSettings(), [], None, [], ModelTracing.DISABLED)
        completed, done = [], []
        async for event in events:
            if isinstance(event, ResponseCompletedEvent):
                completed.append(event.response)
            elif isinstance(event, ResponseOutputItemDoneEvent):
                done.append(event.item)
    if not completed:
        raise ModelBehaviorError("Model did not produce a final response!")  # the run loop's own words
    if not completed[-1].output and done:
        # The run loop's fallback for backends that leave the completed output empty: the items as they were done.
        completed[-1].output = done
    return completed[-1]


class OpenAIAgentsAdapter:
    name = f"openai-agents {version('openai-agents')} (Responses)"
    format = "openai-responses"

    def parse_stream(self, body: bytes) -> dict:
        response = asyncio.run(_completed(body))
        return {
            "blocks": [block for item in response.output for block in output_blocks(item)],
            "stop_reason": response.status,
            "usage": response.usage.to_dict() if response.usage is not None else None,
        }


adapter = OpenAIAgentsAdapter()
