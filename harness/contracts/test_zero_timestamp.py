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
derived from the event, never from the clock: the two stores run with the
clock set years apart, so a clock-based id differs every time, whatever its
resolution); and the loaded timestamp is
still older than any real clock reading: zero, or a value from 0 up to (not
including) 1, so the event keeps its place before every live one.

The clock is set with time-machine, for the adapter's own process: an
in-process adapter reads the set time from ``time.time``, ``datetime.now``
and the rest; a bridge keeps its own clock, where a clock-based id shows only
when its two stores straddle a tick.

Level: wire (a store that loses whole events loses the conversation, on
every provider).

Production fingerprint: events recalled from cold storage with empty input,
response and reasoning although their blocks exist; no error, no log line.
"""

import pytest
import time_machine
from hypothesis import example, given, strategies as st

from harness.clip import shown
from harness.testing import persisted_events as events
from harness.testing.events import FIELDS, differences
from harness.under_test.invoke import valid

pytestmark = pytest.mark.wire

TEXT_AND_TOOL_FIELDS = tuple(field for field in FIELDS if field != "timestamp")
ZERO = st.sampled_from([0, 0.0])
zero_events = st.lists(events(timestamps=ZERO), min_size=1, max_size=3)
# With reasoning every event has at least one block, so there are ids to compare.
zero_events_with_blocks = st.lists(events(timestamps=ZERO, reasoning=st.text(min_size=1)), min_size=1, max_size=3)
# Two imported events that never had a clock: a text of every kind and a tool round each.
IMPORTED = [
    {"input": "Look x up.", "response": "", "reasoning": "Need the lookup tool.", "tool_calls": [
        {"id": "call_1", "name": "lookup", "arguments": '{"q":"x"}'}], "tool_results": [
        {"tool_call_id": "call_1", "content": "x is 42"}], "tools_used": ["lookup"], "timestamp": 0},
    {"input": "", "response": "x is 42.", "reasoning": "Answer now.", "tool_calls": [], "tool_results": [],
     "tools_used": [], "timestamp": 0.0},
]


@given(stored=zero_events)
@example(stored=IMPORTED)
def test_zero_timestamp_events_load_intact(memory, stored):
    memory = valid(memory)
    loaded = memory.load_blocks(memory.store_blocks(stored))
    assert len(loaded) == len(stored), (
        f"stored {len(stored)} zero-timestamp events, but loaded {len(loaded)}; stored {shown(stored, 1500)}"
    )
    for n, (want, got) in enumerate(zip(stored, loaded)):
        problems = differences(want, got, TEXT_AND_TOOL_FIELDS)
        assert not problems, (
            f"event #{n} with timestamp {shown(want['timestamp'])} came back changed from cold storage "
            "(ids written and ids read disagree?):\n  " + "\n  ".join(problems)
        )
        stamp = got.get("timestamp")
        older = isinstance(stamp, (int, float)) and not isinstance(stamp, bool) and 0 <= stamp < 1
        assert older, (
            f"event #{n} stored with timestamp {shown(want['timestamp'])} loaded with timestamp {shown(stamp)}, but "
            "should load as zero or a value from 0 up to 1: older than every real clock reading, as zero was"
        )


# Two instants the clock is set to, years apart: ids or timestamps read from the clock differ between them,
# whatever its resolution (a second, a minute, a day).
INSTANTS = (978307200.0, 1950000000.5)


@given(stored=zero_events_with_blocks)
@example(stored=IMPORTED)
def test_zero_timestamp_ids_are_deterministic(memory, stored):
    memory = valid(memory)
    runs = []
    for instant in INSTANTS:
        with time_machine.travel(instant, tick=False):
            cold = memory.store_blocks(stored)
            loaded = memory.load_blocks(cold)
        runs.append(([block.get("id") for block in cold["blocks"]], [event.get("timestamp") for event in loaded]))
    (ids, stamps), (ids_again, stamps_again) = runs
    assert ids == ids_again, (
        f"storing the same {len(stored)} zero-timestamp event(s) with the clock at {INSTANTS[0]} gave block ids "
        f"{ids}, at {INSTANTS[1]} the ids {ids_again}; they should repeat: the timestamp the ids hash must be "
        "derived from the event, never read from the clock"
    )
    assert stamps == stamps_again, (
        f"the same {len(stored)} zero-timestamp event(s), stored and loaded with the clock at {INSTANTS[0]}, load "
        f"with the timestamps {stamps}, at {INSTANTS[1]} with {stamps_again}; they should repeat (derived from "
        "the event, never from the clock)"
    )
