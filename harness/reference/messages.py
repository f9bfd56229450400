"""The reference message model and its OpenAI-compatible wire serializer.

Wire rules kept here (each one took a production agent down when broken):
``reasoning_content`` is a top-level field of an assistant message, beside
``content``, never folded into it; it is absent when there is no reasoning; an
assistant message that carries ``tool_calls`` and no text sends ``content:
null`` (some gateways reject ``""``).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str  # the JSON text exactly as the model produced it

    @classmethod
    def from_neutral(cls, data: dict) -> ToolCall:
        return cls(id=data["id"], name=data["name"], arguments=data.get("arguments") or "")

    def to_neutral(self) -> dict:
        return {"id": self.id, "name": self.name, "arguments": self.arguments}


@dataclass(frozen=True)
class Message:
    role: str
    content: str | None = None
    reasoning: str | None = None
    tool_calls: tuple[ToolCall, ...] = field(default_factory=tuple)
    tool_call_id: str | None = None

    @classmethod
    def from_neutral(cls, data: dict) -> Message:
        return cls(
            role=data["role"],
            content=data.get("content"),
            reasoning=data.get("reasoning"),
            tool_calls=tuple(ToolCall.from_neutral(c) for c in data.get("tool_calls") or ()),
            tool_call_id=data.get("tool_call_id"),
        )


def call_to_wire(call: ToolCall) -> dict:
    return {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": call.arguments},
    }


def to_wire(msg: Message) -> dict:
    """One chat message as the provider expects it on the wire."""
    wire: dict = {"role": msg.role, "content": msg.content}
    if msg.role == "assistant":
        if msg.tool_calls and not msg.content:
            wire["content"] = None
        if msg.reasoning:
            wire["reasoning_content"] = msg.reasoning
        if msg.tool_calls:
            wire["tool_calls"] = [call_to_wire(c) for c in msg.tool_calls]
    if msg.role == "tool":
        wire["tool_call_id"] = msg.tool_call_id
    return wire
