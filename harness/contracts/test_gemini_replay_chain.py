"""Contract: a whole tool loop replayed through the serializer is a history Gemini accepts, every part in place.

Incident: `gemini-parallel-split`, `gemini-signature-aggregation` and the
pairing incident `batch-path-pairing`, along the chain production runs: each
round's model turn and its function responses, serialized one after another,
sent as the next request.

Rule: for any loop of 1 to 3 rounds of parallel calls (ids or none, the
first call of each round signed) and a final answer, the contents
``[question, model, responses, model, responses, ..., model]`` written by
``serialize_message`` are refused nothing by Gemini, the turns as it sent
them (every step's first call signed, no signature changed, moved or added,
each call turn after a user content, each answered by as many responses, no
empty text). Each model content keeps its parts as received, and the user
content after it names the calls it answers, in their order.

Level: wire (Gemini's history rules and the 400s it answers).

Production fingerprint: the request after the second tool round fails with
"Function call is missing a thought_signature" or "Please ensure that the
number of function response parts is equal to the number of function call
parts", and every later one of the session too.
"""

import pytest
from hypothesis import given

from harness.clip import clip_json, shown
from harness.contracts.gemini_parts_kept import assert_parts_kept
from harness.rules.gemini_history import parts_of, refusals
from harness.testing import gemini_tool_loops as tool_loops, gemini_wire_content as wire_content
from harness.testing.gemini_history import calls_of, results_for
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.wire, pytest.mark.formats("gemini")]


@given(loop=tool_loops())
def test_a_replayed_loop_is_a_history_gemini_accepts(messages, loop):
    serialize = valid(messages).serialize_message
    contents = [{"role": "user", "parts": [{"text": "What now?"}]}]
    for k, turn in enumerate(loop):
        contents.append(serialize({"role": "assistant", "blocks": turn["blocks"]}))
        if calls_of(turn):
            results = results_for(turn, [f"result {k}.{j}" for j in range(len(calls_of(turn)))])
            contents.append(serialize({"role": "user", "content": "", "tool_results": results}))
    where = f"\n  loop: {clip_json(loop, 1500)}\n  contents: {clip_json(contents, 2000)}"
    refused = refusals({"contents": contents}, sent=loop)
    assert not refused, f"Gemini would answer 400: {[(r.path, r.message) for r in refused]}{where}"
    models = [c for c in contents if isinstance(c, dict) and c.get("role") == "model"]
    assert len(models) == len(loop), f"{len(models)} model contents for {len(loop)} turns{where}"
    for turn, content in zip(loop, models):
        assert_parts_kept(parts_of(content), wire_content(turn)["parts"], where.lstrip())
    answered = [[(p.get("functionResponse") or {}).get("name") for p in parts_of(contents[n + 1])]
                for n, c in enumerate(contents[:-1])
                if isinstance(c, dict) and c.get("role") == "model" and any("functionCall" in p for p in parts_of(c))]
    asked = [[c["name"] for c in calls_of(t)] for t in loop if calls_of(t)]
    assert answered == asked, f"the responses name {shown(answered)}, but should answer {shown(asked)}{where}"
