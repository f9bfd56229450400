"""The contracts' view of langchain-aws: ``ChatBedrockConverse`` streaming over botocore.

``parse_stream`` serves the body to ``ChatBedrockConverse.stream()`` with a
``bedrock-runtime`` client answered in memory
(:mod:`harness.libraries.bedrock_runtime`, so botocore reads the framing) and
sums the ``AIMessageChunk`` s with ``+``, as LangChain users do. The model has
a tool bound, as an agent's has. The neutral turn is read off the sum: its
``content`` blocks in order (each carries the stream's ``index``), a
reasoning block's ``reasoning_content`` text and signature or its
``redacted_content`` bytes (written back as base64), a ``tool_use`` block's
``input`` as the raw streamed text (``""`` when none streamed);
``response_metadata["stopReason"]``, and ``usage_metadata`` mapped back to
Bedrock's usage names (LangChain keeps no copy of the usage the server sent:
it counts cache reads and writes into ``input_tokens`` and holds both counts
even when the server sent neither, so a cache count is written back only when
it is not zero).

``serialize_message`` sends the message as a LangChain user holds it through
``ChatBedrockConverse.invoke`` and returns it from the request botocore writes
(the captured HTTP body: ``redactedContent`` bytes as botocore encodes them).
An assistant message is the sum LangChain accumulated when that turn streamed
(served as ConverseStream streams it, with a usage), which is what a LangChain
agent sends back; a user message is its tool results as ``ToolMessage`` s
followed by its text as a ``HumanMessage`` (none when the text is empty).

No ``transform_request``: LangChain has no transform of a raw Converse body.
"""

from __future__ import annotations

import base64
from importlib.metadata import version

from langchain_aws import ChatBedrockConverse
from langchain_core.messages import HumanMessage, ToolMessage

from harness.libraries import bedrock_runtime
from harness.wire.bedrock_events import turn_body

TOOL = {"name": "get_weather", "description": "The weather in a city.",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}
QUESTION = HumanMessage("Go.")
USAGE = {"inputTokens": 21, "outputTokens": 9, "totalTokens": 30}  # what a replayed turn's metadata event says


def _model(body: bytes = b"", sent: list[dict] | None = None) -> ChatBedrockConverse:
    return ChatBedrockConverse(model=bedrock_runtime.MODEL, client=bedrock_runtime.client(body, sent),
                               region_name=bedrock_runtime.REGION)


def _streamed(body: bytes):
    model = _model(body)
    total = None
    for chunk in model.bind_tools([TOOL]).stream("Go."):
        total = chunk if total is None else total + chunk
    return total


def _block(block: dict) -> dict:
    kind = block.get("type")
    if kind == "text":
        return {"type": "text", "text": block.get("text", "")}
    if kind == "tool_use":
        return {"type": "tool_call", "id": block.get("id") or "", "name": block.get("name") or "",
                "arguments": block.get("input") or ""}
    if kind == "reasoning_content":
        reasoning = block.get("reasoning_content") or {}
        if "redacted_content" in reasoning:
            return {"type": "redacted_reasoning", "data": base64.b64encode(reasoning["redacted_content"]).decode()}
        return {"type": "reasoning", "text": reasoning.get("text", ""), "signature": reasoning.get("signature", "")}
    raise ValueError(f"LangChain summed a content block the neutral turn has no block for: {block!r}")


def _usage(usage: dict | None) -> dict | None:
    if usage is None:
        return None
    details = usage.get("input_token_details") or {}
    cached = {"cacheReadInputTokens": details.get("cache_read") or 0,
              "cacheWriteInputTokens": details.get("cache_creation") or 0}
    plain = {"inputTokens": usage["input_tokens"] - sum(cached.values()), "outputTokens": usage["output_tokens"],
             "totalTokens": usage["total_tokens"]}
    return plain | {name: count for name, count in cached.items() if count}


class LangChainAwsAdapter:
    name = f"langchain-aws {version('langchain-aws')}"
    format = "bedrock"

    def parse_stream(self, body: bytes) -> dict:
        total = _streamed(body)
        if total is None:
            return {"blocks": [], "stop_reason": None, "usage": None}
        content = total.content if isinstance(total.content, list) else [{"type": "text", "text": total.content}]
        return {"blocks": [_block(b) for b in content if isinstance(b, dict)],
                "stop_reason": total.response_metadata.get("stopReason"),
                "usage": _usage(total.usage_metadata)}

    def serialize_message(self, message: dict) -> dict:
        if message["role"] == "assistant":
            blocks = message.get("blocks") or []
            stop = "tool_use" if any(b.get("type") == "tool_call" for b in blocks) else "end_turn"
            return _sent([QUESTION, _streamed(turn_body({"blocks": blocks, "stop_reason": stop, "usage": USAGE}))])[1]
        held = [ToolMessage(r["content"], tool_call_id=r["tool_call_id"]) for r in message.get("tool_results") or []]
        if message.get("content"):
            held.append(HumanMessage(message["content"]))
        return _sent(held)[0]


def _sent(messages: list) -> list[dict]:
    """The ``messages`` of the Converse request LangChain sends for ``messages``, as botocore wrote them.

    The model has the tools bound that the history calls, as an agent's has (without a tool bound
    LangChain writes tool blocks as text, so that Bedrock does not refuse them for want of a toolConfig).
    """
    names = {call["name"] for m in messages for call in getattr(m, "tool_calls", None) or []}
    tools = [TOOL] + [{**TOOL, "name": name} for name in sorted(names - {TOOL["name"]})]
    sent: list[dict] = []
    _model(sent=sent).bind_tools(tools).invoke(messages)
    return sent[0]["messages"]


adapter = LangChainAwsAdapter()
