"""Contract: deltas of several open blocks, interleaved, each go to the block their ``index`` names.

Incident: `anthropic-interleaved-blocks`: translators from chat completions
to Messages keep one block open per parallel call and send each call's
argument pieces as they come; decoders that give a delta to the block opened
last mixed the calls' arguments.

Rule: for any turn and any interleaving of its block events (each block's
start, deltas and stop in order; the blocks' mixed in any way: the start of
index 2 before the stop of index 1, deltas of both alternating), ``parse_stream``
returns the turn: block types in index order, texts, thinking, signatures,
redacted data, calls with their arguments (JSON values), stop reason and
usage, each its own assertion.

Level: robust. Anthropic streams one block at a time, from start to stop,
and correct client libraries may rely on that. Translators that serve the
Messages API over another provider's stream interleave: praxis-proxy keeps a
block open per chat tool-call index and routes each argument piece back to
its block (its PR 273), closing them all at the end; bifrost's translation
tracks several open blocks (its PR 3441). The block's ``index`` names it.

Production fingerprint: behind such a translator, parallel calls arrive with
each other's arguments ("has empty arguments", or JSON that does not parse),
and a thinking block takes text that belongs to the answer.
"""

from dataclasses import replace

import pytest
from hypothesis import example, given

from harness.testing.anthropic_incident import PLAN, TURN
from harness.contracts.block_checks import assert_same_turn
from harness.clip import shown
from harness.testing import anthropic_streamed_turns as streamed_turns
from harness.under_test.invoke import valid
from harness.wire.anthropic_events import turn_body


pytestmark = [pytest.mark.robust, pytest.mark.formats("anthropic")]


def _pairs_alternating(pieces: tuple) -> tuple:
    """Blocks two by two: both started, their deltas alternating, then both stopped (the first one first)."""
    steps = []
    for first in range(0, len(pieces), 2):
        pair = [k for k in (first, first + 1) if k < len(pieces)]
        steps += [("start", k) for k in pair]
        for n in range(max(len(pieces[k]) for k in pair)):
            steps += [("delta", k) for k in pair if n < len(pieces[k])]
        steps += [("stop", k) for k in pair]
    return tuple(steps)


@given(streamed_turns(interleaved=True))
@example((TURN, replace(PLAN, steps=_pairs_alternating(PLAN.pieces))))
def test_interleaved_deltas_go_to_the_block_their_index_names(stream, sample):
    turn, plan = sample
    body = turn_body(turn, plan)
    got = valid(stream).parse_stream(body)
    assert_same_turn(got, turn, f"turn {shown(turn)}; stream: {shown(body)}")
