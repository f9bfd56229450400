"""Contract: thinking reaches Bedrock's Claude models through ``additionalModelRequestFields``; tool blocks never go without ``toolConfig``.

Incident: `bedrock-thinking-misplaced` (Anthropic's ``thinking`` put at the
top level of a Converse body, or in ``inferenceConfig``, where Bedrock
refuses it as an unknown field, or a budget above ``maxTokens``);
`bedrock-tool-config-missing` ("The toolConfig field must be defined when
using toolUse and toolResult content blocks": a history with tool rounds
sent to a step that declares no tools, as summarisers and final-answer
calls do).

Rule: ``transform_request(body, {"effort": e})`` of a Converse body
(``messages``, optional ``system``, ``toolConfig``, ``inferenceConfig``,
``additionalModelRequestFields``) returns a new body, the input unchanged:

- with no effort, the body as it was, except that a body whose messages hold
  ``toolUse`` or ``toolResult`` blocks has a ``toolConfig`` declaring tools
  (the caller's, when it has one, untouched);
- for "low" to "max", ``additionalModelRequestFields.thinking`` is
  ``{"type": "enabled", "budget_tokens": N}`` with N at least 1024 and below
  ``inferenceConfig.maxTokens``, a larger N for a higher level; no
  ``thinking`` anywhere else in the body, the caller's other
  ``additionalModelRequestFields`` kept;
- for "off", no ``thinking`` in the body and no ``reasoningContent`` in the
  final assistant message (with thinking off Claude refuses it there).

Every body returned is one Bedrock accepts (:mod:`harness.rules.bedrock_request`)
with no refusal of its ``toolConfig`` rule.

Level: wire (Bedrock's request schema and Anthropic's thinking parameters).

Production fingerprint: "The model returned the following errors: thinking:
Extra inputs are not permitted", "Malformed input request: extraneous key
[thinking] is not permitted", or the ``toolConfig`` text above, on every
request of a session.
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.adapter import EFFORTS
from harness.clip import clip_json
from harness.rules.bedrock_history import TOOL_CONFIG, refusals
from harness.rules.bedrock_request import request_refusals
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.wire, pytest.mark.formats("bedrock")]

QUESTION = {"role": "user", "content": [{"text": "What is the weather in Paris?"}]}
ROUND = [QUESTION,
         {"role": "assistant", "content": [
             {"reasoningContent": {"reasoningText": {"text": "Look it up.", "signature": "U0lH"}}},
             {"toolUse": {"toolUseId": "tooluse_01", "name": "get_weather", "input": {"city": "Paris"}}}]},
         {"role": "user", "content": [{"toolResult": {"toolUseId": "tooluse_01", "content": [{"text": "18"}],
                                                      "status": "success"}}]}]
ANSWERED = ROUND + [{"role": "assistant", "content": [
    {"reasoningContent": {"reasoningText": {"text": "Done.", "signature": "U0lHMg=="}}}, {"text": "18 C."}]}]
TOOLS = {"tools": [{"toolSpec": {"name": "get_weather", "description": "Weather of a city",
                                 "inputSchema": {"json": {"type": "object"}}}}]}

_bodies = st.fixed_dictionaries({"messages": st.sampled_from([[QUESTION], ROUND, ANSWERED])}, optional={
    "toolConfig": st.just(TOOLS),
    "system": st.just([{"text": "Be brief."}]),
    "inferenceConfig": st.fixed_dictionaries({}, optional={"maxTokens": st.sampled_from([512, 4096, 64000]),
                                                           "temperature": st.just(1.0)}),
    "additionalModelRequestFields": st.sampled_from([{}, {"top_k": 5}, {"thinking": {"type": "disabled"}}]),
})
FULL = {"messages": ROUND, "system": [{"text": "Be brief."}], "inferenceConfig": {"maxTokens": 512},
        "additionalModelRequestFields": {"top_k": 5, "thinking": {"type": "enabled", "budget_tokens": 2048}}}


def _sent(transform, body: dict, effort: str | None) -> tuple[dict, str]:
    before = copy.deepcopy(body)
    sent = transform.transform_request(body, {} if effort is None else {"effort": effort})
    where = f"effort {effort!r}, body {clip_json(before, 600)}, sent {clip_json(sent, 600)}"
    assert body == before, f"transform_request changed the caller's body to {clip_json(body, 500)}; {where}"
    assert isinstance(sent, dict), f"transform_request should return a body; {where}"
    return sent, where


def _has_tool_blocks(body: dict) -> bool:
    return any("toolUse" in b or "toolResult" in b for m in body["messages"] for b in m["content"])


def _accepted(sent: dict, where: str) -> None:
    refused = [(r.path, r.message) for r in request_refusals(sent)]
    refused += [(r.path, r.message) for r in refusals(sent) if r.rule == TOOL_CONFIG]
    assert not refused, f"Bedrock would refuse the body: {refused}; {where}"


@given(body=_bodies, effort=st.sampled_from([None, *EFFORTS]))
@example(body=FULL, effort="high")
@example(body=FULL, effort="off")
@example(body={"messages": ROUND}, effort=None)
def test_thinking_rides_in_additional_model_request_fields(transform, body, effort):
    sent, where = _sent(valid(transform), body, effort)
    _accepted(sent, where)
    if body.get("toolConfig"):
        assert sent.get("toolConfig") == body["toolConfig"], f"the caller's toolConfig should be kept as it was; {where}"
    elif _has_tool_blocks(body):
        assert sent.get("toolConfig"), f"the messages hold tool blocks, so the body needs a toolConfig; {where}"
    assert "thinking" not in sent and "thinking" not in (sent.get("inferenceConfig") or {}), (
        f"thinking belongs in additionalModelRequestFields; at the top level or in inferenceConfig Bedrock "
        f"refuses it; {where}")
    extra = sent.get("additionalModelRequestFields") or {}
    if effort is None:
        assert {k: v for k, v in sent.items() if k != "toolConfig"} == {k: v for k, v in body.items()
                                                                        if k != "toolConfig"}, (
            f"with no effort asked the body should come back as it was; {where}")
        return
    kept = {k: v for k, v in (body.get("additionalModelRequestFields") or {}).items() if k != "thinking"}
    assert {k: v for k, v in extra.items() if k != "thinking"} == kept, (
        f"the caller's other additionalModelRequestFields should be kept: {kept}; {where}")
    if effort == "off":
        assert "thinking" not in extra, f"effort 'off' should send no thinking; {where}"
        finals = [m for m in sent["messages"] if m["role"] == "assistant"][-1:]
        assert not any("reasoningContent" in b for m in finals for b in m["content"]), (
            f"with thinking off the final assistant message should hold no reasoningContent; {where}")
        return
    thinking = extra.get("thinking")
    assert isinstance(thinking, dict) and thinking.get("type") == "enabled", (
        f"effort {effort!r} should enable thinking: additionalModelRequestFields.thinking = "
        f"{{'type': 'enabled', 'budget_tokens': N}}; {where}")
    budget, most = thinking.get("budget_tokens"), (sent.get("inferenceConfig") or {}).get("maxTokens")
    assert isinstance(budget, int) and budget >= 1024, f"budget_tokens should be an integer >= 1024; {where}"
    assert isinstance(most, int) and most > budget, (
        f"inferenceConfig.maxTokens ({most}) should exceed budget_tokens ({budget}); {where}")


def test_a_higher_effort_thinks_more(transform):
    budgets = []
    for effort in EFFORTS[1:]:
        sent, where = _sent(valid(transform), {"messages": [QUESTION]}, effort)
        budgets.append(((sent.get("additionalModelRequestFields") or {}).get("thinking") or {}).get("budget_tokens"))
    assert all(isinstance(b, int) for b in budgets) and budgets == sorted(set(budgets)), (
        f"budget_tokens for {list(EFFORTS[1:])} should grow with the level, each its own: {budgets}")
