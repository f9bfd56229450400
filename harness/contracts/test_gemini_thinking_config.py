"""Contract: effort reaches Gemini as a ``thinkingConfig`` where Gemini reads it, and every slider position means something.

Incident: the thinking switch went where the server never reads it, and the
effort slider mapped to nothing (incident `deepseek-thinking-imbalance`; the
same mistake on Gemini puts ``thinkingConfig`` at the top level of the body,
where it is an unknown field, or sends a budget beside a ``thinkingLevel``).

Rule: ``transform_request(body, {"effort": e})`` of a generateContent body
(contents and tools, with or without a ``generationConfig`` holding other
settings, with or without a ``thinkingConfig`` of its own):

- ``e`` None (not asked): the body comes back as it was;
- any other ``e`` (``test_thinking_config_sits_in_generation_config``,
  wire): ``thinkingConfig`` sits inside ``generationConfig`` and nowhere at
  the top level of the body; it holds at most one of ``thinkingBudget`` and
  ``thinkingLevel``; every other key of ``generationConfig`` and of the body
  is kept; the caller's body is left as it was;
- (``test_off_turns_thinking_off_and_every_other_effort_on`` and
  ``test_a_higher_effort_never_thinks_less``, provider) ``"off"`` turns thinking
  off as far as the model allows (``thinkingBudget: 0``, or
  ``thinkingLevel: "minimal"``); ``low``, ``medium``, ``high`` and ``max``
  each turn it on (a budget above 0 or ``-1``, dynamic; or a level above
  ``minimal``), a higher position never thinks less than a lower one, and
  ``high`` thinks more than ``low``.

Level: per test, as above. Wire: Gemini answers 400 'Invalid JSON payload
received. Unknown name "thinkingConfig"' to the field at the top level, and
400 to a budget beside a level. Provider: Gemini's budgets and levels (0
turns thinking off on the models that allow it).

Production fingerprint: every request refused after the first effort change;
or an effort slider that changes nothing the model does.
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.adapter import EFFORTS
from harness.clip import clip_json
from harness.under_test.invoke import valid

pytestmark = pytest.mark.formats("gemini")

# Gemini's thinking levels, least thinking first.
THINKING_LEVELS = ("minimal", "low", "medium", "high")
CONTENTS = [{"role": "user", "parts": [{"text": "What is the weather in Paris?"}]}]
TOOLS = [{"functionDeclarations": [{"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]}]

_thinking_config = st.fixed_dictionaries({}, optional={
    "thinkingBudget": st.sampled_from([-1, 0, 512, 8192]),
    "includeThoughts": st.booleans(),
}) | st.fixed_dictionaries({"thinkingLevel": st.sampled_from(THINKING_LEVELS)},
                           optional={"includeThoughts": st.booleans()})
_generation_config = st.fixed_dictionaries({}, optional={
    "temperature": st.sampled_from([0.0, 0.7, 1.0]),
    "maxOutputTokens": st.integers(1, 65536),
    "stopSequences": st.lists(st.sampled_from(["END", "\n\n"]), max_size=2),
    "thinkingConfig": _thinking_config,
})
_bodies = st.fixed_dictionaries({"contents": st.just(CONTENTS)}, optional={
    "tools": st.just(TOOLS),
    "systemInstruction": st.just({"parts": [{"text": "Be brief."}]}),
    "generationConfig": _generation_config,
})
# A caller who set everything: other settings beside a thinking level the transform has to replace.
FULL = {"contents": CONTENTS, "tools": TOOLS, "systemInstruction": {"parts": [{"text": "Be brief."}]},
        "generationConfig": {"temperature": 0.7, "maxOutputTokens": 2048,
                             "thinkingConfig": {"thinkingLevel": "high", "includeThoughts": True}}}


def _sent(transform, body: dict, effort: str | None) -> tuple[dict, str]:
    before = copy.deepcopy(body)
    sent = transform.transform_request(body, {} if effort is None else {"effort": effort})
    where = f"effort {effort!r}, body {clip_json(before, 500)}, sent {clip_json(sent, 500)}"
    assert body == before, f"transform_request changed the caller's body to {clip_json(body, 500)}; {where}"
    return sent, where


def _thinking(sent: dict) -> dict:
    return (sent.get("generationConfig") or {}).get("thinkingConfig") or {}


@pytest.mark.wire
@given(body=_bodies, effort=st.sampled_from([None, *EFFORTS]))
@example(body=FULL, effort="off").via("a thinking level the caller set, then effort off")
@example(body=FULL, effort="high").via("a thinking level the caller set, then effort high")
def test_thinking_config_sits_in_generation_config(transform, body, effort):
    sent, where = _sent(valid(transform), body, effort)
    if effort is None:
        assert sent == body, f"with no effort asked the body should come back as it was; {where}"
        return
    assert "thinkingConfig" not in sent, (
        f"thinkingConfig is at the top level of the body, where Gemini answers 400 'Unknown name "
        f"\"thinkingConfig\"'; it belongs inside generationConfig; {where}")
    config = sent.get("generationConfig")
    assert isinstance(config, dict) and isinstance(config.get("thinkingConfig"), dict), (
        f"generationConfig should hold a thinkingConfig object for the asked effort; {where}")
    both = {"thinkingBudget", "thinkingLevel"} <= config["thinkingConfig"].keys()
    assert not both, f"thinkingConfig holds both thinkingBudget and thinkingLevel, which Gemini refuses; {where}"
    kept = {k: v for k, v in body.items() if k != "generationConfig"}
    assert {k: sent.get(k) for k in kept} == kept, f"the body's other keys should be kept; {where}"
    settings = {k: v for k, v in (body.get("generationConfig") or {}).items() if k != "thinkingConfig"}
    assert {k: config.get(k) for k in settings} == settings, (
        f"generationConfig's other settings should be kept ({clip_json(settings)}); {where}")


def _rank(thinking: dict) -> float | None:
    """How much a thinkingConfig asks the model to think, comparable across budgets and levels; None: not Gemini's."""
    if "thinkingLevel" in thinking:
        level = thinking["thinkingLevel"]
        return THINKING_LEVELS.index(level) if level in THINKING_LEVELS else None
    budget = thinking.get("thinkingBudget")
    if budget == -1:
        return len(THINKING_LEVELS) - 1  # dynamic: the model's own default, as high as a level goes
    if isinstance(budget, int) and not isinstance(budget, bool) and budget >= 0:
        return 0 if budget == 0 else 1 + budget / 1_000_000
    return None


def _off(thinking: dict) -> bool:
    return thinking.get("thinkingBudget") == 0 or thinking.get("thinkingLevel") == "minimal"


_PLAIN_AND_FULL = pytest.mark.parametrize("body", [{"contents": CONTENTS}, FULL], ids=["plain", "caller-set-a-level"])


def _ranked(transform, body: dict, effort: str) -> tuple[dict, float, str]:
    sent, where = _sent(transform, body, effort)
    thinking = _thinking(sent)
    rank = _rank(thinking)
    assert rank is not None, (
        f"thinkingConfig {clip_json(thinking)} is neither a thinkingBudget (-1, 0 or more) nor a thinkingLevel "
        f"Gemini has ({', '.join(THINKING_LEVELS)}); {where}")
    return thinking, rank, where


@pytest.mark.provider
@_PLAIN_AND_FULL
@pytest.mark.parametrize("effort", EFFORTS)
def test_off_turns_thinking_off_and_every_other_effort_on(transform, body, effort):
    thinking, _, where = _ranked(valid(transform), body, effort)
    if effort == "off":
        assert _off(thinking), f"effort 'off' should send thinkingBudget 0 (or thinkingLevel 'minimal'); {where}"
    else:
        assert not _off(thinking), f"effort {effort!r} should leave thinking on; {where}"


@pytest.mark.provider
@_PLAIN_AND_FULL
def test_a_higher_effort_never_thinks_less(transform, body):
    transform = valid(transform)
    ranks = {effort: _ranked(transform, body, effort)[1] for effort in EFFORTS}
    ladder = [ranks[e] for e in EFFORTS]
    assert ladder == sorted(ladder), (
        f"a higher effort should never think less than a lower one; thinking by effort {clip_json(ranks)}")
    assert ranks["high"] > ranks["low"], (
        f"effort 'high' should think more than 'low' (a slider that changes nothing); by effort {clip_json(ranks)}")
