"""The thin adapters around langchain-openai's Responses streaming and the OpenAI Agents SDK.

Each adapter is held to what its library makes of one realistic streamed
turn: reasoning with ``encrypted_content``, a text answer and two parallel
function calls, streamed item after item as the Responses API sends them.
The libraries are the ``langchain-openai`` and ``openai-agents`` packages; a
missing one fails with the install command, or skips under
``HARNESS_SKIP_LIBRARIES=1`` (``tests/library_adapters.py``); their findings' reproductions run
in ``tests/test_library_adapters.py``.
"""

from __future__ import annotations

import json

import pytest

from harness.adapter import capabilities_of, format_of
from library_adapters import library_adapter

# adapter module -> (distribution, import name)
LIBRARIES = {
    "langchain_openai_responses": ("langchain-openai", "langchain_openai"),
    "openai_agents": ("openai-agents", "agents"),
}


def _adapter(module: str):
    distribution, import_name = LIBRARIES[module]
    return library_adapter(module, import_name, distribution)


SHELL = {"id": "resp_68b1", "object": "response", "created_at": 1756315696, "model": "gpt-5-2025-08-07",
         "output": [], "status": "in_progress", "usage": None}
USAGE = {"input_tokens": 812, "input_tokens_details": {"cached_tokens": 512}, "output_tokens": 143,
         "output_tokens_details": {"reasoning_tokens": 64}, "total_tokens": 955}
SUMMARY = ("Both cities need ", "a lookup.")
ENCRYPTED = "gAAAAABo7x+Qz/9kR2w=="
REASONING = {"id": "rs_68b1", "type": "reasoning", "summary": [{"type": "summary_text", "text": "".join(SUMMARY)}],
             "encrypted_content": ENCRYPTED}
TEXT = ("Checking ", "Paris and Oslo.")
PART = {"type": "output_text", "annotations": [], "logprobs": [], "text": "".join(TEXT)}
MESSAGE = {"id": "msg_68b1", "type": "message", "status": "completed", "role": "assistant", "content": [PART]}
CALLS = [("fc_A", "call_A", ('{"city":', '"Paris"}')), ("fc_B", "call_B", ('{"city":', '"Oslo"}'))]


def _call(item_id: str, call_id: str, arguments: str, status: str) -> dict:
    return {"id": item_id, "type": "function_call", "status": status, "call_id": call_id, "name": "get_weather",
            "arguments": arguments}


def _events() -> list[dict]:
    """The turn's events as the Responses API streams them: items one after another, deltas split."""
    where = {"item_id": "rs_68b1", "output_index": 0, "summary_index": 0}
    events = [
        {"type": "response.created", "response": SHELL},
        {"type": "response.in_progress", "response": SHELL},
        {"type": "response.output_item.added", "output_index": 0, "item": {"id": "rs_68b1", "type": "reasoning",
                                                                          "summary": []}},
        {"type": "response.reasoning_summary_part.added", **where, "part": {"type": "summary_text", "text": ""}},
        *({"type": "response.reasoning_summary_text.delta", **where, "delta": d} for d in SUMMARY),
        {"type": "response.reasoning_summary_text.done", **where, "text": "".join(SUMMARY)},
        {"type": "response.reasoning_summary_part.done", **where, "part": REASONING["summary"][0]},
        {"type": "response.output_item.done", "output_index": 0, "item": REASONING},
    ]
    where = {"item_id": "msg_68b1", "output_index": 1, "content_index": 0}
    events += [
        {"type": "response.output_item.added", "output_index": 1,
         "item": {**MESSAGE, "status": "in_progress", "content": []}},
        {"type": "response.content_part.added", **where, "part": {**PART, "text": ""}},
        *({"type": "response.output_text.delta", **where, "delta": d} for d in TEXT),
        {"type": "response.output_text.done", **where, "text": PART["text"]},
        {"type": "response.content_part.done", **where, "part": PART},
        {"type": "response.output_item.done", "output_index": 1, "item": MESSAGE},
    ]
    done = []
    for n, (item_id, call_id, pieces) in enumerate(CALLS, start=2):
        done.append(_call(item_id, call_id, "".join(pieces), "completed"))
        where = {"item_id": item_id, "output_index": n}
        events += [
            {"type": "response.output_item.added", "output_index": n, "item": _call(item_id, call_id, "", "in_progress")},
            *({"type": "response.function_call_arguments.delta", **where, "delta": d} for d in pieces),
            {"type": "response.function_call_arguments.done", **where, "arguments": "".join(pieces)},
            {"type": "response.output_item.done", "output_index": n, "item": done[-1]},
        ]
    final = {**SHELL, "status": "completed", "output": [REASONING, MESSAGE, *done], "usage": USAGE}
    return [*events, {"type": "response.completed", "response": final}]


def _body(events: list[dict]) -> bytes:
    return "".join(f"event: {e['type']}\ndata: {json.dumps({**e, 'sequence_number': k})}\n\n"
                   for k, e in enumerate(events)).encode()


TURN = {
    "blocks": [
        {"type": "reasoning", "text": "Both cities need a lookup.", "signature": ENCRYPTED, "item_id": "rs_68b1",
         "summary": ["Both cities need a lookup."]},
        {"type": "text", "text": "Checking Paris and Oslo.", "item_id": "msg_68b1"},
        {"type": "tool_call", "id": "call_A", "name": "get_weather", "arguments": '{"city":"Paris"}', "item_id": "fc_A"},
        {"type": "tool_call", "id": "call_B", "name": "get_weather", "arguments": '{"city":"Oslo"}', "item_id": "fc_B"},
    ],
    "stop_reason": "completed",
    "usage": USAGE,
}


@pytest.mark.parametrize("module", LIBRARIES)
def test_each_adapter_decodes_responses_streams_only(module):
    adapter = _adapter(module)
    assert format_of(adapter) == "openai-responses", format_of(adapter)
    assert capabilities_of(adapter) == {"stream"}, capabilities_of(adapter)


@pytest.mark.parametrize("module", LIBRARIES)
def test_a_streamed_turn_is_read_off_the_library(module):
    turn = _adapter(module).parse_stream(_body(_events()))
    assert turn["blocks"] == TURN["blocks"], turn["blocks"]
    assert turn["stop_reason"] == TURN["stop_reason"], turn["stop_reason"]
    assert turn["usage"] == TURN["usage"], turn["usage"]


@pytest.mark.parametrize("module", LIBRARIES)
def test_a_failed_or_incomplete_response_raises(module):
    events = _events()
    for end in ({"type": "response.failed", "response": {**SHELL, "status": "failed",
                                                          "error": {"code": "server_error", "message": "failed"}}},
                {"type": "response.incomplete", "response": {**SHELL, "status": "incomplete", "incomplete_details":
                                                              {"reason": "max_output_tokens"}}}):
        with pytest.raises(Exception) as raised:
            _adapter(module).parse_stream(_body([*events[:-1], end]))
        assert not isinstance(raised.value, (TypeError, AttributeError, LookupError)), raised.value


def test_the_agents_sdk_refuses_a_stream_cut_before_completed():
    from agents.exceptions import ModelBehaviorError

    with pytest.raises(ModelBehaviorError):
        _adapter("openai_agents").parse_stream(_body(_events()[:-1]))




def test_the_agents_sdk_takes_the_done_items_when_completed_lists_none():
    """The run loop's own fallback for backends that leave ``response.completed``'s output empty."""
    events = _events()
    whole = _adapter("openai_agents").parse_stream(_body(events))
    emptied = [*events[:-1], {**events[-1], "response": {**events[-1]["response"], "output": []}}]
    assert whole["blocks"] and _adapter("openai_agents").parse_stream(_body(emptied)) == whole
