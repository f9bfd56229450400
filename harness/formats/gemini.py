"""Google Gemini generateContent."""

from harness.formats.spec import FormatSpec
from harness.rules import gemini_history, gemini_request, gemini_stream
from harness.wire import gemini_events
from harness.wire.codecs import Codec, same
from harness.wire.framing import SSE

SPEC = FormatSpec(
    name="gemini",
    label="Google Gemini generateContent",
    endpoint="POST /v1beta/models/{model}:streamGenerateContent?alt=sse",
    codec=Codec("gemini", gemini_events.turn_body, same, gemini_events.Plan),
    framing=SSE,
    rules=gemini_history.RULES,
    reference="harness.reference:gemini_adapter",
    catalogues=("mutants-gemini.toml", "mutants-rounds.toml"),
    blank_turn={"blocks": [], "stop_reason": "STOP", "usage": None},
    tool_round_ends=("STOP",),  # one finish reason for every finished turn, calls or not
    usage={"promptTokenCount": 21, "candidatesTokenCount": 9, "totalTokenCount": 30},
    declared_tools=gemini_history.declared_tools,
    request_refusals=gemini_request.request_refusals,
    terminal="a candidate with its finishReason",
    stream_rules=gemini_stream.STREAM_RULES,
)
