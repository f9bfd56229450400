"""Contract: effort reaches Responses as ``reasoning.effort``, in the API's own words, and every slider position means something.

Incident: the effort slider mapped to nothing (incident
`deepseek-thinking-imbalance`); on Responses the same mistake sends chat's
top-level ``reasoning_effort`` (a parameter the Responses API does not
have), a word it does not define (``"off"``), replaces the caller's
``reasoning`` object and with it the ``summary`` the stream's reasoning
summaries depend on, or sends two slider positions as one word.

Rule: ``transform_request(body, {"effort": e})`` of a Responses body (input
and tools, with or without ``instructions``, ``store``, ``include``, a
``reasoning`` object holding a ``summary`` or an effort of its own):

- ``e`` None (not asked): ``reasoning`` comes back as it was, absent if it
  was (``test_effort_sits_in_reasoning``, wire);
- any other ``e`` (same test, wire): ``reasoning`` is an object whose
  ``effort`` is one of the API's words (``none``, ``minimal``, ``low``,
  ``medium``, ``high``, ``xhigh``), beside every other key it held; every
  other key of the body is kept (``include`` is the store contract's); the
  body sent is refused nothing by the Responses request validator
  (:mod:`harness.rules.responses_request`); the caller's body is left as it
  was;
- (``test_each_effort_sends_its_own_rung``, provider) ``low``, ``medium``
  and ``high`` send the API's word of the same name; ``off`` the least
  reasoning a model allows (``none``, or ``minimal`` on models without
  ``none``); ``max`` at least ``high``.

Level: per test, as above. Wire: the Responses API reference's
``reasoning.effort`` values and its request body. Provider: which word a
model reads as the least reasoning (``none`` from gpt-5.1, ``minimal``
before).

Production fingerprint: every request refused once the effort slider is
touched; or a slider whose Medium and High answer alike; or reasoning
summaries that vanish from the stream when an effort is set.
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.adapter import EFFORTS
from harness.clip import clip_json
from harness.rules.responses_request import request_refusals
from harness.under_test.invoke import valid

pytestmark = pytest.mark.formats("openai-responses")

# The API's reasoning.effort words, least reasoning first.
RUNGS = ("none", "minimal", "low", "medium", "high", "xhigh")
INPUT = [{"type": "message", "role": "user", "content": "What is the weather in Paris?"}]
TOOLS = [{"type": "function", "name": "get_weather", "description": "Weather now",
          "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]

_bodies = st.fixed_dictionaries({"model": st.just("gpt-5"), "input": st.just(INPUT)}, optional={
    "tools": st.just(TOOLS),
    "instructions": st.just("Be brief."),
    "store": st.booleans(),
    "stream": st.booleans(),
    "reasoning": st.fixed_dictionaries({}, optional={"summary": st.sampled_from(["auto", "concise", "detailed"]),
                                                     "effort": st.sampled_from(RUNGS)}),
})
# A caller who set everything: a summary and an effort of its own beside the rest.
FULL = {"model": "gpt-5", "input": INPUT, "tools": TOOLS, "instructions": "Be brief.", "store": False,
        "include": ["reasoning.encrypted_content"], "stream": True,
        "reasoning": {"summary": "auto", "effort": "minimal"}}


def _sent(transform, body: dict, effort: str | None) -> tuple[dict, str]:
    before = copy.deepcopy(body)
    sent = transform.transform_request(body, {} if effort is None else {"effort": effort})
    where = f"effort {effort!r}, body {clip_json(before, 500)}, sent {clip_json(sent, 500)}"
    assert body == before, f"transform_request changed the caller's body to {clip_json(body, 500)}; {where}"
    assert isinstance(sent, dict), f"transform_request returned {type(sent).__name__}, not a body; {where}"
    return sent, where


@pytest.mark.wire
@given(body=_bodies, effort=st.sampled_from([None, *EFFORTS]))
@example(body=FULL, effort="off").via("a summary and an effort the caller set, then effort off")
@example(body=FULL, effort="high").via("a summary and an effort the caller set, then effort high")
def test_effort_sits_in_reasoning(transform, body, effort):
    sent, where = _sent(valid(transform), body, effort)
    kept = {k: v for k, v in body.items() if k not in ("reasoning", "include")}
    assert {k: sent.get(k, "<absent>") for k in kept} == kept, f"the body's other keys should be kept; {where}"
    refused = request_refusals(sent)
    assert not refused, f"the Responses API would refuse the body sent: {[r.message for r in refused]}; {where}"
    if effort is None:
        assert sent.get("reasoning", "<absent>") == body.get("reasoning", "<absent>"), (
            f"with no effort asked, reasoning should come back as it was; {where}")
        return
    reasoning = sent.get("reasoning")
    assert isinstance(reasoning, dict) and reasoning.get("effort") in RUNGS, (
        f"reasoning.effort should be one of the API's words ({', '.join(RUNGS)}); got reasoning "
        f"{clip_json(reasoning)}; {where}")
    others = {k: v for k, v in (body.get("reasoning") or {}).items() if k != "effort"}
    assert {k: reasoning.get(k, "<absent>") for k in others} == others, (
        f"reasoning's other keys ({clip_json(others)}) should be kept beside the effort; {where}")


def _rung(transform, body: dict, effort: str) -> tuple[int, str]:
    sent, where = _sent(transform, body, effort)
    word = sent.get("reasoning", {}).get("effort") if isinstance(sent.get("reasoning"), dict) else None
    assert word in RUNGS, f"reasoning.effort {word!r} is not one of the API's words ({', '.join(RUNGS)}); {where}"
    return RUNGS.index(word), where


@pytest.mark.provider
@pytest.mark.parametrize("body", [{"model": "gpt-5", "input": INPUT}, FULL], ids=["plain", "caller-set-an-effort"])
@pytest.mark.parametrize("effort", EFFORTS)
def test_each_effort_sends_its_own_rung(transform, body, effort):
    rung, where = _rung(valid(transform), body, effort)
    if effort == "off":
        assert RUNGS[rung] in ("none", "minimal"), (
            f"effort 'off' should ask for the least reasoning ('none', or 'minimal'), not {RUNGS[rung]!r}; {where}")
    elif effort == "max":
        assert rung >= RUNGS.index("high"), f"effort 'max' should reason at least at 'high'; {where}"
    else:
        assert RUNGS[rung] == effort, (
            f"effort {effort!r} is the API's own word and should be sent as it is, not as {RUNGS[rung]!r}; {where}")
