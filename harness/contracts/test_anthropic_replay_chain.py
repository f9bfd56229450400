"""Contract: a tool loop stored, loaded, rendered and trimmed replays every block in order, opaque values intact.

Incident: each link of the history path lost a piece before: replay
regrouped into all thinking, then text, then tools (incident `anthropic-replay-regrouped`);
the thinking of the tool turn dropped in conversion (incident `anthropic-thinking-dropped`);
a signature or a redacted block lost on the way (incident `anthropic-opaque-lost`).

Rule: for a turn with interleaved thinking, text and tool calls (three
calls, signatures that streamed in several pieces, a redacted block and a
call with no arguments pinned; any such loop drawn), the kernel's persisted
rounds, put through ``store_blocks`` / ``load_blocks``, ``render_history``
and ``trim_history`` with a budget far above the history's size, give the
history whose assistant messages are the rounds as the provider sent them:
every block's type in order, thinking text and signature and redacted data
byte for byte, each tool_use's id, name and input; and Anthropic refuses
nothing in it (thinking enabled, the latest round as sent).

Level: wire (the capabilities composed as production does; each link's own
rule is a contract of its own).

Production fingerprint: a resumed session's first request answers HTTP 400
"`thinking` or `redacted_thinking` blocks in the latest assistant message
cannot be modified" although every unit test of each link passed.
"""

import pytest
from hypothesis import example, given

from harness.clip import clip_json
from harness.contracts.anthropic_blocks_kept import assert_blocks_kept
from harness.contracts.anthropic_rounds import PINNED, as_sent, run
from harness.rules.anthropic_history import refusals
from harness.testing import anthropic_tool_loops, anthropic_wire_message
from harness.testing.anthropic_history import content_blocks
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.wire, pytest.mark.formats("anthropic")]

BUDGET = 10**9  # far above any drawn history, in any unit: trimming must keep everything


@given(loop=anthropic_tool_loops(thinking=True))
@example(loop=PINNED)
def test_the_whole_history_path_keeps_every_block(kernel, memory, loop):
    _, events = run(kernel, loop)
    memory = valid(memory)
    messages = memory.trim_history(valid(kernel).render_history(memory.load_blocks(memory.store_blocks(events))),
                                   BUDGET)
    assistants = [m for m in messages if isinstance(m, dict) and m.get("role") == "assistant"]
    assert len(assistants) == len(loop), (
        f"{len(assistants)} assistant messages came through for {len(loop)} rounds: {clip_json(messages, 1500)}")
    for n, (message, turn) in enumerate(zip(assistants, loop), 1):
        assert_blocks_kept(content_blocks(message), anthropic_wire_message(turn)["content"],
                           f"round {n} after store, load, render and trim: {clip_json(message, 1200)}")
    refused = refusals(as_sent({"messages": messages}, loop), sent=loop)
    assert not refused, f"Anthropic would refuse the replayed history: {[r.message for r in refused]}"
