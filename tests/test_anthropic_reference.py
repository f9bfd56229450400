"""The Anthropic reference codec, directly: one interleaved stream, the streams it refuses, the serializer, the thinking switch."""

from __future__ import annotations

import json

import pytest

from harness.reference import anthropic_adapter as ref
from harness.reference.sse import StreamError
from harness.testing import ScriptedModel


def _sse(*events: dict, data_only: bool = False) -> bytes:
    return b"".join(
        (b"" if data_only else f"event: {e['type']}\n".encode()) + f"data: {json.dumps(e)}\n\n".encode()
        for e in events
    )


def _delta(index, **delta):
    return {"type": "content_block_delta", "index": index, "delta": delta}


PING = {"type": "ping"}
START = {"type": "message_start", "message": {"content": [], "usage": {"input_tokens": 10, "output_tokens": 1}}}
EVENTS = [
    START,
    PING,
    {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": "", "signature": ""}},
    _delta(0, type="thinking_delta", thinking="let me "),
    _delta(0, type="thinking_delta", thinking="think"),
    _delta(0, type="signature_delta", signature="sig-A"),
    _delta(0, type="signature_delta", signature="sig-B"),
    _delta(0, type="signature_delta", signature="sig-C=="),
    {"type": "content_block_stop", "index": 0},
    {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}},
    _delta(1, type="text_delta", text="Checking."),
    {"type": "content_block_stop", "index": 1},
    {"type": "content_block_start", "index": 2, "content_block": {"type": "redacted_thinking", "data": "OPAQUE+/="}},
    {"type": "content_block_stop", "index": 2},
    *[e for k, args in ((3, ['', '{"a":', '1}']), (4, [''])) for e in (
        {"type": "content_block_start", "index": k,
         "content_block": {"type": "tool_use", "id": f"toolu_{k}", "name": "t", "input": {}}},
        *[_delta(k, type="input_json_delta", partial_json=p) for p in args],
        {"type": "content_block_stop", "index": k})],
    PING,
    {"type": "content_block_start", "index": 5,
     "content_block": {"type": "tool_use", "id": "toolu_5", "name": "u", "input": {}}},
    _delta(5, type="input_json_delta", partial_json='{"b": [tr'),
    {"type": "content_block_stop", "index": 5},
    {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 42}},
    {"type": "message_stop"},
]
TURN = {
    "blocks": [
        {"type": "reasoning", "text": "let me think", "signature": "sig-Asig-Bsig-C=="},
        {"type": "text", "text": "Checking."},
        {"type": "redacted_reasoning", "data": "OPAQUE+/="},
        {"type": "tool_call", "id": "toolu_3", "name": "t", "arguments": '{"a":1}'},
        {"type": "tool_call", "id": "toolu_4", "name": "t", "arguments": ""},
        {"type": "tool_call", "id": "toolu_5", "name": "u", "arguments": '{"b": [tr'},
    ],
    "stop_reason": "tool_use",
    "usage": {"input_tokens": 10, "output_tokens": 42},
}


@pytest.mark.parametrize("data_only", [False, True])
def test_stream_decodes_to_its_turn(data_only):
    assert ref.parse_stream(_sse(*EVENTS, data_only=data_only)) == TURN


def test_interleaved_blocks_decode_by_index():
    a = {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_a", "name": "f"}}
    b = {"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_b", "name": "g"}}
    events = [START, a, b, _delta(1, type="input_json_delta", partial_json='{"y"'),
              _delta(0, type="input_json_delta", partial_json='{"x"'), {"type": "content_block_stop", "index": 0},
              _delta(1, type="input_json_delta", partial_json=": 2}"), {"type": "content_block_stop", "index": 1},
              {"type": "message_delta", "delta": {"stop_reason": "tool_use"}}, {"type": "message_stop"}]
    got = ref.parse_stream(_sse(*events))
    assert [(c["id"], c["arguments"]) for c in got["blocks"]] == [("toolu_a", '{"x"'), ("toolu_b", '{"y": 2}')]


@pytest.mark.parametrize("events, why", [
    (EVENTS[:-1], "before message_stop"),
    ([*EVENTS[:5], {"type": "error", "error": {"type": "overloaded_error"}}], "error"),
    ([*EVENTS[:2], _delta(7, type="text_delta", text="x")], "never started"),
    ([*EVENTS[:3], _delta(0, type="text_delta", text="x")], "'text_delta' delta in a reasoning block"),
    ([EVENTS[2], START, *EVENTS[3:]], "content_block_start before message_start"),
    ([START, EVENTS[2], *EVENTS[3:8], *EVENTS[-2:]], r"block\(s\) \[0\] never stopped"),
    ([*EVENTS[:9], _delta(0, type="thinking_delta", thinking="x")], "after the block's content_block_stop"),
])
def test_refused_streams_raise(events, why):
    with pytest.raises(StreamError, match=why):
        ref.parse_stream(_sse(*events))


def test_serializer_keeps_blocks_and_order():
    blocks = TURN["blocks"][:5]
    wire = ref.serialize_message({"role": "assistant", "blocks": [*blocks, {"type": "text", "text": ""}]})
    assert [b["type"] for b in wire["content"]] == ["thinking", "text", "redacted_thinking", "tool_use", "tool_use"]
    assert wire["content"][0]["signature"] == "sig-Asig-Bsig-C=="
    assert wire["content"][2]["data"] == "OPAQUE+/="
    assert [b["input"] for b in wire["content"][3:]] == [{"a": 1}, {}]
    user = ref.serialize_message({"role": "user", "content": "next", "tool_results": [
        {"tool_call_id": "toolu_3", "content": "r3"}, {"tool_call_id": "toolu_4", "content": "r4"}]})
    assert [b.get("tool_use_id", b["type"]) for b in user["content"]] == ["toolu_3", "toolu_4", "text"]


def test_serializer_wraps_arguments_that_are_not_an_object():
    for arguments in ('{"b": [tr', "[1]"):
        wire = ref.serialize_message({"role": "assistant", "blocks": [{**TURN["blocks"][5], "arguments": arguments}]})
        assert wire["content"] == [{"type": "tool_use", "id": "toolu_5", "name": "u",
                                    "input": {"INVALID_JSON": arguments}}]


BODY = {"model": "m", "max_tokens": 2000, "stream": True, "messages": [
    {"role": "user", "content": "q"},
    {"role": "assistant", "content": [{"type": "thinking", "thinking": "t", "signature": "s"},
                                      {"type": "text", "text": "a"}]},
    {"role": "user", "content": "q2"},
    {"role": "assistant", "content": [{"type": "redacted_thinking", "data": "d"},
                                      {"type": "tool_use", "id": "x", "name": "n", "input": {}}]},
]}


def test_thinking_switch():
    before = json.dumps(BODY)
    assert ref.transform_request(BODY, {}) == BODY
    off = ref.transform_request({**BODY, "thinking": {"type": "enabled", "budget_tokens": 1024}}, {"effort": "off"})
    assert "thinking" not in off
    assert off["messages"][1] == BODY["messages"][1]
    assert [b["type"] for b in off["messages"][3]["content"]] == ["tool_use"]
    budgets = [ref.transform_request(BODY, {"effort": e})["thinking"]["budget_tokens"]
               for e in ("low", "medium", "high", "max")]
    assert budgets == sorted(set(budgets)) and budgets[0] >= 1024
    high = ref.transform_request(BODY, {"effort": "high"})
    assert high["max_tokens"] > high["thinking"]["budget_tokens"]
    assert json.dumps(BODY) == before


def test_scripted_model_answers_turns_in_anthropic_format():
    model = ScriptedModel([{"blocks": [{"type": "text", "text": "hi"}]}], format="anthropic")
    assert model({"messages": []}) == {"blocks": [{"type": "text", "text": "hi"}], "stop_reason": "end_turn",
                                       "usage": None}
