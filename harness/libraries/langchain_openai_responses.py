"""The contracts' view of langchain-openai on the Responses API: ``ChatOpenAI(use_responses_api=True).stream()``.

``parse_stream`` serves the body to ``ChatOpenAI.stream()`` (its openai-python
client on an in-memory httpx transport, ``http_client=``) and sums the
``AIMessageChunk`` s with ``+``, as LangChain users do. LangChain's own code
turns each event into a chunk whose content blocks carry a running ``index``
(``_convert_responses_chunk_to_generation_chunk``), langchain-core merges the
blocks of one ``index``, and ``response.completed`` adds the response's
status and usage. ``output_version`` is pinned to ``"responses/v1"``, the
default, so that ``LC_OUTPUT_VERSION`` cannot change what is read.

The neutral turn is read off the sum's ``content``, one block per content
block in order: a ``text`` block (``item_id`` its ``id``); a ``reasoning``
block (``text`` its summary texts joined, ``summary`` those texts,
``signature`` its ``encrypted_content``, ``""`` for none, ``item_id`` its
``id``); a ``function_call`` block (``id`` its ``call_id``, ``arguments`` the
raw text LangChain joined, ``item_id`` its ``id``); a value the block lacks
reads as ``""``, and a block without an ``id`` has no ``item_id``. ``stop_reason`` is
``response_metadata["status"]``; ``usage`` is ``usage_metadata`` mapped back to
the Responses names (LangChain keeps no copy of the usage the server sent).
LangChain returns a ``response.incomplete`` turn with ``status``
``"incomplete"`` rather than raising; that status is the library telling its
user the turn did not complete, so it is raised here, as the neutral turn
has no other way to say so.

Only the ``stream`` capability: no ``serialize_message`` and no
``transform_request``.
"""

from __future__ import annotations

from importlib.metadata import version

import httpx
from langchain_openai import ChatOpenAI

from harness.libraries import BASE_URL, MODEL
from harness.libraries.langchain_openai import wire_usage


class IncompleteResponse(RuntimeError):
    """LangChain returned a turn whose ``status`` says the response did not complete."""


def _model(body: bytes) -> ChatOpenAI:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    return ChatOpenAI(
        model=MODEL,
        api_key="test",
        base_url=BASE_URL,
        max_retries=0,
        use_responses_api=True,
        output_version="responses/v1",
        http_client=httpx.Client(transport=httpx.MockTransport(handler)),
    )


# The Responses API's usage names (langchain_openai.wire_usage).
RESPONSES_USAGE = ("input_tokens", "output_tokens", "total_tokens", "input_tokens_details", "output_tokens_details")


def _block(block: dict) -> dict:
    """One LangChain content block as a neutral block; a value LangChain's block lacks is ``""``, an id left out."""
    kind = block.get("type")
    if kind == "text":
        neutral = {"type": "text", "text": block.get("text", "")}
    elif kind == "reasoning":
        summary = [part.get("text", "") for part in block.get("summary", [])]
        neutral = {"type": "reasoning", "text": "".join(summary), "signature": block.get("encrypted_content", ""),
                   "summary": summary}
    elif kind == "function_call":
        neutral = {"type": "tool_call", "id": block.get("call_id") or "", "name": block.get("name") or "",
                   "arguments": block.get("arguments") or ""}
    else:
        raise ValueError(f"LangChain accumulated a {kind!r} block, which a neutral turn has no type for")
    return neutral | ({"item_id": block["id"]} if block.get("id") else {})


class LangChainOpenAIResponsesAdapter:
    name = f"langchain-openai {version('langchain-openai')} (Responses)"
    format = "openai-responses"

    def parse_stream(self, body: bytes) -> dict:
        total = None
        for chunk in _model(body).stream("hi"):
            total = chunk if total is None else total + chunk
        if total is None:
            return {"blocks": [], "stop_reason": None, "usage": None}
        status = total.response_metadata.get("status")
        if status == "incomplete":
            raise IncompleteResponse(f"LangChain returned a turn with status 'incomplete': "
                                     f"{total.response_metadata.get('incomplete_details')}")
        return {"blocks": [_block(b) for b in total.content], "stop_reason": status,
                "usage": wire_usage(total.usage_metadata, RESPONSES_USAGE)}


adapter = LangChainOpenAIResponsesAdapter()
