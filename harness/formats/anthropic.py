"""Anthropic Messages."""

from harness.formats.spec import FormatSpec
from harness.rules import anthropic_history, anthropic_request, anthropic_stream
from harness.wire import anthropic_events
from harness.wire.codecs import Codec, same
from harness.wire.framing import SSE

SPEC = FormatSpec(
    name="anthropic",
    label="Anthropic Messages",
    endpoint="POST /v1/messages",
    codec=Codec("anthropic", anthropic_events.turn_body, same, anthropic_events.Plan),
    framing=SSE,
    rules=anthropic_history.RULES,
    reference="harness.reference:anthropic_adapter",
    catalogues=("mutants-anthropic.toml", "mutants-rounds.toml"),
    blank_turn={"blocks": [], "stop_reason": "end_turn", "usage": None},
    tool_round_ends=("tool_use", "end_turn", None),  # relays end tool rounds with "end_turn" or none (nullable)
    usage={"input_tokens": 21, "output_tokens": 9},
    declared_tools=anthropic_history.declared_tools,
    request_refusals=anthropic_request.request_refusals,
    terminal="the message_stop event",
    stream_rules=anthropic_stream.STREAM_RULES,
)
