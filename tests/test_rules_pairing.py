"""The pairing rule is judged once: the contracts' messages and the loopback profiles' 400s agree on every history."""

from __future__ import annotations

import re

import pytest

from harness.loopback.provider_profiles import PROFILE_NAMES, make_profile
from harness.rules.pairing import ANSWERED_TWICE, ORPHAN, UNANSWERED, PairingViolation, pairing, same_arguments
from harness.testing import pairing_violations

USER = {"role": "user", "content": "go"}


def _calls(*ids: str) -> dict:
    return {"role": "assistant", "content": None,
            "tool_calls": [{"id": i, "type": "function", "function": {"name": "f", "arguments": "{}"}} for i in ids]}


def _result(call_id: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": "ok"}


# history -> the breaks of the rule, (kind, message index, call id), in order.
CASES = {
    "paired": ([USER, _calls("a", "b"), _result("b"), _result("a"), USER], []),
    "a second answer": ([USER, _calls("a"), _result("a"), _result("a")], [(ANSWERED_TWICE, 3, "a")]),
    # The former disagreement: the contracts counted calls, the profiles ids.
    "a repeated id answered twice": ([USER, _calls("a", "a"), _result("a"), _result("a")],
                                     [(ANSWERED_TWICE, 3, "a")]),
    "a repeated id answered once": ([USER, _calls("a", "a"), _result("a"), USER], []),
    "an answer after the run ended": ([USER, _calls("a"), _result("a"), USER, _result("a")], [(ORPHAN, 4, "a")]),
    "an answer to another message's call": ([USER, _calls("a"), _result("a"), _calls("b"), _result("a"),
                                             _result("b")], [(ORPHAN, 4, "a")]),
    "a tool message first": ([_result("a"), USER], [(ORPHAN, 0, "a")]),
    "unanswered, the run cut by a user message": ([USER, _calls("a", "b"), _result("b"), USER],
                                                  [(UNANSWERED, 1, "a")]),
    # Equal messages are told apart by position: the second one's calls are its own.
    "two equal assistant messages unanswered": ([USER, _calls("a"), USER, _calls("a")],
                                                [(UNANSWERED, 1, "a"), (UNANSWERED, 3, "a")]),
    "unanswered at the end": ([USER, _calls("a", "b")], [(UNANSWERED, 1, "a"), (UNANSWERED, 1, "b")]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_rule_states_each_break_with_its_message_and_call(case: str) -> None:
    history, breaks = CASES[case]
    assert pairing(history) == [PairingViolation(*b) for b in breaks]


def _at(problems: list[str]) -> list[int]:
    return [int(re.search(r"message #(\d+)", p).group(1)) for p in problems]


@pytest.mark.parametrize("profile", PROFILE_NAMES)
@pytest.mark.parametrize("case", sorted(CASES))
def test_contracts_and_provider_profiles_judge_each_history_the_same(case: str, profile: str) -> None:
    history, _ = CASES[case]
    said = pairing_violations(history)
    answered = make_profile(profile).pairing(history, 1)
    assert _at(said) == [v.message_index for v in answered], (said, [v.detail for v in answered])
    rules = ["unanswered-tool-calls" if "has tool_calls without" in p else "orphan-tool-message" for p in said]
    assert rules == [v.rule for v in answered]


def test_a_provider_answers_the_ids_left_unanswered_in_its_own_words() -> None:
    history = [USER, _calls("a", "b", "c"), _result("b"), USER]
    [openai] = make_profile("openai").pairing(history, 1)
    [deepseek] = make_profile("deepseek").pairing(history, 1)
    [gateway] = make_profile("gateway").pairing(history, 1)
    assert openai.error["error"]["message"].endswith("did not have response messages: a, c")
    assert "insufficient tool messages" in deepseek.error["error"]["message"]
    assert (openai.status, deepseek.status, gateway.status, gateway.error) == (400, 400, 200, None)
    [said] = pairing_violations(history)
    assert said.startswith("assistant message #1 has tool_calls without a following tool message for a, c;")


@pytest.mark.parametrize(("got", "sent", "same"), [
    ("NaN", "NaN", True),  # not JSON: compared as text, so a value is the same as itself
    ('{"a": NaN}', '{"a": NaN}', True),
    ("NaN", "Infinity", False),
    ('{"a":1}', '{"a": 1}', True),  # JSON: compared as values
    ('{"a": 1}', '{"a": true}', False),
])
def test_arguments_compare_as_json_values_and_anything_else_as_text(got: str, sent: str, same: bool) -> None:
    assert same_arguments(got, sent) is same, f"same_arguments({got!r}, {sent!r})"
