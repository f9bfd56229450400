"""Contract: the usage is ``message_start``'s, updated key by key by ``message_delta``'s.

Incident: `anthropic-usage-merge`: decoders that let ``message_delta``'s
usage replace the whole object lost the input counts only ``message_start``
carried; others added ``message_delta``'s cumulative counts to
``message_start``'s and doubled them.

Rule: for any turn and any split of its usage (``message_start`` carrying
some keys, some of them with a value ``message_delta`` then updates;
``message_delta`` carrying every changed key and any of the unchanged ones
again), the decoded usage holds each key only ``message_start`` sent, with its
value; and each key ``message_delta`` sent, with ``message_delta``'s value (a
count repeated is not added). Each its own assertion.

Level: per test. Wire for the splits Anthropic streams (``message_start``
with ``input_tokens`` and ``output_tokens``, ``message_delta`` with
``output_tokens``): Anthropic documents ``message_delta``'s counts as
cumulative, and sends in ``message_start`` the input counts that
``message_delta`` may leave out. Robust for the splits of relays and
translators (any key missing from either event, or no usage at all, which
then decodes to no usage: ``None``, or every count zero, as a client holding
"no usage" as zeros has it; Anthropic never sends an all-zero usage, so the
generated usages never are): shapes Anthropic never sends.

Production fingerprint: token accounting that reads zero input tokens for
every streamed turn, or twice the input and cache counts, or an output count
one higher than the provider billed.
"""

import pytest
from hypothesis import example, given

from harness.testing.anthropic_incident import PLAN, TURN
from harness.clip import shown
from harness.rules.blocks import no_usage
from harness.testing import anthropic_streamed_turns as streamed_turns
from harness.under_test.invoke import valid
from harness.wire.anthropic_events import Plan, split_usage, turn_body

pytestmark = pytest.mark.formats("anthropic")

# The incident's usage: output_tokens updated (1 -> 181), input and cache counts only in message_start.
USAGE_SPLIT = PLAN
# The same counts repeated in message_delta with their values, as Anthropic's newer streams send them.
REPEATED = Plan(start_usage=PLAN.start_usage, repeated_usage=("input_tokens", "cache_read_input_tokens"))
# A relay's: no usage in either event; every count in message_start, none in message_delta.
NO_USAGE = {**TURN, "usage": None}
START_ONLY = Plan(start_usage=TURN["usage"])


def _merged(stream, turn: dict, plan: Plan) -> None:
    body = turn_body(turn, plan)
    start, delta = split_usage(turn["usage"], plan.start_usage, plan.repeated_usage)
    got = valid(stream).parse_stream(body)
    assert isinstance(got, dict), f"parse_stream returned {shown(got)}, but should return a turn; stream: {shown(body)}"
    usage = got.get("usage")
    where = f"message_start usage {shown(start)}, message_delta usage {shown(delta)}; stream: {shown(body)}"
    if start is None:
        assert no_usage(usage), (
            f"usage={shown(usage)}, but neither message_start nor message_delta sent one (expected None, or every "
            f"count zero); {where}")
        return
    assert isinstance(usage, dict), f"usage={shown(usage)}, but should be the merged usage object; {where}"
    kept = {key: usage.get(key, "<absent>") for key in start if key not in delta}
    assert kept == {key: start[key] for key in kept}, (
        f"the keys only message_start sent came back as {shown(kept)}, but should keep message_start's values; "
        f"{where}")
    updated = {key: usage.get(key, "<absent>") for key in delta}
    assert updated == delta, (
        f"the keys message_delta sent came back as {shown(updated)}, but should be message_delta's values "
        f"(cumulative: they replace, never add); {where}")


@pytest.mark.wire
@given(streamed_turns(max_calls=3))
@example((TURN, USAGE_SPLIT))
@example((TURN, REPEATED))
def test_usage_is_merged_key_by_key(stream, sample):
    _merged(stream, *sample)


@pytest.mark.robust
@given(streamed_turns(max_calls=3, relay_usage=True))
@example((NO_USAGE, Plan()))
@example((TURN, START_ONLY))
def test_a_relays_usage_is_merged_key_by_key(stream, sample):
    _merged(stream, *sample)
