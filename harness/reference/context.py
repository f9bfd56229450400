"""Persisted context events and the renderer that turns them back into wire messages.

What is persisted, not what sits in memory during a turn, is what the provider
sees on the next turn: the renderer below is that path.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.reference.messages import Message, ToolCall, to_wire


@dataclass(frozen=True)
class ToolResult:
    tool_call_id: str
    content: str


@dataclass
class ContextEvent:
    """One LLM round as it is written to disk."""

    input: str = ""
    response: str = ""
    reasoning: str | None = None
    reasoning_details: list[dict] = field(default_factory=list)  # the provider's opaque entries, kept as they came
    tool_calls: list[ToolCall] = field(default_factory=list)
    tool_results: list[ToolResult] = field(default_factory=list)
    tools_used: list[str] = field(default_factory=list)
    timestamp: float = 0.0

    def to_json(self) -> dict:
        data = {
            "input": self.input,
            "response": self.response,
            "reasoning": self.reasoning,
            "tool_calls": [c.to_neutral() for c in self.tool_calls],
            "tool_results": [
                {"tool_call_id": r.tool_call_id, "content": r.content} for r in self.tool_results
            ],
            "tools_used": list(self.tools_used),
            "timestamp": self.timestamp,
        }
        if self.reasoning_details:
            data["reasoning_details"] = list(self.reasoning_details)
        return data

    @classmethod
    def from_json(cls, data: dict) -> ContextEvent:
        # Events written before a field existed must still load.
        return cls(
            input=data.get("input") or "",
            response=data.get("response") or "",
            reasoning=data.get("reasoning"),
            reasoning_details=list(data.get("reasoning_details") or ()),
            tool_calls=[ToolCall.from_neutral(c) for c in data.get("tool_calls") or ()],
            tool_results=[
                ToolResult(r["tool_call_id"], r.get("content") or "")
                for r in data.get("tool_results") or ()
            ],
            tools_used=list(data.get("tools_used") or ()),
            timestamp=float(data.get("timestamp") or 0.0),
        )


def render_messages(events: list[ContextEvent], *, with_reasoning: bool = True) -> list[dict]:  # pragma: no mutate (equivalent: `True` -> `False`: every caller passes it)
    """Persisted events as the wire messages of the next request.

    ``with_reasoning`` is the provider's say: only providers that ask for
    reasoning back get it (strict endpoints reject the unknown field). Opaque
    values (``reasoning_details``, a call's ``extra_content``) came from the
    provider itself and always go back to it.
    """
    wire: list[dict] = []
    for event in events:
        if event.input:
            wire.append(to_wire(Message(role="user", content=event.input)))
        assistant = Message(
            role="assistant",
            content=event.response,
            reasoning=event.reasoning if with_reasoning else None,
            tool_calls=tuple(event.tool_calls),
            reasoning_details=tuple(event.reasoning_details),
        )
        wire.append(to_wire(assistant))
        for result in event.tool_results:
            wire.append(to_wire(Message(role="tool", content=result.content, tool_call_id=result.tool_call_id)))
    return wire
