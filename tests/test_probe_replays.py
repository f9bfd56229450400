"""The probe's own checks on recorded sessions: text in every form the format allows, calls judged by structure first.

Each test records a two-request session by hand (a tool round or an answer
streamed, then the agent's next request) and runs the probe's checks on it,
so what is judged is exactly the request shown.
"""

from __future__ import annotations

import json

from harness.loopback.exchanges import Exchange
from harness.loopback.probe_checks import Run, check_session
from harness.loopback.provider_profiles import OpenAIProfile
from harness.loopback.scenarios import SCENARIOS, Streamed
from harness.outcomes.checks import FAILED, PASSED

PROMPT = "What is the weather in Oslo, Paris and Rome?"
SYSTEM = {"role": "system", "content": "You are an agent. Your tools: get_weather (the weather in a city)."}
CALLS = [{"id": f"call_{k}", "name": "get_weather", "arguments": json.dumps({"city": city})}
         for k, city in enumerate(("Oslo", "Paris", "Rome"))]
ANSWER = "Oslo 4, Paris 18, Rome 22."


def _exchange(number: int, messages: list[dict], streamed: Streamed | None) -> Exchange:
    body = json.dumps({"model": "m", "stream": True, "messages": messages}).encode()
    return Exchange(number, "POST", "/v1/chat/completions", {}, body, status=200, streamed=streamed)


def _statuses(exchanges: list[Exchange]) -> dict[str, str]:
    run = Run(0, PROMPT, [], 0, "", "", 1, len(exchanges))
    return {r.rule: r.status for r in check_session(SCENARIOS["parallel-12"], OpenAIProfile(), exchanges, [run])}


ASKED = [SYSTEM, {"role": "user", "content": PROMPT}]
TOOL_ROUND = _exchange(1, ASKED, Streamed(0, 0, calls=CALLS))
RESULTS = [{"role": "tool", "tool_call_id": c["id"], "content": "18"} for c in CALLS]


def _round_replayed(assistant: dict, results: list[dict] = RESULTS) -> list[Exchange]:
    return [TOOL_ROUND, _exchange(2, [*ASKED, assistant, *results], Streamed(0, 1, text=ANSWER))]


def _call(call: dict) -> dict:
    return {"id": call["id"], "type": "function", "function": {"name": call["name"], "arguments": call["arguments"]}}


def test_a_faithful_replay_passes():
    statuses = _statuses(_round_replayed({"role": "assistant", "content": None, "tool_calls": list(map(_call, CALLS))}))
    assert statuses["calls-carried"] == PASSED and statuses["calls-structured"] == PASSED, statuses


def test_garbled_calls_are_a_wire_failure_not_a_style():
    """An empty id and name: the names are still in the system prompt, but the calls went back as structure."""
    garbled = [{"id": "", "type": "function", "function": {"name": "", "arguments": c["arguments"]}} for c in CALLS]
    statuses = _statuses(_round_replayed({"role": "assistant", "content": None, "tool_calls": garbled}, []))
    assert statuses["calls-carried"] == FAILED, statuses
    assert statuses["calls-structured"] == PASSED, f"a garbled structured call is no text replay: {statuses}"


def test_three_calls_merged_into_one_are_a_wire_failure():
    merged = {**_call(CALLS[0]), "function": {"name": "get_weather",
                                              "arguments": "".join(c["arguments"] for c in CALLS)}}
    statuses = _statuses(_round_replayed({"role": "assistant", "content": None, "tool_calls": [merged]}, RESULTS[:1]))
    assert statuses["calls-carried"] == FAILED, statuses
    assert statuses["calls-structured"] == PASSED, statuses


def test_calls_replayed_in_the_assistants_words_are_a_style():
    said = {"role": "assistant", "content": "Calling tools:\n" + json.dumps(CALLS)}
    statuses = _statuses(_round_replayed(said, [{"role": "user", "content": "Observation: 4, 18, 22"}]))
    assert statuses["calls-structured"] == FAILED, statuses
    assert statuses["calls-carried"] != FAILED, statuses


def test_a_round_dropped_is_no_text_replay_because_the_system_prompt_names_the_tool():
    statuses = _statuses([TOOL_ROUND, _exchange(2, [*ASKED, {"role": "assistant", "content": "Let me check."}],
                                                Streamed(0, 1, text=ANSWER))])
    assert statuses["calls-structured"] == PASSED, statuses
    assert statuses["calls-carried"] == FAILED, statuses


def _answer_replayed(content: object) -> dict[str, str]:
    answered = _exchange(1, ASKED, Streamed(0, 0, text=ANSWER))
    follow = [*ASKED, {"role": "assistant", "content": content}, {"role": "user", "content": "And Berlin?"}]
    return _statuses([answered, _exchange(2, follow, Streamed(1, 0, text=ANSWER))])


def test_an_answer_sent_back_as_text_parts_is_the_answer():
    parts = [{"type": "text", "text": "Oslo 4, "}, {"type": "text", "text": "Paris 18, Rome 22."}]
    assert _answer_replayed(parts)["text-carried"] == PASSED
    assert _answer_replayed(ANSWER)["text-carried"] == PASSED


def test_an_answer_changed_is_not_carried_in_any_form():
    assert _answer_replayed([{"type": "text", "text": "Oslo 4."}])["text-carried"] == FAILED
    assert _answer_replayed("Oslo 4.")["text-carried"] == FAILED
