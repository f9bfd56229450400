"""Contract: each effort reaches a Gemini model as a thinking budget that model takes.

Incident: `gemini-thinking-budget`: Gemini 2.5's models take thinking budgets
in ranges of their own, and the Pro model cannot turn thinking off; an
effort slider mapped to one budget table for every model has its highest
position refused on Flash and its "off" refused on Pro.

Rule: ``transform_request(body, {"effort": e, "model": M})`` of a
generateContent body (``M``: the model the request goes to, which Gemini
names in the URL; as Google names it and as a gateway does, ``google/...``),
for the model of every Gemini row of the model table
(:mod:`harness.rules.models`; ``--model`` picks one) and one model it does
not know, for every effort: the ``thinkingBudget`` sent, if any, is ``-1``
(dynamic) or within the model's range, and ``0`` only where the model can
turn thinking off; "off" on a model that always thinks asks for as little
thinking as it takes (no ``0``), and every other effort thinks.

Level: provider (Gemini's budget ranges, per model).

Production fingerprint: HTTP 400 "The thinking budget (32768) is invalid."
at the highest effort on one model only; "Budget 0 is invalid. This model
only works in thinking mode." when the user turns thinking off on Pro.
"""

import pytest

from harness.adapter import EFFORTS
from harness.clip import clip_json
from harness.rules import gemini_thinking
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.provider, pytest.mark.formats("gemini")]

BODY = {"contents": [{"role": "user", "parts": [{"text": "What is the weather in Paris?"}]}],
        "generationConfig": {"temperature": 0.7}}


@pytest.mark.parametrize("effort", EFFORTS)
@pytest.mark.parametrize("named", ["as Google names it", "through a gateway"])
def test_each_effort_is_a_budget_the_model_takes(transform, model_row, effort, named):
    model = model_row.example if named == "as Google names it" else f"google/{model_row.example}"
    options = {"effort": effort, "model": model}
    out = valid(transform).transform_request(BODY, options)
    io = f"\n  model: {model_row.describe()}\n  options: {options}\n  sent: {clip_json(out.get('generationConfig'))}"
    refused = gemini_thinking.refusals(out, model_row)
    assert not refused, f"Gemini refuses it: {refused}{io}"
    budget = gemini_thinking.budget_of(out)
    if effort != "off":
        assert budget != 0, f"effort {effort!r} should think, but sent a budget of 0{io}"
