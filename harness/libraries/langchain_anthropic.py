"""The contracts' view of langchain-anthropic: ``ChatAnthropic`` streaming and its own message formatting.

``parse_stream`` serves the body to ``ChatAnthropic.stream()`` (the
anthropic-python client it builds, on an in-memory transport) and sums the
``AIMessageChunk`` s with ``+``, as LangChain users do. The model has a tool
bound, as an agent's has, so LangChain keeps the content as blocks (without
tools, thinking or documents it flattens the content to a string). The
neutral turn is read off the sum: its ``content`` blocks in order (each
carries the stream's ``index``), a call's arguments from the
``tool_call_chunks`` of the same ``index`` (the raw streamed text),
``response_metadata["stop_reason"]``, and ``usage_metadata`` mapped back to
Anthropic's usage names (LangChain keeps no copy of the usage the server sent;
it counts cache reads and writes into ``input_tokens``).

``serialize_message`` runs LangChain's own conversion,
``langchain_anthropic.chat_models._format_messages``. An assistant message is
the sum LangChain accumulated when that turn streamed (served as Anthropic
streams it), which is what a LangChain agent sends back; a user message is its
tool results as ``ToolMessage`` s followed by its text as a ``HumanMessage``
(none when the text is empty), which LangChain merges into one user message.

LangChain has no provider transform for a raw request body: no
``transform_request``.
"""

from __future__ import annotations

from importlib.metadata import version

import anthropic
import httpx2
from langchain_anthropic import ChatAnthropic
from langchain_anthropic.chat_models import _format_messages
from langchain_core.messages import HumanMessage, ToolMessage

from harness.libraries import ANTHROPIC_MODEL, ANTHROPIC_URL
from harness.libraries.anthropic_replay import replay_body

TOOL = {"name": "get_weather", "description": "The weather in a city.",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}


def _model(body: bytes):
    def handler(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    model = ChatAnthropic(model=ANTHROPIC_MODEL, api_key="test", base_url=ANTHROPIC_URL, max_retries=0)
    # ChatAnthropic takes no http_client: its client is a cached property, set here to one on the in-memory transport.
    model.__dict__["_client"] = anthropic.Anthropic(
        api_key="test", base_url=ANTHROPIC_URL, max_retries=0,
        http_client=httpx2.Client(transport=httpx2.MockTransport(handler)),
    )
    return model.bind_tools([TOOL])


def _streamed(body: bytes):
    total = None
    for chunk in _model(body).stream("Go."):
        total = chunk if total is None else total + chunk
    return total


def _usage(usage_metadata: dict | None) -> dict | None:
    """LangChain's ``usage_metadata`` back under Anthropic's names (cache counts taken out of ``input_tokens``)."""
    if not usage_metadata:
        return None
    details = usage_metadata.get("input_token_details") or {}
    cached = {"cache_read_input_tokens": details.get("cache_read"),
              "cache_creation_input_tokens": details.get("cache_creation")}
    usage = {"input_tokens": usage_metadata.get("input_tokens", 0) - sum(v or 0 for v in cached.values()),
             "output_tokens": usage_metadata.get("output_tokens")}
    return usage | {k: v for k, v in cached.items() if v is not None}


def _blocks(message) -> list[dict]:
    arguments = {c.get("index"): c.get("args") or "" for c in message.tool_call_chunks}
    blocks = []
    for block in message.content:
        if isinstance(block, str):  # LangChain's flattened text
            blocks.append({"type": "text", "text": block})
        elif block.get("type") == "text":
            blocks.append({"type": "text", "text": block.get("text", "")})
        elif block.get("type") == "thinking":
            blocks.append({"type": "reasoning", "text": block.get("thinking", ""),
                           "signature": block.get("signature", "")})
        elif block.get("type") == "redacted_thinking":
            blocks.append({"type": "redacted_reasoning", "data": block.get("data")})
        elif block.get("type") == "tool_use":
            blocks.append({"type": "tool_call", "id": block.get("id"), "name": block.get("name"),
                           "arguments": arguments.get(block.get("index"), "")})
        else:
            raise ValueError(f"LangChain accumulated a {block.get('type')!r} block, which a neutral turn has no type for")
    return blocks


class LangChainAnthropicAdapter:
    name = f"langchain-anthropic {version('langchain-anthropic')}"
    format = "anthropic"

    def parse_stream(self, body: bytes) -> dict:
        total = _streamed(body)
        if total is None:
            return {"blocks": [], "stop_reason": None, "usage": None}
        return {"blocks": _blocks(total), "stop_reason": total.response_metadata.get("stop_reason"),
                "usage": _usage(total.usage_metadata)}

    def serialize_message(self, message: dict) -> dict:
        if message["role"] == "assistant":
            _, wire = _format_messages([HumanMessage("Go."), _streamed(replay_body(message["blocks"]))],
                                       model=ANTHROPIC_MODEL)
            return wire[1]
        held = [ToolMessage(r["content"], tool_call_id=r["tool_call_id"]) for r in message.get("tool_results") or []]
        if message.get("content"):
            held.append(HumanMessage(message["content"]))
        _, wire = _format_messages(held, model=ANTHROPIC_MODEL)
        return wire[0]


adapter = LangChainAnthropicAdapter()
