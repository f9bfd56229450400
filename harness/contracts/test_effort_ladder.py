"""Contract: every effort setting maps to something the provider understands, and differently.

Incident: an agent's reasoning slider was a no-op for DeepSeek (seed 004).
DeepSeek thinks by default at high effort and its only documented off switch
is ``thinking: {"type": "disabled"}``, which was never sent. Its
``reasoning_effort`` ladder is low/high/max and the server reads ``medium`` as
high, so passing ``medium`` through would merge two slider positions into one.
Sub-agent rounds, which never see the slider, ran at that same default.

Rule: for DeepSeek, ``off`` sends thinking disabled and no
``reasoning_effort``; ``low`` and ``medium`` send ``reasoning_effort: "low"``,
``high`` sends ``"high"``, ``max`` sends ``"max"``, none of them disabling
thinking; rounds of a sub-agent (``role: "executor"``) with no effort of their
own send thinking disabled. Any other provider gets the effort word passed
through as ``reasoning_effort`` and never a ``thinking`` key.

Production fingerprint: a DeepSeek agent that thinks for tens of minutes,
re-reads dozens of files and never acts, whatever the slider says.
"""

import json

import pytest

from harness.request_examples import DEEPSEEK_URL, GENERIC_URLS, TOOLS

BODY = {
    "model": "any-model",
    "messages": [{"role": "user", "content": "Summarise the ledger."}],
    "tools": TOOLS,
    "stream": True,
}
DEEPSEEK_LADDER = [("off", None), ("low", "low"), ("medium", "low"), ("high", "high"), ("max", "max")]


def _settings(body: dict) -> str:
    return json.dumps({k: body.get(k, "<absent>") for k in ("thinking", "reasoning_effort")})


@pytest.mark.policy
@pytest.mark.parametrize("effort, expected", DEEPSEEK_LADDER, ids=[e for e, _ in DEEPSEEK_LADDER])
def test_deepseek_effort_ladder(transform, effort, expected):
    body = transform.transform_request(BODY, {"base_url": DEEPSEEK_URL, "effort": effort})
    got = body.get("reasoning_effort")
    assert got == expected, (
        f"reasoning_effort={got!r}, but should be {expected!r} for effort={effort!r} on DeepSeek "
        f"(ladder low/high/max; the server reads medium as high); sent {_settings(body)}"
    )
    disabled = body.get("thinking") == {"type": "disabled"}
    assert disabled == (effort == "off"), (
        f"thinking={body.get('thinking', '<absent>')!r}, but effort={effort!r} should "
        f"{'disable thinking' if effort == 'off' else 'leave thinking on'}; sent {_settings(body)}"
    )


@pytest.mark.policy
def test_executor_rounds_default_to_thinking_disabled(transform):
    options = {"base_url": DEEPSEEK_URL, "effort": None, "role": "executor"}
    body = transform.transform_request(BODY, options)
    assert body.get("thinking") == {"type": "disabled"}, (
        f"thinking={body.get('thinking', '<absent>')!r}, but a sub-agent round with no effort of its own should "
        f"send {{'type': 'disabled'}} instead of inheriting the default high-effort thinking (options {options!r})"
    )


@pytest.mark.provider
@pytest.mark.parametrize("effort", ["low", "high"])
def test_executor_rounds_follow_an_explicit_effort(transform, effort):
    options = {"base_url": DEEPSEEK_URL, "effort": effort, "role": "executor"}
    body = transform.transform_request(BODY, options)
    assert body.get("thinking") != {"type": "disabled"} and body.get("reasoning_effort") == effort, (
        f"sent {_settings(body)}, but a sub-agent given effort={effort!r} should think at reasoning_effort "
        f"{effort!r} (options {options!r})"
    )


@pytest.mark.wire
@pytest.mark.parametrize("base_url", GENERIC_URLS)
@pytest.mark.parametrize("effort", ["low", "medium", "high", "max"])
def test_other_providers_get_the_effort_passed_through(transform, base_url, effort):
    body = transform.transform_request(BODY, {"base_url": base_url, "effort": effort})
    assert body.get("reasoning_effort") == effort and "thinking" not in body, (
        f"sent {_settings(body)}, but base_url={base_url!r} should get reasoning_effort={effort!r} as given and no "
        "thinking key (that switch is DeepSeek's)"
    )


@pytest.mark.wire
@pytest.mark.parametrize("base_url", GENERIC_URLS)
@pytest.mark.parametrize("options", [{"effort": "off"}, {"effort": None, "role": "executor"}], ids=["off", "executor"])
def test_other_providers_never_get_a_thinking_key(transform, base_url, options):
    body = transform.transform_request(BODY, {"base_url": base_url, **options})
    assert "thinking" not in body, (
        f"thinking={body['thinking']!r}, but base_url={base_url!r} should never get a thinking key "
        f"(options {options!r})"
    )
