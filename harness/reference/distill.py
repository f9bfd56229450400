"""The texts memory derives from an event: the distillation source and the vector-search text.

Both include the reasoning. The key clue of a round often exists only there
("they want A, not B, so look up C first"); a summary or an index built from
the response alone misjudges what the round was about.
"""

from __future__ import annotations

from harness.reference.context import ContextEvent
from harness.reference.event_parts import event_parts

_LABELS = {"input": "Input", "reasoning": "Reasoning", "response": "Response", "tool_output": "Tool output"}
# Tool outputs stay out of the search text: they are long and say little about intent.
_VECTOR_ROLES = ("input", "reasoning", "response")


def distill(event: ContextEvent) -> str:
    """The text a distillation reads: every part of the event, labelled, in the order it happened."""
    return "\n\n".join(f"{_LABELS[part.role]}:\n{part.content}" for part in event_parts(event))  # pragma: no mutate (out of scope: `"\n\n"` -> *: separator text)


def vector_text(event: ContextEvent) -> str:
    """The text the event is indexed under for vector search."""
    return "\n".join(part.content for part in event_parts(event) if part.role in _VECTOR_ROLES)  # pragma: no mutate (out of scope: `"\n"` -> *: separator text)
