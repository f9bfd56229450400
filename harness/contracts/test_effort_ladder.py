"""Contract: every effort setting maps to something the provider understands, and differently.

Incident: an agent's reasoning slider was a no-op for DeepSeek (incident `deepseek-thinking-imbalance`).
DeepSeek thinks by default at high effort and its only documented off switch
is ``thinking: {"type": "disabled"}``, which was never sent. Its
``reasoning_effort`` ladder is low/high/max and the server reads ``medium`` as
high, so passing ``medium`` through would merge two slider positions into one.
Sub-agent rounds, which never see the slider, ran at that same default.

Rule: for DeepSeek, ``off`` sends thinking disabled and no
``reasoning_effort``; ``low``, ``high`` and ``max`` send a ``reasoning_effort``
DeepSeek reads as that rung of its ladder, and ``medium`` one it accepts, none
of them disabling thinking; each slider position sends the word the team's
policy names for it (``effort.<position>``; by default ``medium`` is sent as
``low``, so Medium and High stay apart); a sub-agent round
(``role: "executor"``) with no effort of its own sends what the
``executor.thinking`` policy says (by default thinking disabled), and one
given an effort thinks at it. Any other provider gets the effort word as the
format's ``reasoning_effort`` and never a ``thinking`` key.

Level: per test. ``test_deepseek_effort_ladder`` and
``test_executor_rounds_follow_an_explicit_effort``: provider (DeepSeek's
documented switch and ladder). ``test_deepseek_effort_follows_the_policy``:
policy, keys ``effort.low``, ``effort.medium``, ``effort.high``,
``effort.max``. ``test_executor_rounds_follow_the_thinking_policy``: policy,
key ``executor.thinking``. ``test_other_providers_*``: wire (``low``,
``medium`` and ``high`` are the format's own words; OpenAI rejects an unknown
``thinking`` argument with "Unrecognized request argument").

Production fingerprint: a DeepSeek agent that thinks for tens of minutes,
re-reads dozens of files and never acts, whatever the slider says.
"""

import pytest

from harness.clip import clip_json, shown
from harness.rules.reasoning import DEEPSEEK_EFFORT_RUNG, THINKING_OFF, executor_thinking_problem
from harness.testing.requests import DEEPSEEK_URL, GENERIC_URLS, TOOLS
from harness.under_test.invoke import valid

BODY = {
    "model": "any-model",
    "messages": [{"role": "user", "content": "Summarise the ledger."}],
    "tools": TOOLS,
    "stream": True,
}
def _settings(body: dict) -> str:
    return clip_json({k: body.get(k, "<absent>") for k in ("thinking", "reasoning_effort")})


def _deepseek(transform, **options) -> dict:
    return transform.transform_request(BODY, {"base_url": DEEPSEEK_URL, **options})


@pytest.mark.provider
@pytest.mark.parametrize("effort", ["off", "low", "medium", "high", "max"])
def test_deepseek_effort_ladder(transform, effort):
    transform = valid(transform)
    body = _deepseek(transform, effort=effort)
    got = body.get("reasoning_effort")
    disabled = body.get("thinking") == THINKING_OFF
    if effort == "off":
        assert disabled and got is None, (
            f"sent {_settings(body)}, but effort='off' should send thinking {THINKING_OFF} and no reasoning_effort "
            f"(DeepSeek thinks by default); options {{'base_url': {DEEPSEEK_URL!r}, 'effort': 'off'}}"
        )
        return
    assert not disabled, f"sent {_settings(body)}, but effort={effort!r} should leave thinking on"
    rung = DEEPSEEK_EFFORT_RUNG.get(got)
    wanted = ("low", "high") if effort == "medium" else (effort,)
    assert rung in wanted, (
        f"sent {_settings(body)}, which DeepSeek reads as {rung or 'nothing it accepts'}, but effort={effort!r} "
        f"should think at {' or '.join(wanted)} (ladder low/high/max; the server reads minimal as low, "
        "medium and xhigh as high)"
    )


@pytest.mark.policy
@pytest.mark.parametrize("effort", ["low", "medium", "high", "max"])
def test_deepseek_effort_follows_the_policy(transform, policy, effort):
    transform = valid(transform)
    body = _deepseek(transform, effort=effort)
    expected = policy[f"effort.{effort}"]
    got = body.get("reasoning_effort", "<absent>")
    assert got == expected, (
        f"reasoning_effort={shown(got)}, but the policy effort.{effort}={expected!r} names the word DeepSeek gets for "
        f"the slider position {effort!r}; sent {_settings(body)}"
    )


@pytest.mark.policy
def test_executor_rounds_follow_the_thinking_policy(transform, policy):
    transform = valid(transform)
    options = {"base_url": DEEPSEEK_URL, "effort": None, "role": "executor"}
    body = transform.transform_request(BODY, options)
    wanted = policy["executor.thinking"]
    should = executor_thinking_problem(body, wanted)
    assert should is None, (
        f"sent {_settings(body)}, but with the policy executor.thinking={wanted!r} a sub-agent round with no "
        f"effort of its own should {should} (options {options!r})"
    )


@pytest.mark.provider
@pytest.mark.parametrize("effort", ["low", "high"])
def test_executor_rounds_follow_an_explicit_effort(transform, effort):
    transform = valid(transform)
    options = {"base_url": DEEPSEEK_URL, "effort": effort, "role": "executor"}
    body = transform.transform_request(BODY, options)
    rung = DEEPSEEK_EFFORT_RUNG.get(body.get("reasoning_effort"))
    assert body.get("thinking") != THINKING_OFF and rung == effort, (
        f"sent {_settings(body)}, but a sub-agent given effort={effort!r} should think at the {effort!r} rung "
        f"(options {options!r})"
    )


@pytest.mark.wire
@pytest.mark.parametrize("base_url", GENERIC_URLS)
@pytest.mark.parametrize("effort", ["low", "medium", "high"])
def test_other_providers_get_the_effort_passed_through(transform, base_url, effort):
    transform = valid(transform)
    body = transform.transform_request(BODY, {"base_url": base_url, "effort": effort})
    assert body.get("reasoning_effort") == effort and "thinking" not in body, (
        f"sent {_settings(body)}, but base_url={base_url!r} should get reasoning_effort={effort!r} as given and no "
        "thinking key (that switch is DeepSeek's)"
    )


@pytest.mark.wire
@pytest.mark.parametrize("base_url", GENERIC_URLS)
@pytest.mark.parametrize(
    "options",
    [{"effort": "off"}, {"effort": "max"}, {"effort": None, "role": "executor"}],
    ids=["off", "max", "executor"],
)
def test_other_providers_never_get_a_thinking_key(transform, base_url, options):
    transform = valid(transform)
    body = transform.transform_request(BODY, {"base_url": base_url, **options})
    assert "thinking" not in body, (
        f"thinking={shown(body['thinking'])}, but base_url={base_url!r} should never get a thinking key "
        f"(options {options!r}; OpenAI answers 'Unrecognized request argument')"
    )
