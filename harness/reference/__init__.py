"""The bundled reference adapter: a small, correct kernel and provider codec.

It is what the known bugs in ``mutants.toml`` are re-applied to, and readable
documentation of the right way to keep each wire rule.
"""

from __future__ import annotations

from typing import Any

from harness.reference import coldstore
from harness.reference.context import ContextEvent, render_messages
from harness.reference.distill import distill, vector_text
from harness.reference.frame import Frame
from harness.reference.messages import Message, to_wire
from harness.reference.provider import profile_for, transform_request
from harness.reference.stream import parse_stream
from harness.reference.transport import HttpTransport
from harness.reference.trimming import trim_history


class ReferenceAdapter(HttpTransport):
    """Every capability; ``run_http_turn`` and ``close`` (its one HTTP client) are :class:`HttpTransport`'s."""

    name = "reference"
    capabilities = frozenset({"codec", "kernel", "memory", "transport"})

    def serialize_message(self, message: dict) -> dict:
        return to_wire(Message.from_neutral(message))

    def parse_stream(self, body: bytes) -> dict:
        return parse_stream(body)

    def transform_request(self, body: dict, options: dict) -> dict:
        return transform_request(body, options)

    def run_turn(self, user_input: str, model: Any, tools: list[Any]) -> dict:
        events = Frame(model, tools).run_turn(user_input)
        return {"events": [event.to_json() for event in events]}

    def render_history(self, events: list[dict], base_url: str | None = None) -> list[dict]:
        with_reasoning = profile_for(base_url).replays_reasoning
        return render_messages([ContextEvent.from_json(e) for e in events], with_reasoning=with_reasoning)

    def store_blocks(self, events: list[dict]) -> dict:
        return coldstore.store([ContextEvent.from_json(e) for e in events])

    def load_blocks(self, store: dict) -> list[dict]:
        return [event.to_json() for event in coldstore.load(store)]

    def distill(self, event: dict) -> str:
        return distill(ContextEvent.from_json(event))

    def vector_text(self, event: dict) -> str:
        return vector_text(ContextEvent.from_json(event))

    def trim_history(self, messages: list[dict], budget: int) -> list[dict]:
        return trim_history(messages, budget)


adapter = ReferenceAdapter()
