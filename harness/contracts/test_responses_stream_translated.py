"""Contract: a Responses stream rebuilt by a translator still decodes to its turn (deltas by index, items whole).

Incident: `responses-delta-before-added` (an accumulator crashed on an
``output_item.added`` with a null item) and `responses-parallel-index-zero`: bridges between the Responses and
the chat-completions streams rebuilt events from the other format's pieces,
and their consumers mixed the calls up.

Rule: for any turn, written as translators outside the format write it, the
turn comes back: (a) deltas that name only their ``output_index`` (no
``item_id``), each going to the item at that index; (b) items that stream no
delta at all, their values only in ``response.output_item.done`` (a
non-streamed response replayed as a stream); (c) an
``output_item.added`` whose ``item`` is null, the item coming whole in its
``output_item.done``. Each part is its own assertion.

Level: robust (Responses-to-chat bridges and proxies that replay stored
responses as streams send these shapes; the provider itself always sends
``item_id`` and deltas).

Production fingerprint: a turn whose calls are missing or empty only behind a
proxy, never against the provider directly.
"""

import pytest
from hypothesis import example, given

from harness.clip import shown
from harness.contracts.block_checks import assert_same_turn
from harness.contracts.responses_checks import assert_same_items
from harness.testing.responses_incident import EARLY, TURN
from harness.testing import responses_streamed_turns as streamed_turns
from harness.under_test.invoke import valid
from harness.wire.responses_events import DELTA_TYPES, Plan, frame, items_of, turn_events

pytestmark = [pytest.mark.robust, pytest.mark.formats("openai-responses")]


def _decodes(stream, turn: dict, events: list[dict], named: bool, what: str) -> None:
    body = frame(events, Plan(named=named))
    got = valid(stream).parse_stream(body)
    where = f"{what}; turn {shown(turn)}; stream: {shown(body)}"
    assert_same_turn(got, turn, where)
    assert_same_items(got, turn, where)


@given(streamed_turns(interleaved=True))
@example((TURN, EARLY))
def test_deltas_naming_only_their_output_index_go_to_that_item(stream, sample):
    turn, plan = sample
    events = turn_events(turn, plan)
    for event in events:
        if event["type"] in DELTA_TYPES.values():
            del event["item_id"]
    _decodes(stream, turn, events, plan.named, "deltas without item_id")


@given(streamed_turns())
@example((TURN, Plan()))
def test_items_with_no_deltas_take_their_values_from_output_item_done(stream, sample):
    turn, plan = sample
    pieces = tuple(tuple(() for _ in item.values()) for item in items_of(turn))
    events = turn_events(turn, Plan(pieces=pieces))
    _decodes(stream, turn, events, plan.named, "no deltas: every value only in response.output_item.done")


@given(streamed_turns())
@example((TURN, Plan()))
def test_an_added_event_with_a_null_item_is_completed_by_its_done_event(stream, sample):
    turn, plan = sample
    pieces = tuple(tuple(() for _ in item.values()) for item in items_of(turn))
    events = turn_events(turn, Plan(pieces=pieces))
    for event in events:
        if event["type"] == "response.output_item.added":
            event["item"] = None
    _decodes(stream, turn, events, plan.named, "output_item.added with a null item")
