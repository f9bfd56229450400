"""Contract: a ConverseStream body decodes block by ``contentBlockIndex``: no block merged, split, or given another's signature.

Incident: `bedrock-blocks-by-arrival` (a decoder that opened a block per
event, or appended each delta to the block that arrived last: text merged
into a ``toolUse`` block's input, or hundreds of one-word text blocks);
`bedrock-signature-joined` (one signature kept for the whole turn, or not
cleared between blocks: the second reasoning block sent back as
``SIG1SIG2``); `bedrock-redacted-dropped` (``redactedContent`` discarded, or
its bytes re-encoded).

Rule: ``parse_stream`` of a body whose blocks are known only by their
``contentBlockIndex`` (a text block has no ``contentBlockStart``; deltas of
several blocks interleave; a value comes in many deltas) returns one block
per index, in index order: each text joined from its own deltas, each call's
input joined from its own pieces (``""`` when only empty pieces came), each
reasoning block with its own text and its own signature (pieces joined, none
carried over to the next block), each redacted block with the bytes sent,
byte for byte (as base64); the stop reason and the usage (a cache count of 0
counting as one not sent: :func:`harness.testing.bedrock_streams.comparable`).
Each a separate assertion.

Level: wire (ConverseStream identifies a block by its index alone).

Production fingerprint: "The format of the value at messages.1.content.0.toolUse.input is invalid";
a reply shown as hundreds of fragments; "`thinking` or `redacted_thinking`
blocks in the latest assistant message cannot be modified" on the request
after a tool round; the session "permanently stuck".
"""

import pytest

from harness.clip import shown
from harness.contracts.block_checks import assert_same_turn
from harness.testing.bedrock_streams import comparable
from harness.testing.bedrock_incident import PLAN, TURN
from harness.under_test.invoke import valid
from harness.wire.bedrock_events import Plan, turn_body

pytestmark = [pytest.mark.wire, pytest.mark.formats("bedrock")]

_WORDS = ("Sure, " + "the weather in Zürich is mild today and " * 8 + "that is all.").split(" ")
# Text in one delta per word, interleaved with a call's input streamed in pieces: an index each, no text start.
CHATTY = {"blocks": [{"type": "text", "text": " ".join(_WORDS)},
                     {"type": "tool_call", "id": "tooluse_Qm9vYmFy", "name": "get_weather",
                      "arguments": '{"city": "Zürich"}'}],
          "stop_reason": "tool_use", "usage": {"inputTokens": 90, "outputTokens": 70, "totalTokens": 160}}
CHATTY_PLAN = Plan(pieces=(tuple(w + " " for w in _WORDS[:-1]) + (_WORDS[-1],), ('{"city"', ": ", '"Zürich"}')),
                   schedule=(0, 1, 0, 1, 0, 1) + (0,) * (len(_WORDS) - 3))
# Two signed reasoning blocks, each signature in two deltas, then a redacted block: none may lend another its value.
SIGNED = {"blocks": [{"type": "reasoning", "text": "First.", "signature": "U0lHMQ=="},
                     {"type": "reasoning", "text": "Second.", "signature": "U0lHMg=="},
                     {"type": "redacted_reasoning", "data": "AP8BAgM="},
                     {"type": "text", "text": "Done."}],
          "stop_reason": "end_turn", "usage": None}


@pytest.mark.parametrize("turn, plan", [(TURN, PLAN), (CHATTY, CHATTY_PLAN), (SIGNED, Plan())],
                         ids=["incident", "word-per-delta", "two-signatures"])
def test_blocks_are_keyed_by_their_index(stream, turn, plan):
    body = turn_body(turn, plan)
    got = valid(stream).parse_stream(body)
    where = f"bedrock turn {shown(turn)}; stream: {shown(body)}"
    blocks = got.get("blocks") if isinstance(got, dict) else None
    assert isinstance(blocks, list) and len(blocks) == len(turn["blocks"]), (
        f"parse_stream returned {len(blocks) if isinstance(blocks, list) else shown(got)} blocks, but the stream "
        f"has {len(turn['blocks'])} (one per contentBlockIndex); {where}")
    assert_same_turn(*comparable(got, turn), where)
