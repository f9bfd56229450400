"""OpenAI Responses."""

from harness.formats.spec import FormatSpec
from harness.rules import responses_history, responses_request, responses_stream
from harness.wire import responses_events
from harness.wire.codecs import Codec, same
from harness.wire.framing import SSE

SPEC = FormatSpec(
    name="openai-responses",
    label="OpenAI Responses",
    endpoint="POST /v1/responses",
    codec=Codec("openai-responses", responses_events.turn_body, same, responses_events.Plan),
    framing=SSE,
    rules=responses_history.RULES,
    reference="harness.reference:responses_adapter",
    catalogues=("mutants-responses.toml", "mutants-rounds.toml"),
    blank_turn={"blocks": [], "stop_reason": "completed", "usage": None},
    tool_round_ends=("completed",),  # one status for every finished turn, calls or not
    usage={"input_tokens": 21, "output_tokens": 9, "total_tokens": 30},
    declared_tools=responses_history.declared_tools,
    request_refusals=responses_request.request_refusals,
    terminal="the response.completed event",
    stream_rules=responses_stream.STREAM_RULES,
)
