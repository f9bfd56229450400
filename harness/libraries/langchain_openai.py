"""The contracts' view of langchain-openai: ``ChatOpenAI`` streaming and its own message serializer.

``parse_stream`` serves the body to ``ChatOpenAI.stream()`` from an in-memory
httpx transport (``http_client=``) and sums the ``AIMessageChunk`` s with ``+``,
as LangChain users do. The neutral response is read off the sum: text
``content``, ``tool_call_chunks`` (arguments as the raw streamed text),
``response_metadata["finish_reason"]``, ``additional_kwargs["reasoning_content"]``
if anything put it there, and ``usage_metadata`` mapped back to the
chat-completions usage names (LangChain keeps no copy of the usage object the
server sent while streaming).

``serialize_message`` builds the LangChain message a LangChain user holds
(``AIMessage`` with parsed ``tool_calls`` and the reasoning in
``additional_kwargs["reasoning_content"]``, as ``ChatDeepSeek`` stores it;
``ToolMessage``; ``HumanMessage``; ``SystemMessage``) and runs it through
``langchain_openai.chat_models.base._convert_message_to_dict``.

LangChain has no provider transform for a raw request body: no
``transform_request``.
"""

from __future__ import annotations

from importlib.metadata import version

import httpx
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.messages.tool import invalid_tool_call
from langchain_core.output_parsers.openai_tools import parse_tool_call
from langchain_openai import ChatOpenAI
from langchain_openai.chat_models.base import _convert_message_to_dict

from harness.libraries import BASE_URL, MODEL


def _model(body: bytes) -> ChatOpenAI:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    return ChatOpenAI(
        model=MODEL,
        api_key="test",
        base_url=BASE_URL,
        max_retries=0,
        http_client=httpx.Client(transport=httpx.MockTransport(handler)),
    )


# The wire's usage names LangChain's ``usage_metadata`` was read from: input, output, total, and the two
# details objects (cached input tokens, reasoning output tokens).
CHAT_USAGE = ("prompt_tokens", "completion_tokens", "total_tokens", "prompt_tokens_details",
              "completion_tokens_details")


def wire_usage(usage_metadata: dict | None, names: tuple[str, ...] = CHAT_USAGE) -> dict | None:
    """LangChain's ``usage_metadata`` back under the wire's ``names`` it was read from."""
    if not usage_metadata:
        return None
    input_name, output_name, total_name, input_details, output_details = names
    usage = {input_name: usage_metadata.get("input_tokens"), output_name: usage_metadata.get("output_tokens"),
             total_name: usage_metadata.get("total_tokens")}
    cached = (usage_metadata.get("input_token_details") or {}).get("cache_read")
    if cached is not None:
        usage[input_details] = {"cached_tokens": cached}
    reasoning = (usage_metadata.get("output_token_details") or {}).get("reasoning")
    if reasoning is not None:
        usage[output_details] = {"reasoning_tokens": reasoning}
    return usage


def _ai_message(message: dict) -> AIMessage:
    tool_calls, invalid = [], []
    for call in message.get("tool_calls") or []:
        raw = {"id": call["id"], "type": "function", "function": {"name": call["name"], "arguments": call["arguments"]}}
        try:
            tool_calls.append(parse_tool_call(raw, return_id=True))
        except Exception as exc:  # LangChain's own rule: unparsable arguments make an invalid tool call
            invalid.append(invalid_tool_call(name=call["name"], args=call["arguments"], id=call["id"], error=str(exc)))
    additional_kwargs = {}
    if message.get("reasoning"):
        additional_kwargs["reasoning_content"] = message["reasoning"]
    return AIMessage(
        content=message.get("content") or "",
        tool_calls=tool_calls,
        invalid_tool_calls=invalid,
        additional_kwargs=additional_kwargs,
    )


def langchain_message(message: dict):
    """The neutral message as the LangChain message a LangChain user holds."""
    role = message["role"]
    if role == "assistant":
        return _ai_message(message)
    if role == "tool":
        return ToolMessage(content=message.get("content") or "", tool_call_id=message["tool_call_id"])
    if role == "system":
        return SystemMessage(content=message.get("content") or "")
    return HumanMessage(content=message.get("content") or "")


class LangChainOpenAIAdapter:
    name = f"langchain-openai {version('langchain-openai')}"

    def parse_stream(self, body: bytes) -> dict:
        total = None
        for chunk in _model(body).stream("hi"):
            total = chunk if total is None else total + chunk
        if total is None:
            return {"content": "", "reasoning": "", "tool_calls": [], "finish_reason": None, "usage": None}
        content = total.content if isinstance(total.content, str) else total.text
        return {
            "content": content or "",
            "reasoning": total.additional_kwargs.get("reasoning_content") or "",
            "tool_calls": [
                {"id": c.get("id"), "name": c.get("name"), "arguments": c.get("args")}
                for c in total.tool_call_chunks
            ],
            "finish_reason": total.response_metadata.get("finish_reason"),
            "usage": wire_usage(total.usage_metadata),
        }

    def serialize_message(self, message: dict) -> dict:
        return _convert_message_to_dict(langchain_message(message))


adapter = LangChainOpenAIAdapter()
