"""The bundled reference adapter: a small, correct kernel and provider codec.

It is what the known bugs in ``mutants.toml`` are re-applied to, and readable
documentation of the right way to keep each wire rule.
"""

from __future__ import annotations

from typing import Any

from harness.reference.context import ContextEvent, render_messages
from harness.reference.frame import Frame
from harness.reference.messages import Message, to_wire
from harness.reference.stream import parse_stream


class ReferenceAdapter:
    name = "reference"
    capabilities = frozenset({"codec", "kernel"})

    def serialize_message(self, message: dict) -> dict:
        return to_wire(Message.from_neutral(message))

    def parse_stream(self, body: bytes) -> dict:
        return parse_stream(body)

    def run_turn(self, user_input: str, model: Any, tools: list[Any]) -> dict:
        events = Frame(model, tools).run_turn(user_input)
        return {"events": [event.to_json() for event in events]}

    def render_history(self, events: list[dict]) -> list[dict]:
        return render_messages([ContextEvent.from_json(e) for e in events])


adapter = ReferenceAdapter()
