"""Contract: in every format, a stream decodes to the turn it streamed, however the format lets it be cut.

Incident: `sse-index-accumulation` (chat: every fragment of 12 parallel calls
landed on the first), `deepseek-reasoning-400` (chat: reasoning pieces kept
only in part), `anthropic-signature-delta`, `anthropic-redacted-thinking` and
`anthropic-zero-argument-tool` (Messages: signature pieces overwritten,
redacted blocks dropped, calls that streamed only ``""`` lost). The same rule
broken in each format's own spelling.

Rule: stated once over the neutral turn (``harness.rules.blocks``), for every
format through its codec (``harness.wire.codecs``): for any turn the format
carries and any way the format allows it to be cut, ``parse_stream`` of the
body, read back as a turn by the format's codec, is that turn: the block
types in order; each text; each reasoning text; each signature and each
redacted ``data`` byte-identical; calls by id (none missing, none extra,
none twice), each with its name and its arguments; the stop reason; the
usage. Each part is its own assertion. Chat
(``harness.testing.chat_turns``): reasoning, text and 0 to 8 calls, every
value cut at any character into ``reasoning_content``, ``content`` and
fragment pieces, interleaved in any order (calls opened in any order; text
beside fragments; several fragments in one delta), ``null`` for a text key a
delta does not carry, any envelope and SSE framing, with or without
``[DONE]``; what the chat format counts the same is the same (arguments as
JSON values, a usage holding its standard counts). Messages
(``harness.testing.anthropic_streams``): every block type in any order, 0 to
12 calls, values cut into deltas anywhere, pings, the data-only form, any
framing.
OpenAI Responses and Gemini state the same rule through the same codec path
(``harness.contracts.stream_decode``) in their own modules,
``test_responses_stream_items`` and ``test_gemini_stream_parts``, beside what
only they carry (item ids and summaries; a signature on any part).

Level: per test. Wire (in chat the ``index`` of a fragment and the
concatenation of deltas, in Messages the ``index`` of a block and its
deltas: what each format requires of a client), except
``test_a_chat_stream_with_reasoning_decodes_to_its_turn``: provider
(``reasoning_content`` is DeepSeek's extension, streamed by its thinking
mode and by gateways serving reasoning models; a correct client of the
format may drop it). In chat, a stream without a usage chunk says nothing
of usage.

Production fingerprint: tools run with empty or run-together arguments; a
reply with words missing; reasoning that comes back short and a 400 on the
next request; ``Invalid `signature` in `thinking` block``.
"""

import pytest
from hypothesis import example, given

from harness.contracts.anthropic_incident import PLAN, TURN
from harness.contracts.block_checks import assert_same_turn
from harness.contracts.stream_decode import decoded
from harness.testing import anthropic_streams, chat_turns
from harness.wire.chat_turn import CALL, Cut


def _decodes(stream, format: str, turn: dict, cut, as_sent=lambda got, sent: got) -> None:
    got, where = decoded(stream, format, turn, cut)
    assert_same_turn(as_sent(got, turn), turn, where)


def _incident_calls(count: int) -> dict:
    return {"blocks": [{"type": "tool_call", "id": f"call_{k:02d}", "name": f"tool_{k}",
                        "arguments": f'{{"city": "City {k}", "days": {k}}}'} for k in range(count)],
            "stop_reason": "tool_calls", "usage": None}


def _thirds(turn: dict) -> Cut:
    """Each call opened with ``""``, then its arguments in three pieces, one fragment per chunk (the incident's shape)."""
    deltas = []
    for k, call in enumerate(turn["blocks"]):
        args, third = call["arguments"], len(call["arguments"]) // 3
        deltas += [((CALL, k, piece),) for piece in ("", args[:third], args[third: 2 * third], args[2 * third:])]
    return Cut(deltas=tuple(deltas))


INCIDENT = _incident_calls(12)
# DeepSeek's thinking round: reasoning pieces with content null, then content pieces with reasoning null.
DEEPSEEK = {"blocks": [{"type": "reasoning", "text": "The user wants\n the date.", "signature": ""},
                       {"type": "text", "text": "It is\n\nnoon."}],
            "stop_reason": "stop", "usage": {"prompt_tokens": 12, "completion_tokens": 9, "total_tokens": 21}}
DEEPSEEK_CUT = Cut(deltas=(
    (("reasoning", 0, ""), ("text", 0, None)), (("reasoning", 0, "The user"), ("text", 0, None)),
    (("reasoning", 0, " wants\n"),), (("reasoning", 0, " the date."),),
    (("text", 0, "It"), ("reasoning", 0, None)), (("text", 0, " is\n\n"),), (("text", 0, "noon."),)))
# Text in the same delta as a call's opening fragment, two calls' fragments in one delta, call 1 opened first.
BESIDE = {"blocks": [{"type": "text", "text": "Reading both."},
                     {"type": "tool_call", "id": "call_a", "name": "read", "arguments": '{"path": "a"}'},
                     {"type": "tool_call", "id": "call_b", "name": "read", "arguments": '{"path": "b"}'}],
          "stop_reason": "tool_calls", "usage": None}
BESIDE_CUT = Cut(deltas=((("text", 0, "Reading "), (CALL, 1, '{"path": "b"}'), (CALL, 0, '{"path":')),
                         (("text", 0, "both."), (CALL, 0, ' "a"}'))))


@pytest.mark.wire
@pytest.mark.formats("chat")
@given(chat_turns.streamed_turns())
@example((INCIDENT, _thirds(INCIDENT)))
@example((BESIDE, BESIDE_CUT))
def test_a_chat_stream_decodes_to_its_turn(stream, sample):
    turn, cut = sample
    _decodes(stream, "chat", turn, cut, chat_turns.as_sent)


@pytest.mark.provider
@pytest.mark.formats("chat")
@given(chat_turns.streamed_turns(reasoning=True))
@example((DEEPSEEK, DEEPSEEK_CUT))
def test_a_chat_stream_with_reasoning_decodes_to_its_turn(stream, sample):
    turn, cut = sample
    _decodes(stream, "chat", turn, cut, chat_turns.as_sent)


@pytest.mark.wire
@pytest.mark.formats("anthropic")
@given(anthropic_streams.streamed_turns())
@example((TURN, PLAN))
def test_a_messages_stream_decodes_to_its_turn(stream, sample):
    turn, plan = sample
    _decodes(stream, "anthropic", turn, plan)
