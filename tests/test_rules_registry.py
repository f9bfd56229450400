"""Every rule the loopback profiles and the probe judge by has one entry in the registry, and the entry is sound."""

from __future__ import annotations

import pytest

from harness import CONTRACTS_DIR
from harness.loopback.probe_checks import check_session
from harness.loopback.provider_profiles import PROFILE_NAMES, make_profile
from harness.loopback.scenarios import SCENARIOS
from harness.rules.levels import LEVELS
from harness.rules.registry import RULES

CALL = {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}
# One body breaking every rule a profile can find, so each violation's name and level can be read off.
EVERYTHING = {
    "model": "m", "tools": [{"type": "function", "function": {"name": "f"}}], "extra_body": {"thinking": {}},
    "tool_choice": "required", "thinking": {"type": "enabled"},
    "messages": [{"role": "tool", "tool_call_id": "x", "content": "?"},
                 {"role": "assistant", "content": None, "tool_calls": [CALL], "reasoning_content": "r"},
                 {"role": "user", "content": "go"},
                 {"role": "assistant", "content": "no reasoning"}],
}


def test_every_rule_has_a_level_of_the_vocabulary_and_a_title() -> None:
    assert all(rule.level in LEVELS and rule.title for rule in RULES.values())


def test_every_contract_a_rule_names_exists() -> None:
    named = {c for rule in RULES.values() for c in rule.contracts}
    assert named and not {c for c in named if not (CONTRACTS_DIR / f"{c}.py").is_file()}


@pytest.mark.parametrize("era", ["r1", "v3.2", "current"])
@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_a_profile_names_each_violation_by_a_rule_it_judges_at_the_registrys_level(name: str, era: str) -> None:
    profile = make_profile(name, era)
    found = profile.check(EVERYTHING, 1) + profile.check(None, 2) + profile.check({"model": "m"}, 3)
    assert {v.rule for v in found[:-2]} <= set(profile.judged) <= set(RULES)
    assert all(v.level == RULES[v.rule].level for v in found)


@pytest.mark.parametrize("name", PROFILE_NAMES)
def test_the_probe_reports_each_check_by_its_registered_name_level_and_title(name: str) -> None:
    profile = make_profile(name)
    results = check_session(SCENARIOS["stream-error"], profile, [], [])
    assert [r.rule for r in results[:len(profile.judged)]] == list(profile.judged)
    assert all((r.level, r.title) == (RULES[r.rule].level, RULES[r.rule].title) for r in results)
