"""Contract: a user content carries one functionResponse per result first, in order, then its text if it has any.

Incident: the pairing of calls and results is what a history loses first
(incident `batch-path-pairing`); on Gemini a response short or extra is
refused (`gemini-parallel-split`), and so is an empty text part.

Rule: ``serialize_message({"role": "user", "content": str, "tool_results":
[{"tool_call_id", "name", "content"}]})`` writes ``role`` ``user`` and
``parts``: one ``functionResponse`` per result, first, in the results'
order, each with the result's ``name``, its ``id`` exactly when the call had
one (``tool_call_id`` not empty), and a ``response`` object holding the
result's text as one of its values (Gemini lets the caller pick the key);
then one text part with the message's text when it is not blank, and none
when it is empty or only whitespace. No text part is empty. The neutral
message is left as it was.

Level: wire (Gemini counts the responses against the calls and refuses an
empty text part with 400).

Production fingerprint: HTTP 400 "Please ensure that the number of function
response parts is equal to the number of function call parts of the
function call turn." or "Unable to submit request because it has an empty
text parameter." on the request after a tool round.
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json, shown
from harness.testing.anthropic_history import texts
from harness.testing.gemini_history import TOOL_NAMES
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.wire, pytest.mark.formats("gemini")]

_results = st.lists(st.builds(lambda n, name, c, ids: {"tool_call_id": f"fc_{n:02d}" if ids else "", "name": name,
                                                       "content": c},
                              st.integers(1, 99), st.sampled_from(TOOL_NAMES), texts, st.booleans()),
                    max_size=12, unique_by=lambda r: r["tool_call_id"] or object())
_users = st.builds(lambda text, results: {"role": "user", "content": text, "tool_results": results},
                   texts | st.text(min_size=1, max_size=20), _results).filter(
    lambda m: m["content"].strip() or m["tool_results"])  # a user message with nothing to say is not one
PINNED = {"role": "user", "content": "And now the folder?", "tool_results": [
    {"tool_call_id": "fc_02", "name": "get_weather", "content": "12\u00b0C"},
    {"tool_call_id": "fc_01", "name": "get_weather", "content": ""},
    {"tool_call_id": "fc_03", "name": "list_dir", "content": "a.txt\nb.txt"}]}
WITHOUT_IDS = {"role": "user", "content": " ", "tool_results": [{**r, "tool_call_id": ""} for r in PINNED["tool_results"]]}


def _response(part: object) -> dict:
    value = part.get("functionResponse") if isinstance(part, dict) else None
    return value if isinstance(value, dict) else {}


def _holds(response: object, content: str) -> bool:
    return isinstance(response, dict) and content in response.values()


@given(message=_users)
@example(message=PINNED)
@example(message=WITHOUT_IDS)
@example(message={"role": "user", "content": "Hello?", "tool_results": []})
def test_responses_open_the_content_then_its_text(messages, message):
    before = copy.deepcopy(message)
    wire = valid(messages).serialize_message(message)
    where = f"\n  neutral: {clip_json(before, 1000)}\n  written: {clip_json(wire, 1000)}"
    assert message == before, f"serialize_message changed the neutral message it was given{where}"
    parts = wire.get("parts") if isinstance(wire, dict) else None
    assert isinstance(wire, dict) and wire.get("role") == "user" and isinstance(parts, list), (
        f"a user content with parts should come back{where}")
    results = message["tool_results"]
    opening = parts[:len(results)]
    names = [_response(p).get("name") if isinstance(p, dict) and "functionResponse" in p else p for p in opening]
    assert names == [r["name"] for r in results], (
        f"the content opens with {shown(names)}, but should open with one functionResponse per result, in order: "
        f"{[r['name'] for r in results]}{where}")
    ids = [_response(p).get("id") for p in opening]
    assert ids == [r["tool_call_id"] or None for r in results], (
        f"the responses' ids are {shown(ids)}, but should be each call's id, absent where it had none: "
        f"{[r['tool_call_id'] or None for r in results]}{where}")
    carried = [_holds(_response(p).get("response"), r["content"]) for p, r in zip(opening, results)]
    assert all(carried), (
        f"each response should be an object holding its result's text as a value; per response: {shown(carried)}"
        f"{where}")
    rest = [p for p in parts[len(results):] if not (isinstance(p, dict) and p.get("text") == "")]
    want_rest = [{"text": message["content"]}] if message["content"].strip() else []
    assert rest == want_rest, f"after the responses should come {shown(want_rest)}, came {shown(rest)}{where}"
    assert not any(isinstance(p, dict) and p.get("text") == "" for p in parts), (
        f"an empty text part was written: Gemini refuses it{where}")
