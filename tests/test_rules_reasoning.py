"""DeepSeek's reasoning rule is judged once: the contracts' messages and the profile's 400s name the same messages."""

from __future__ import annotations

import re

import pytest

from harness.loopback.provider_profiles import DeepSeekProfile
from harness.rules.reasoning import ERAS, reasoning_violations

CALL = {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}
MESSAGES = [{"role": "user", "content": "go"},
            {"role": "assistant", "content": None, "tool_calls": [CALL]},
            {"role": "tool", "tool_call_id": "a", "content": "ok", "reasoning_content": "stray"},
            {"role": "assistant", "content": "done", "reasoning_content": "r"},
            {"role": "assistant", "content": "again"}]


@pytest.mark.parametrize("era", ERAS)
def test_contracts_and_the_deepseek_profile_judge_the_same_messages_with_the_same_answer(era: str) -> None:
    said = reasoning_violations(MESSAGES, era, has_tools=True)
    answered = DeepSeekProfile(era).reasoning(MESSAGES, True, 1)
    assert said, era
    assert [int(re.match(r"message #(\d+)", p).group(1)) for p in said] == [v.message_index for v in answered]
    assert all(repr(v.error["error"]["message"]) in p for p, v in zip(said, answered))
