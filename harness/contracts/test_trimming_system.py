"""Contract: trimming an overflowing history keeps the system prompt.

Incident: incident `batch-path-pairing`: a history cut back on overflow is what the provider sees
next. The system prompt sits before the first turn, so a trimmer that drops
"the oldest messages" drops it first.

Rule: when a history opening with system messages is trimmed (to any budget,
however small), those system messages still open the trimmed history, in
order, and the latest turn is still there.

Level: wire (what the next request carries must be the conversation that
happened: its instructions and its latest turn).

Production fingerprint: after a long conversation the agent forgets its
instructions: persona, tool-use policy and output format change mid-session.
"""

import pytest

from harness.clip import shown
from harness.under_test.invoke import valid

pytestmark = pytest.mark.wire

SYSTEM = [{"role": "system", "content": "You are a careful assistant."},
          {"role": "system", "content": "Answer in English."}]
TURNS = [
    [{"role": "user", "content": f"Question {k}: " + "word " * 40},
     {"role": "assistant", "content": f"Answer {k}: " + "word " * 40}]
    for k in range(6)
]
HISTORY = SYSTEM + [m for turn in TURNS for m in turn]


@pytest.mark.parametrize("budget", [1, 200, 800])
def test_system_prompt_survives_trimming(memory, budget):
    memory = valid(memory)
    trimmed = memory.trim_history(HISTORY, budget)
    assert trimmed[: len(SYSTEM)] == SYSTEM, (
        f"trimmed to budget {budget}, the history opens with {shown(trimmed[:2])}, but should keep the system prompt "
        f"{SYSTEM}"
    )
    assert trimmed[-2:] == TURNS[-1], (
        f"trimmed to budget {budget}, the history ends with {shown(trimmed[-2:])}, but should end with the latest turn "
        f"{TURNS[-1]}"
    )
    assert len(trimmed) < len(HISTORY), (
        f"trimmed to budget {budget}, {len(trimmed)} of {len(HISTORY)} messages came back, but a budget far below "
        "the history's size should drop some"
    )
