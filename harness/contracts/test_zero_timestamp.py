"""Contract: events with a zero timestamp are stored and read back intact, under stable ids.

Incident: while fixing reasoning storage (incident `deepseek-reasoning-400`) the kernel's authors found
that cold storage computed block ids from the event's timestamp, and for a zero
timestamp used the current time instead, while the stored event record kept
the zero. The ids the reader derived never matched the ids written: the content
was on disk, yet not one field could be read back, and nothing logged an error.
Live events always had a timestamp, so only imported or older events hit it.
The fix normalizes the timestamp before any id is computed.

Rule: events whose timestamp is zero store and load with every text and tool
field intact, in their order, also several of them together; storing the same
events again gives the same block ids and the same loaded timestamps (a value
derived from the event, never from the clock); and the loaded timestamp is
still older than any real clock reading: zero, or a value from 0 up to (not
including) 1, so the event keeps its place before every live one.

Level: wire (a store that loses whole events loses the conversation, on
every provider).

Production fingerprint: events recalled from cold storage with empty input,
response and reasoning although their blocks exist; no error, no log line.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.contracts.calls import valid
from harness.contracts.persisted_events import FIELDS, differences, shown
from harness.testing import persisted_events as events

pytestmark = pytest.mark.wire

TEXT_AND_TOOL_FIELDS = tuple(field for field in FIELDS if field != "timestamp")
ZERO = st.sampled_from([0, 0.0])
zero_events = st.lists(events(timestamps=ZERO), min_size=1, max_size=3)
# With reasoning every event has at least one block, so there are ids to compare.
zero_events_with_blocks = st.lists(events(timestamps=ZERO, reasoning=st.text(min_size=1)), min_size=1, max_size=3)


@given(stored=zero_events)
def test_zero_timestamp_events_load_intact(memory, stored):
    memory = valid(memory)
    loaded = memory.load_blocks(memory.store_blocks(stored))
    assert len(loaded) == len(stored), (
        f"stored {len(stored)} zero-timestamp events, but loaded {len(loaded)}; stored {shown(stored, 1500)}"
    )
    for n, (want, got) in enumerate(zip(stored, loaded)):
        problems = differences(want, got, TEXT_AND_TOOL_FIELDS)
        assert not problems, (
            f"event #{n} with timestamp {want['timestamp']!r} came back changed from cold storage "
            "(ids written and ids read disagree?):\n  " + "\n  ".join(problems)
        )
        stamp = got.get("timestamp")
        older = isinstance(stamp, (int, float)) and not isinstance(stamp, bool) and 0 <= stamp < 1
        assert older, (
            f"event #{n} stored with timestamp {want['timestamp']!r} loaded with timestamp {stamp!r}, but should "
            "load as zero or a value from 0 up to 1: older than every real clock reading, as zero was"
        )


@given(stored=zero_events_with_blocks)
def test_zero_timestamp_ids_are_deterministic(memory, stored):
    memory = valid(memory)
    runs = []
    for _ in range(2):
        cold = memory.store_blocks(stored)
        ids = [block.get("id") for block in cold["blocks"]]
        runs.append((ids, [event.get("timestamp") for event in memory.load_blocks(cold)]))
    (ids, stamps), (ids_again, stamps_again) = runs
    assert runs[0] == runs[1], (
        f"storing the same {len(stored)} zero-timestamp event(s) twice gave block ids {ids} loading with "
        f"timestamps {stamps}, then ids {ids_again} loading with {stamps_again}; both should repeat: the "
        "timestamp the ids hash must be derived from the event, never read from the clock"
    )
