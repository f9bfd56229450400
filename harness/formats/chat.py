"""OpenAI chat completions: the default format."""

from harness.formats.spec import FormatSpec
from harness.rules import chat_request, chat_stream
from harness.wire import chat_turn
from harness.wire.codecs import Codec
from harness.wire.framing import SSE

SPEC = FormatSpec(
    name="chat",
    label="OpenAI chat completions",
    endpoint="POST /chat/completions",
    codec=Codec("chat", chat_turn.turn_body, chat_turn.decode, chat_turn.Cut),
    framing=SSE,
    rules=("body-not-json", "messages-missing", "unanswered-tool-calls", "orphan-tool-message"),
    reference="harness.reference:adapter",
    catalogues=("mutants.toml",),
    blank_turn={"content": "", "reasoning": "", "tool_calls": [], "finish_reason": "stop", "usage": None},
    tool_round_ends=("tool_calls", "stop", None),  # gateways end tool rounds with "stop" or no reason at all
    usage={"prompt_tokens": 21, "completion_tokens": 9, "total_tokens": 30},
    declared_tools=chat_request.declared_tools,
    request_refusals=chat_request.request_refusals,
    stream_rules=chat_stream.STREAM_RULES,
    usage_asked={"stream_options": {"include_usage": True}},
)
