"""AWS Bedrock Converse (ConverseStream), over AWS's binary event-stream framing."""

from harness.formats.spec import FormatSpec
from harness.rules import bedrock_history, bedrock_request, bedrock_stream
from harness.wire import bedrock_events
from harness.wire.codecs import Codec, same
from harness.wire.framing import EVENT_STREAM

SPEC = FormatSpec(
    name="bedrock",
    label="AWS Bedrock Converse",
    endpoint="POST /model/{model}/converse-stream",
    codec=Codec("bedrock", bedrock_events.turn_body, same, bedrock_events.Plan),
    framing=EVENT_STREAM,
    rules=bedrock_history.RULES,
    reference="harness.reference:bedrock_adapter",
    catalogues=("mutants-bedrock.toml", "mutants-rounds.toml"),
    blank_turn={"blocks": [], "stop_reason": "end_turn", "usage": None},
    tool_round_ends=("tool_use",),
    usage={"inputTokens": 21, "outputTokens": 9, "totalTokens": 30},
    declared_tools=bedrock_history.declared_tools,
    request_refusals=bedrock_request.request_refusals,
    stream_rules=bedrock_stream.STREAM_RULES,
    terminal="the metadata event after messageStop",
)
