"""What Gemini refuses in a generateContent body: each refusal with its rule, its path and Gemini's exact text."""

from __future__ import annotations

import base64
import copy
import json

from harness.rules import gemini_history as rules
from harness.rules.gemini_history import current_turn, refusals

SIG = "CiQBcsjafL3k7Zq0YF0b"


def _call(name: str, signature: str | None = None, **args) -> dict:
    part = {"functionCall": {"name": name, "args": args}}
    return part if signature is None else {**part, "thoughtSignature": signature}


def _response(name: str) -> dict:
    return {"functionResponse": {"name": name, "response": {"result": "ok"}}}


def _user(*parts) -> dict:
    return {"role": "user", "parts": list(parts) or [{"text": "Weather in Oslo and Bern?"}]}


def _model(*parts) -> dict:
    return {"role": "model", "parts": list(parts)}


PARALLEL = _model({"text": "Looking.", "thought": True}, _call("weather", SIG, city="Oslo"), _call("weather", city="Bern"))
LOOP = [_user(), PARALLEL, _user(_response("weather"), _response("weather")),
        _model(_call("time", "c2lnLTI=")), _user(_response("time")), _model({"text": "Done."})]
SENT = [{"blocks": [{"type": "reasoning", "text": "Looking.", "signature": ""},
                    {"type": "tool_call", "id": "", "name": "weather", "arguments": '{"city": "Oslo"}', "signature": SIG},
                    {"type": "tool_call", "id": "", "name": "weather", "arguments": '{"city":"Bern"}'}]},
        {"blocks": [{"type": "tool_call", "id": "", "name": "time", "arguments": "", "signature": "c2lnLTI="}]},
        {"blocks": [{"type": "text", "text": "Done."}]}]


def _body(contents: list) -> dict:
    return {"contents": contents, "systemInstruction": {"parts": [{"text": "Be brief."}]}}


def _rules(found) -> list[str]:
    return [r.rule for r in found]


def test_a_loop_as_gemini_sent_it_is_refused_nothing():
    assert refusals(_body(LOOP), sent=SENT) == []
    assert refusals(_body(LOOP[:3]), sent=SENT[:1]) == []
    assert set(rules.RULES) == {rules.CALL_NAMED, rules.TEXT_NON_EMPTY, rules.CALL_TURN_PLACED, rules.RESPONSES_COUNTED, rules.CALL_SIGNED,
                                rules.SIGNATURES_AS_SENT, rules.SIGNATURE_BASE64}


def test_a_call_without_a_name_is_refused():
    contents = copy.deepcopy(LOOP)
    contents[3]["parts"][0]["functionCall"]["name"] = ""
    assert refusals(_body(contents)) == [rules.Refusal(rules.CALL_NAMED, "contents.3.parts.0.functionCall.name",
                                                       "function_call.name: Name cannot be empty")]


def test_parallel_calls_as_separate_contents_are_refused_and_all_but_the_first_unsigned():
    split = [_user(), _model(_call("weather", SIG, city="Oslo")), _model(_call("weather", city="Bern")),
             _user(_response("weather"), _response("weather"))]
    found = refusals(_body(split))
    assert _rules(found) == [rules.RESPONSES_COUNTED, rules.CALL_TURN_PLACED, rules.RESPONSES_COUNTED,
                             rules.CALL_SIGNED]
    assert found[1].path == "contents.2" and found[1].message.startswith("Please ensure that function call turn comes")
    assert found[3].message == (
        "Function call is missing a thought_signature in functionCall parts. This is required for tools to work "
        "correctly, and missing thought_signature may lead to degraded model performance. Additional data, function "
        "call `default_api:weather` , position 3. Please refer to https://ai.google.dev/gemini-api/docs/"
        "thought-signatures for more details.")


def test_a_call_turn_that_opens_the_history_is_refused():
    assert _rules(refusals(_body(LOOP[1:]))) == [rules.CALL_TURN_PLACED]


def test_a_response_short_or_extra_is_refused_and_an_open_call_turn_is_not_judged():
    for answered in ([_response("weather")], [_response("weather")] * 3, [{"text": "ok"}, {"text": "ok"}]):
        contents = [*LOOP[:2], _user(*answered)]
        found = refusals(_body(contents))
        assert _rules(found) == [rules.RESPONSES_COUNTED] and found[0].path == "contents.2", answered
        assert found[0].message == ("Please ensure that the number of function response parts is equal to the number "
                                    "of function call parts of the function call turn.")
    assert refusals(_body(LOOP[:2])) == []


def test_the_first_call_of_each_step_of_the_current_turn_is_signed():
    contents = copy.deepcopy(LOOP)
    del contents[3]["parts"][0]["thoughtSignature"]
    found = refusals(_body(contents))
    assert _rules(found) == [rules.CALL_SIGNED] and found[0].path == "contents.3.parts.0"
    assert "`default_api:time` , position 4." in found[0].message
    assert refusals(_body(contents), signed_calls=False) == []
    # An earlier turn (before the last user question) is not validated.
    assert refusals(_body([*contents, _user(), _model({"text": "Hi"})])) == []
    assert current_turn(contents) == 1


def test_a_signature_changed_moved_or_added_is_corrupted():
    changed = copy.deepcopy(LOOP)
    changed[1]["parts"][1]["thoughtSignature"] = SIG + "A"
    moved = copy.deepcopy(LOOP)
    moved[1]["parts"][2]["thoughtSignature"] = moved[1]["parts"][1].pop("thoughtSignature")
    added = copy.deepcopy(LOOP)
    added[1]["parts"][2]["thoughtSignature"] = SIG
    for contents, path in ((changed, "contents.1.parts.1"), (moved, "contents.1.parts.2"), (added, "contents.1.parts.2")):
        found = [r for r in refusals(_body(contents), sent=SENT) if r.rule == rules.SIGNATURES_AS_SENT]
        assert [(r.path, r.message) for r in found] == [(f"{path}.thoughtSignature", "Corrupted thought signature.")]


def test_parts_left_out_move_no_signature():
    trimmed = copy.deepcopy(LOOP)
    del trimmed[1]["parts"][0]  # the thought summary
    assert refusals(_body(trimmed), sent=SENT) == []


def test_an_empty_text_part_is_refused_unless_it_carries_a_signature():
    contents = [*LOOP[:-1], _model({"text": "Done."}, {"text": "", "thoughtSignature": "c2ln"})]
    assert refusals(_body(contents)) == []
    contents[-1]["parts"][1] = {"text": ""}
    found = refusals(_body(contents))
    assert [(r.rule, r.path) for r in found] == [(rules.TEXT_NON_EMPTY, "contents.5.parts.1.text")]
    assert found[0].message.startswith("Unable to submit request because it has an empty text parameter.")


def test_an_empty_unsigned_part_sent_before_a_signed_one_takes_no_signature():
    sent = [{"blocks": [{"type": "text", "text": ""}, {"type": "text", "text": "", "signature": "c2ln"}]}]
    contents = [_user(), _model({"text": "", "thoughtSignature": "c2ln"})]
    assert refusals(_body(contents), sent=sent) == []


def test_a_signature_in_url_safe_or_unpadded_base64_is_the_same_signature():
    # thoughtSignature is a proto bytes field: Gemini reads standard and URL-safe base64, padded or not.
    standard = base64.b64encode(b"\xfb\xff\xfe\x00>?\x01").decode()  # "+//+AD4/AQ=="
    sent = json.loads(json.dumps(SENT).replace(SIG, standard))
    for written in (standard, base64.urlsafe_b64encode(b"\xfb\xff\xfe\x00>?\x01").decode(), standard.rstrip("=")):
        loop = json.loads(json.dumps(LOOP).replace(SIG, written))
        assert refusals(_body(loop), sent=sent) == [], written
    other = json.loads(json.dumps(LOOP).replace(SIG, base64.b64encode(b"\xfb\xff\xfe\x00>?\x02").decode()))
    assert [r.rule for r in refusals(_body(other), sent=sent)] == [rules.SIGNATURES_AS_SENT]
