"""The format codecs of the neutral turn: chat round trips both ways, every format has a codec, a dropped block is seen."""

import pytest
from hypothesis import given

from harness.contracts.block_checks import assert_same_turn
from harness.reference import adapter as chat_reference
from harness.reference import anthropic_adapter
from harness.testing import anthropic_streams, chat_turns
from harness.wire import chat_turn
from harness.wire.chunks import completion_chunks
from harness.formats import spec_for
from harness.wire.codecs import Codec
from harness.wire.sse import sse

CHAT = spec_for("chat").codec


@given(chat_turns.streamed_turns())
def test_a_turn_written_and_parsed_decodes_to_itself(sample):
    turn, cut = sample
    assert chat_turn.carried(turn) == []
    assert CHAT.decode(chat_reference.parse_stream(CHAT.body(turn, cut))) == turn


@given(anthropic_streams.streamed_turns())
def test_the_anthropic_codec_is_its_writer_and_the_identity(sample):
    turn, plan = sample
    codec = spec_for("anthropic").codec
    assert codec.decode(anthropic_adapter.parse_stream(codec.body(turn, plan))) == turn


# Chat bodies as a server writes them, each decoded, written again by the codec and parsed: the same response.
BODIES = {
    "text": completion_chunks([{"content": "It is"}, {"content": " noon."}], "stop"),
    "reasoning-then-text": completion_chunks(
        [{"content": None, "reasoning_content": "The user"}, {"content": "Noon.", "reasoning_content": None}], "stop",
        usage={"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}),
    "parallel-calls": completion_chunks([
        {"tool_calls": [{"index": 0, "id": "call_a", "type": "function", "function": {"name": "f", "arguments": "{"}},
                        {"index": 1, "id": "call_b", "type": "function", "function": {"name": "g", "arguments": "{}"}}]},
        {"tool_calls": [{"index": 0, "function": {"arguments": "}"}}]}], "tool_calls"),
    "nothing": completion_chunks([], None),
}


@pytest.mark.parametrize("name", BODIES)
def test_a_parsed_response_decoded_and_written_again_parses_the_same(name):
    parsed = chat_reference.parse_stream(sse(BODIES[name]))
    assert chat_reference.parse_stream(CHAT.body(CHAT.decode(parsed))) == parsed


def test_what_chat_cannot_carry_is_refused():
    refused = [
        {"blocks": [{"type": "redacted_reasoning", "data": "x"}]},
        {"blocks": [{"type": "text", "text": "a"}, {"type": "reasoning", "text": "b", "signature": ""}]},
        {"blocks": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
        {"blocks": [{"type": "text", "text": ""}]},
        {"blocks": [{"type": "reasoning", "text": "b", "signature": "sig"}]},
        {"blocks": [{"type": "tool_call", "id": "c", "name": "f", "arguments": "{}"}] * 2},
    ]
    for turn in refused:
        assert chat_turn.carried(turn), turn
        with pytest.raises(ValueError, match="cannot carry"):
            CHAT.body({**turn, "stop_reason": None, "usage": None})


def test_a_cut_that_does_not_join_to_the_turn_is_refused():
    turn = {"blocks": [{"type": "text", "text": "abc"}], "stop_reason": "stop", "usage": None}
    with pytest.raises(ValueError, match="join"):
        CHAT.body(turn, chat_turn.Cut(deltas=((("text", 0, "ab"),),)))


def _drops_last_block(write):
    def dropped(turn, cut):
        return write({**turn, "blocks": turn["blocks"][:-1]}, chat_turn.WHOLE)
    return dropped


TURN = {"blocks": [{"type": "reasoning", "text": "Two lookups.", "signature": ""}, {"type": "text", "text": "On it."},
                   {"type": "tool_call", "id": "call_a", "name": "read", "arguments": '{"path": "a"}'}],
        "stop_reason": "tool_calls", "usage": None}


@pytest.mark.parametrize("position", range(len(TURN["blocks"])))
def test_a_codec_that_drops_a_block_fails_the_block_rules(position):
    """The contract judges through the codec, so a codec that loses a block must make the rules fail, not pass."""
    def drop(parsed):
        turn = chat_turn.decode(parsed)
        return {**turn, "blocks": [b for k, b in enumerate(turn["blocks"]) if k != position]}

    lossy = Codec("chat", chat_turn.turn_body, drop, chat_turn.Cut)
    body = CHAT.body(TURN)
    assert_same_turn(CHAT.decode(chat_reference.parse_stream(body)), TURN, "the whole codec")
    with pytest.raises(AssertionError):
        assert_same_turn(lossy.decode(chat_reference.parse_stream(body)), TURN, "a codec that drops a block")


def test_a_writer_that_drops_a_block_fails_the_round_trip():
    lossy = Codec("chat", _drops_last_block(chat_turn.turn_body), chat_turn.decode, chat_turn.Cut)
    with pytest.raises(AssertionError):
        assert_same_turn(lossy.decode(chat_reference.parse_stream(lossy.body(TURN))), TURN, "a writer that drops one")


def test_as_sent_reads_reserialized_arguments_and_kept_counts_as_sent_and_nothing_else():
    sent = {"blocks": [{"type": "tool_call", "id": "c", "name": "f", "arguments": '{"a": 1}'}], "stop_reason": "stop",
            "usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}}
    same = {"blocks": [{"type": "tool_call", "id": "c", "name": "f", "arguments": '{"a":1}'}], "stop_reason": "stop",
            "usage": {"prompt_tokens": 1, "completion_tokens": 2, "extra": 0}}
    assert chat_turns.as_sent(same, sent) == sent
    other = {"blocks": [{"type": "tool_call", "id": "c", "name": "f", "arguments": '{"a": true}'}],
             "stop_reason": "stop", "usage": {"prompt_tokens": 1, "completion_tokens": 3, "total_tokens": 4}}
    assert chat_turns.as_sent(other, sent) == other
