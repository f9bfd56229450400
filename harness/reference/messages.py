"""The reference message model and its OpenAI-compatible wire serializer.

Wire rules kept here (each one took a production agent down when broken):
``reasoning_content`` is a top-level field of an assistant message, beside
``content``, never folded into it; it is absent when there is no reasoning; an
assistant message that carries ``tool_calls`` and no text sends ``content:
null`` (some gateways reject ``""``). A provider's opaque reasoning values go
back exactly as they came, where they came: ``reasoning_details`` (OpenRouter)
on the assistant message, entries in order; ``extra_content`` (Google's thought
signature) on the very tool call that brought it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str  # the JSON text exactly as the model produced it
    extra_content: dict | None = None  # the provider's opaque value on this call, as it came

    @classmethod
    def from_neutral(cls, data: dict) -> ToolCall:
        return replace(cls._called(data), extra_content=data.get("extra_content"))

    @classmethod
    def _called(cls, data: dict) -> ToolCall:
        return cls(id=data["id"], name=data["name"], arguments=data.get("arguments") or "")

    def to_neutral(self) -> dict:
        neutral = {"id": self.id, "name": self.name, "arguments": self.arguments}
        if self.extra_content is not None:
            neutral["extra_content"] = self.extra_content
        return neutral


@dataclass(frozen=True)
class Message:
    role: str
    content: str | None = None
    reasoning: str | None = None
    tool_calls: tuple[ToolCall, ...] = field(default_factory=tuple)
    tool_call_id: str | None = None
    reasoning_details: tuple[dict, ...] = ()  # the provider's reasoning entries, in order, as they came

    @classmethod
    def from_neutral(cls, data: dict) -> Message:
        return cls(
            role=data["role"],
            content=data.get("content"),
            reasoning=data.get("reasoning"),
            tool_calls=tuple(ToolCall.from_neutral(c) for c in data.get("tool_calls") or ()),
            tool_call_id=data.get("tool_call_id"),
            reasoning_details=tuple(data.get("reasoning_details") or ()),
        )


def call_to_wire(call: ToolCall) -> dict:
    return {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": call.arguments},
    }


def _call_with_extra(call: ToolCall) -> dict:
    wire = call_to_wire(call)
    if call.extra_content is not None:
        wire["extra_content"] = call.extra_content
    return wire


def to_wire(msg: Message) -> dict:
    """One chat message as the provider expects it on the wire."""
    wire: dict = {"role": msg.role, "content": msg.content}
    if msg.role == "assistant":
        if msg.tool_calls and not msg.content:
            wire["content"] = None
        if msg.reasoning:
            wire["reasoning_content"] = msg.reasoning
        if msg.reasoning_details:
            wire["reasoning_details"] = list(msg.reasoning_details)
        if msg.tool_calls:
            wire["tool_calls"] = [_call_with_extra(c) for c in msg.tool_calls]
    if msg.role == "tool":
        wire["tool_call_id"] = msg.tool_call_id
    return wire
