"""The texts of one persisted event, each with its role, in the order they happened.

Cold storage, distillation and vector search all read an event through this one
list, so none of them can forget the reasoning on its own: the round's input,
then the model's reasoning, then its response, then each tool's output.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.reference.context import ContextEvent

ROLES = ("input", "reasoning", "response", "tool_output")


@dataclass(frozen=True)
class Part:
    role: str
    position: int  # the part's place among the event's parts of the same role
    content: str


def event_parts(event: ContextEvent) -> list[Part]:
    """The event's non-empty texts in chronological order; a role with no text has no part."""
    parts = [
        Part("input", 0, event.input),
        Part("reasoning", 0, event.reasoning or ""),
        Part("response", 0, event.response),
        *(Part("tool_output", k, result.content) for k, result in enumerate(event.tool_results)),
    ]
    return [part for part in parts if part.content]
