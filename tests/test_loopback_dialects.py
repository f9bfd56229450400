"""The loopback provider playing a chat endpoint that speaks a reasoning dialect: it streams the values, and refuses
a later request that lost or changed them, in the endpoint's words."""

import copy
import json

import httpx
import pytest

from harness.loopback import LoopbackProvider
from harness.reference import adapter as reference
from harness.rules import chat_dialects, models

# The endpoints' texts as users quoted them, kept apart from the code under test ({} varies).
TEXTS = {
    "reasoning-details": ("thinking is enabled but reasoning_content is missing in assistant tool call message",
                          "Invalid signature in thinking block"),
    "extra-content": ("Unable to submit request because function call `{}` in the {}. content block is missing a "
                      "`thought_signature`.", "Corrupted thought signature."),
}
ROWS = [row for row in models.ROWS if row.dialect]
TOOLS = [{"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}]
USER = {"role": "user", "content": "Compare a.txt and b.txt"}


def _post(provider, row, messages, stream=True):
    return httpx.post(provider.base_url + "/chat/completions", timeout=10,
                      json={"model": row.example, "messages": messages, "tools": TOOLS, "stream": stream})


def _first_round(provider, row) -> dict:
    response = _post(provider, row, [USER])
    assert response.status_code == 200, response.text
    return reference.parse_stream(response.content)


def _follow_up(turn: dict) -> list[dict]:
    message = reference.serialize_message({"role": "assistant", "content": None, "reasoning": None, **{
        k: v for k, v in turn.items() if k in ("tool_calls", "reasoning_details")}})
    results = [{"role": "tool", "tool_call_id": c["id"], "content": "text"} for c in turn["tool_calls"]]
    return [USER, message, *results]


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
def test_the_endpoint_texts_are_its_own(row):
    dialect = chat_dialects.DIALECTS[row.dialect]
    assert (dialect.missing.replace("{name}", "{}").replace("{n}", "{}"), dialect.changed) == TEXTS[row.dialect]


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
def test_values_sent_back_as_they_came_are_taken(row):
    with LoopbackProvider(scenario="parallel-12", profile=row.name) as provider:
        turn = _first_round(provider, row)
        dialect = chat_dialects.DIALECTS[row.dialect]
        carried = turn.get(dialect.field) or [c for c in turn["tool_calls"] if dialect.field in c]
        assert carried, f"the {row.name} endpoint streamed no {dialect.field}: {json.dumps(turn)[:600]}"
        response = _post(provider, row, _follow_up(turn))
    assert response.status_code == 200, response.text
    assert not provider.record.violations, provider.record.violations


def _stripped(turn: dict, field: str) -> dict:
    turn = copy.deepcopy(turn)
    turn.pop(field, None)
    for call in turn["tool_calls"]:
        call.pop(field, None)
    return turn


def _changed(turn: dict, field: str) -> dict:
    turn = copy.deepcopy(turn)
    if field in turn:
        turn[field][0]["signature"] += "A"
    else:
        turn["tool_calls"][0][field]["google"]["thought_signature"] += "A"
    return turn


@pytest.mark.parametrize("how", ["stripped", "changed"])
@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
def test_values_lost_or_changed_are_refused_in_the_endpoints_words(row, how):
    dialect = chat_dialects.DIALECTS[row.dialect]
    with LoopbackProvider(scenario="parallel-12", profile=row.name) as provider:
        turn = _first_round(provider, row)
        broken = (_stripped if how == "stripped" else _changed)(turn, dialect.field)
        response = _post(provider, row, _follow_up(broken))
    missing, changed = TEXTS[row.dialect]
    wanted = missing.format(turn["tool_calls"][0]["name"], 2) if how == "stripped" else changed
    assert (response.status_code, response.json()["error"]["message"]) == (400, wanted), response.text
    refused = [v for v in provider.record.violations if v.refused]
    assert [(v.rule, v.level, v.message_index) for v in refused[:1]] == [("reasoning-dialect-kept", "provider", 1)]


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
def test_a_round_the_endpoint_did_not_serve_is_not_judged(row):
    calls = [{"id": "call_a", "type": "function", "function": {"name": "read_file", "arguments": "{}"}}]
    messages = [USER, {"role": "assistant", "content": None, "tool_calls": calls},
                {"role": "tool", "tool_call_id": "call_a", "content": "a"}]
    with LoopbackProvider(scenario="parallel-12", profile=row.name) as provider:
        response = _post(provider, row, messages)
    assert response.status_code == 200 and not provider.record.violations, provider.record.violations
