"""Contract: a signature and a redacted block's data go through decoding and serializing byte for byte, edges included.

Incident: `anthropic-opaque-lost`: decoders and serializers that tidy what
they cannot read (a strip, a normalization) send the provider other bytes
than it signed, and every later request of the session is refused;
`anthropic-redacted-thinking` for the block whose only content is its data.

Rule: an opaque value is any string a JSON string carries, and nothing in it
is the client's to change: whitespace, control characters, line and paragraph
separators, a byte-order mark or non-breaking space at either end or inside,
or nothing at all. For any turn whose thinking signatures and redacted
``data`` are drawn that way, beside text and tool calls in any order, and any
cut Anthropic makes of the rest of its values:

- ``parse_stream`` keeps the block types in index order, and gives each
  signature and each redacted ``data`` back byte-identical (neither trimmed
  nor padded, none added where none was streamed: an unsigned block stays
  ``""``);
- ``serialize_message`` of that turn writes each ``thinking`` block's
  ``signature`` and each ``redacted_thinking`` block's ``data``
  byte-identical, in the same order, and no opaque block the turn does not
  hold.

Each part is its own assertion.

Level: wire (the Messages format carries these values as opaque strings;
Anthropic checks them against what it sent).

Production fingerprint: HTTP 400 "messages.N.content.M: Invalid `signature`
in `thinking` block", or "`thinking` or `redacted_thinking` blocks in the
latest assistant message cannot be modified", only for sessions whose
provider (or a relay in front of it) sent a value with whitespace at its edge.
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json, shown
from harness.contracts.block_checks import assert_signatures
from harness.rules import blocks
from harness.testing import anthropic_stream_plans as plans
from harness.testing.anthropic_streams import calls, opaque, text_blocks, usages
from harness.under_test.invoke import valid
from harness.wire.anthropic_events import Plan, turn_body

pytestmark = [pytest.mark.wire, pytest.mark.formats("anthropic")]

# Characters a tidy-minded client strips or normalizes: every one is legal in a JSON string.
_EDGES = (" ", "\t", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x00", "\u00a0", "\u2028", "\u2029", "\ufeff", "\u3000")
_edge = st.lists(st.sampled_from(_EDGES), max_size=3).map("".join)
edged = st.builds(lambda lead, core, trail: lead + core + trail, _edge, opaque.filter(bool), _edge)  # never blank: Anthropic signs every block

_reasoning = st.builds(lambda t, s: {"type": "reasoning", "text": t, "signature": s}, st.text(max_size=8), edged)
_redacted = st.builds(lambda d: {"type": "redacted_reasoning", "data": d}, edged)


@st.composite
def edged_turns(draw) -> dict:
    """A turn whose opaque values carry edge characters, beside text and calls, every block in any order."""
    # Each block's opaque value its own: Anthropic never signs two blocks alike.
    opaque_blocks = draw(st.lists(st.one_of(_reasoning, _redacted), min_size=1, max_size=4,
                                  unique_by=lambda b: b.get("signature", b.get("data"))))
    called = draw(calls(draw(st.integers(0, 2))))
    # Text beside them has words: an empty text block is another contract's matter, not this one's.
    others = draw(st.lists(text_blocks.filter(lambda b: b["text"].strip()), max_size=2)) + called
    return {"blocks": draw(st.permutations(opaque_blocks + others)), "stop_reason": "tool_use" if called else "end_turn",
            "usage": draw(usages)}


@st.composite
def streamed(draw) -> tuple[dict, object]:
    turn = draw(edged_turns())
    return turn, draw(plans(turn))


PINNED = {"blocks": [
    {"type": "reasoning", "text": "Two lookups.", "signature": "\tEqQBCkgIAxAB/w==\n"},
    {"type": "redacted_reasoning", "data": " EmwKAhgBEgy3va3p\r\n"},
    {"type": "tool_call", "id": "toolu_01", "name": "get_weather", "arguments": '{"city": "Paris"}'},
    {"type": "redacted_reasoning", "data": "\ufeffDw==\u00a0"},
], "stop_reason": "tool_use", "usage": {"input_tokens": 96, "output_tokens": 40}}
# Usage as Anthropic streams it: message_start with the input and a first output count, message_delta the final one.
PINNED_PLAN = Plan(start_usage={"input_tokens": 96, "output_tokens": 1})


def _wire_values(message: object, wire_type: str, key: str) -> list:
    content = message.get("content") if isinstance(message, dict) else None
    return [b.get(key) for b in content or () if isinstance(b, dict) and b.get("type") == wire_type]


@given(streamed())
@example((PINNED, PINNED_PLAN))
def test_the_decoder_keeps_opaque_values_byte_for_byte(stream, sample):
    turn, plan = sample
    body = turn_body(turn, plan)
    got = valid(stream).parse_stream(body)
    where = f"turn {shown(turn)}; stream: {shown(body)}"
    assert isinstance(got, dict), f"parse_stream returned {shown(got)}, but should return a turn; {where}"
    differs = blocks.block_types(got, turn)
    assert not differs, f"block types (position, got, expected) differ: {shown(differs)}; {where}"
    assert_signatures(got, turn, where)
    differs = blocks.opaque_values(got, turn, "redacted_reasoning")
    assert not differs, (
        f"redacted data (k-th redacted block, got, expected) is not what was streamed, byte for byte: "
        f"{shown(differs)}; {where}")


@given(turn=edged_turns())
@example(turn=PINNED)
def test_the_serializer_writes_opaque_values_byte_for_byte(messages, turn):
    neutral = {"role": "assistant", "blocks": copy.deepcopy(turn["blocks"])}
    wire = valid(messages).serialize_message(neutral)
    where = f"neutral: {clip_json(turn['blocks'], 1200)}; written: {clip_json(wire, 1200)}"
    want = [b["signature"] for b in turn["blocks"] if b["type"] == "reasoning"]
    got = _wire_values(wire, "thinking", "signature")
    assert got == want, f"thinking signatures written {shown(got)}, expected byte for byte {shown(want)}; {where}"
    want = [b["data"] for b in turn["blocks"] if b["type"] == "redacted_reasoning"]
    got = _wire_values(wire, "redacted_thinking", "data")
    assert got == want, f"redacted_thinking data written {shown(got)}, expected byte for byte {shown(want)}; {where}"
