"""Contract: in every format, a stream decodes to the turn it streamed, however the format lets it be cut.

Incident: `sse-index-accumulation` (chat: every fragment of 12 parallel calls
landed on the first), `deepseek-reasoning-400` (chat: reasoning pieces kept
only in part), `anthropic-signature-delta`, `anthropic-redacted-thinking` and
`anthropic-zero-argument-tool` (Messages: signature pieces overwritten,
redacted blocks dropped, calls that streamed only ``""`` lost),
`responses-parallel-index-zero`, `responses-delta-before-added`,
`responses-encrypted-content-dropped` (Responses: parallel calls joined into
one, an accumulator that raised on a delta before its item, reasoning
without its ``encrypted_content``), `gemini-parallel-index-zero`,
`gemini-stream-drops-calls`, `gemini-signature-aggregation` (Gemini: parallel
calls run together, calls dropped, a thought's signature lost). The same
rule broken in each format's own spelling.

Rule: stated once over the neutral turn (``harness.rules.blocks``), for every
format whose strategies row (``harness.testing.formats``) streams turns,
through its codec (``harness.wire.codecs``): for any turn the format
carries and any way the format allows it to be cut, ``parse_stream`` of the
body, read back as a turn by the format's codec, is that turn: the block
types in order; each text; each reasoning text; each signature and each
redacted ``data`` byte-identical; calls by id (none missing, none extra,
none twice), each with its name and its arguments; the stop reason; the
usage, as the format counts two turns the same (its row's
``comparable``). Each part is its own assertion. Chat
(``harness.testing.chat_turns``): reasoning, text and 0 to 8 calls, every
value cut at any character into ``reasoning_content``, ``content`` and
fragment pieces, interleaved in any order (calls opened in any order; text
beside fragments; several fragments in one delta), ``null`` for a text key a
delta does not carry, any envelope and SSE framing, with or without
``[DONE]``; what the chat format counts the same is the same (arguments as
JSON values, a usage holding its standard counts). Messages
(``harness.testing.anthropic_streams``): every block type in any order, 0 to
12 calls, values cut into deltas anywhere, pings, the data-only form, any
framing. OpenAI Responses
(``harness.testing.responses_streams``): items interleaved, deltas before
their item is added. Gemini (``harness.testing.gemini_streams``): parts cut
into chunks any way, each call named by its place. What only Responses and
Gemini carry (item ids and summaries; a signature on any part) their own
modules hold, ``test_responses_stream_items`` and ``test_gemini_stream_parts``.

Level: per test. Wire (in chat the ``index`` of a fragment and the
concatenation of deltas, in Messages the ``index`` of a block and its
deltas, in Responses an item's ``item_id``, in Gemini the parts appended
chunk by chunk: what each format requires of a client), except
``test_a_chat_stream_with_reasoning_decodes_to_its_turn``: provider
(``reasoning_content`` is DeepSeek's extension, streamed by its thinking
mode and by gateways serving reasoning models; a correct client of the
format may drop it). In chat, a stream without a usage chunk says nothing
of usage.

Production fingerprint: tools run with empty or run-together arguments; a
reply with words missing; reasoning that comes back short and a 400 on the
next request; ``Invalid `signature` in `thinking` block``;
``invalid_encrypted_content``; a turn whose calls never ran and that ended
as if the model had stopped.
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.contracts.block_checks import assert_same_turn
from harness.contracts.stream_decode import decoded
from harness.testing import chat_turns
from harness.testing.formats import PINNED, having, wire_format  # noqa: F401 (the fixture)
from harness.wire.chat_turn import Cut

# DeepSeek's thinking round: reasoning pieces with content null, then content pieces with reasoning null.
DEEPSEEK = {"blocks": [{"type": "reasoning", "text": "The user wants\n the date.", "signature": ""},
                       {"type": "text", "text": "It is\n\nnoon."}],
            "stop_reason": "stop", "usage": {"prompt_tokens": 12, "completion_tokens": 9, "total_tokens": 21}}
DEEPSEEK_CUT = Cut(deltas=(
    (("reasoning", 0, ""), ("text", 0, None)), (("reasoning", 0, "The user"), ("text", 0, None)),
    (("reasoning", 0, " wants\n"),), (("reasoning", 0, " the date."),),
    (("text", 0, "It"), ("reasoning", 0, None)), (("text", 0, " is\n\n"),), (("text", 0, "noon."),)))


@pytest.mark.wire
@pytest.mark.formats(*having("streamed_turns"))
@given(data=st.data())
@example(data=PINNED)
def test_a_stream_decodes_to_its_turn(stream, wire_format, data):
    for turn, cut in wire_format.cases(data, "streamed_turns"):
        got, where = decoded(stream, wire_format.name, turn, cut)
        assert_same_turn(*wire_format.strategies.comparable(got, turn), where)


@pytest.mark.provider
@pytest.mark.formats("chat")
@given(chat_turns.streamed_turns(reasoning=True))
@example((DEEPSEEK, DEEPSEEK_CUT))
def test_a_chat_stream_with_reasoning_decodes_to_its_turn(stream, sample):
    turn, cut = sample
    got, where = decoded(stream, "chat", turn, cut)
    assert_same_turn(chat_turns.as_sent(got, turn), turn, where)
