"""The bundled reference adapter: a small, correct kernel and provider codec.

It is what the known bugs in ``mutants.toml`` are re-applied to, and readable
documentation of the right way to keep each wire rule.
"""

from __future__ import annotations

from typing import Any

from harness.reference import coldstore, exchanges, round_frame, round_history, rounds_store
from harness.reference.anthropic import history as anthropic_history
from harness.reference.anthropic import messages as anthropic_messages
from harness.reference.anthropic import request as anthropic_request
from harness.reference.anthropic import stream as anthropic_stream
from harness.reference.bedrock import history as bedrock_history
from harness.reference.bedrock import messages as bedrock_messages
from harness.reference.bedrock import request as bedrock_request
from harness.reference.bedrock import stream as bedrock_stream
from harness.reference.context import ContextEvent, render_messages
from harness.reference.distill import distill, vector_text
from harness.reference.frame import Frame
from harness.reference.gemini import history as gemini_history
from harness.reference.gemini import messages as gemini_messages
from harness.reference.gemini import request as gemini_request
from harness.reference.gemini import stream as gemini_stream
from harness.reference.messages import Message, to_wire
from harness.reference.provider import profile_for, transform_request
from harness.reference.responses import history as responses_history
from harness.reference.responses import messages as responses_messages
from harness.reference.responses import request as responses_request
from harness.reference.responses import stream as responses_stream
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


class _RoundsReference:
    """Kernel and memory over persisted rounds (``harness.reference.round_history``), in one format's wire.

    Anthropic Messages, OpenAI Responses, Gemini and Bedrock Converse persist the same neutral
    rounds; each subclass names its format's :class:`~harness.reference.round_history.HistoryWire`
    and its codec.
    """

    capabilities = frozenset({"codec", "kernel", "memory"})
    wire: round_history.HistoryWire

    def run_turn(self, user_input: str, model: Any, tools: list[Any]) -> dict:
        return {"events": round_frame.Frame(model, tools, self.wire).run_turn(user_input)}

    def render_history(self, events: list[dict], base_url: str | None = None) -> list:
        return round_history.render_history(events, self.wire)

    def store_blocks(self, events: list[dict]) -> dict:
        return rounds_store.store(events)

    def load_blocks(self, store: dict) -> list[dict]:
        return rounds_store.load(store)

    def distill(self, event: dict) -> str:
        return rounds_store.distill(event)

    def vector_text(self, event: dict) -> str:
        return rounds_store.vector_text(event)

    def trim_history(self, messages: list, budget: int) -> list:
        return exchanges.trim_history(messages, budget, self.wire.starts_exchange)


class AnthropicReferenceAdapter(_RoundsReference):
    """The reference for Anthropic Messages: codec, kernel and memory (``harness.reference.anthropic``)."""

    name = "reference-anthropic"
    format = "anthropic"
    wire = anthropic_history.WIRE

    def parse_stream(self, body: bytes) -> dict:
        return anthropic_stream.parse_stream(body)

    def serialize_message(self, message: dict) -> dict:
        return anthropic_messages.serialize_message(message)

    def transform_request(self, body: dict, options: dict) -> dict:
        return anthropic_request.transform_request(body, options)


anthropic_adapter = AnthropicReferenceAdapter()


class ResponsesReferenceAdapter(_RoundsReference):
    """The reference for OpenAI Responses: codec, kernel and memory (``harness.reference.responses``)."""

    name = "reference-responses"
    format = "openai-responses"
    wire = responses_history.WIRE

    def parse_stream(self, body: bytes) -> dict:
        return responses_stream.parse_stream(body)

    def serialize_message(self, message: dict) -> list[dict]:
        return responses_messages.serialize_message(message)

    def transform_request(self, body: dict, options: dict) -> dict:
        return responses_request.transform_request(body, options)


responses_adapter = ResponsesReferenceAdapter()


class GeminiReferenceAdapter(_RoundsReference):
    """The reference for Google Gemini: codec, kernel and memory (``harness.reference.gemini``)."""

    name = "reference-gemini"
    format = "gemini"
    wire = gemini_history.WIRE

    def parse_stream(self, body: bytes) -> dict:
        return gemini_stream.parse_stream(body)

    def serialize_message(self, message: dict) -> dict:
        return gemini_messages.serialize_message(message)

    def transform_request(self, body: dict, options: dict) -> dict:
        return gemini_request.transform_request(body, options)


gemini_adapter = GeminiReferenceAdapter()


class BedrockReferenceAdapter(_RoundsReference):
    """The reference for AWS Bedrock Converse: codec, kernel and memory (``harness.reference.bedrock``)."""

    name = "reference-bedrock"
    format = "bedrock"
    wire = bedrock_history.WIRE

    def parse_stream(self, body: bytes) -> dict:
        return bedrock_stream.parse_stream(body)

    def serialize_message(self, message: dict) -> dict:
        return bedrock_messages.serialize_message(message)

    def transform_request(self, body: dict, options: dict) -> dict:
        return bedrock_request.transform_request(body, options)


bedrock_adapter = BedrockReferenceAdapter()
