"""The Gemini reference (harness.reference:gemini_adapter) tested directly: decoder, serializer, request builder."""

import copy
import json

import pytest

from harness.adapter import load_adapter
from harness.testing.gemini_incident import PARALLEL, PARALLEL_PLAN, SIGNATURE, SIGNED_ANSWER
from harness.reference import gemini_adapter as reference
from harness.reference.sse import StreamError
from harness.wire.gemini_events import Plan, frame, turn_body, turn_chunks


def test_the_reference_speaks_gemini_with_codec_kernel_and_memory():
    loaded = load_adapter("harness.reference:gemini_adapter")
    assert loaded.format == "gemini"
    assert loaded.capabilities == {"stream", "messages", "request", "kernel", "memory"}


def test_a_stream_decodes_part_by_part_with_each_signature_on_its_part():
    got = reference.parse_stream(turn_body(PARALLEL, PARALLEL_PLAN))
    assert [b["type"] for b in got["blocks"]] == ["reasoning", "text", "tool_call", "tool_call", "tool_call"]
    calls = [b for b in got["blocks"] if b["type"] == "tool_call"]
    assert [c.get("signature") for c in calls] == [SIGNATURE, None, None]
    assert json.loads(calls[1]["arguments"]) == {"city": "Oslo", "days": [1, 2], "extra": {"wind": True, "gust": None}}
    assert calls[2]["arguments"] == "" and all(c["id"] == "" for c in calls)
    assert got["stop_reason"] == "STOP" and got["usage"] == PARALLEL["usage"]


def test_a_signature_on_an_empty_final_text_part_is_kept_there():
    got = reference.parse_stream(turn_body(SIGNED_ANSWER, Plan(groups=(2, 1))))
    assert got["blocks"] == SIGNED_ANSWER["blocks"]


def test_a_part_that_carries_only_a_signature_is_an_empty_signed_text():
    chunk = {"candidates": [{"content": {"role": "model", "parts": [{"thoughtSignature": "c2ln"}]},
                             "finishReason": "STOP"}]}
    assert reference.parse_stream(frame([chunk]))["blocks"] == [{"type": "text", "text": "", "signature": "c2ln"}]


@pytest.mark.parametrize("plan", [Plan(cut=2), Plan(error=2), Plan(cut=0)], ids=["cut", "error", "empty"])
def test_an_incomplete_or_failed_stream_raises(plan):
    with pytest.raises(StreamError):
        reference.parse_stream(turn_body(PARALLEL, plan))


def test_a_body_cut_inside_its_last_chunk_raises():
    body = turn_body(PARALLEL, PARALLEL_PLAN)
    with pytest.raises(StreamError):
        reference.parse_stream(body[: body.rindex(b"finishReason")])


@pytest.mark.parametrize("part", [{"functionCall": {"name": "f", "args": "{}"}}, {"inlineData": {}}, {"text": 3},
                                  {"functionCall": {"args": {}}}, {"text": "a", "thoughtSignature": 5}])
def test_a_part_it_cannot_read_raises(part):
    chunks = turn_chunks(SIGNED_ANSWER)
    chunks[0]["candidates"][0]["content"]["parts"] = [part]
    with pytest.raises(StreamError):
        reference.parse_stream(frame(chunks))


def test_a_model_turn_is_one_content_its_parts_in_order_signatures_in_place():
    message = {"role": "assistant", "blocks": copy.deepcopy(PARALLEL["blocks"])}
    before = copy.deepcopy(message)
    wire = reference.serialize_message(message)
    assert message == before
    assert wire == {"role": "model", "parts": [
        {"text": PARALLEL["blocks"][0]["text"], "thought": True},
        {"text": PARALLEL["blocks"][1]["text"]},
        {"functionCall": {"name": "get_weather", "args": {"city": "Zürich", "unit": "celsius"}},
         "thoughtSignature": SIGNATURE},
        {"functionCall": {"name": "get_weather",
                          "args": {"city": "Oslo", "days": [1, 2], "extra": {"wind": True, "gust": None}}}},
        {"functionCall": {"name": "get_time", "args": {}}},
    ]}


def test_an_empty_unsigned_text_is_left_out_and_a_signed_one_kept():
    wire = reference.serialize_message({"role": "assistant", "blocks": [
        {"type": "text", "text": ""}, {"type": "reasoning", "text": "", "signature": ""},
        {"type": "text", "text": "", "signature": "c2ln"}]})
    assert wire == {"role": "model", "parts": [{"text": "", "thoughtSignature": "c2ln"}]}


def test_function_responses_open_the_user_content_then_its_text():
    wire = reference.serialize_message({"role": "user", "content": "And now?", "tool_results": [
        {"tool_call_id": "fc_2", "name": "get_time", "content": "14:05"},
        {"tool_call_id": "", "name": "get_weather", "content": ""}]})
    assert wire == {"role": "user", "parts": [
        {"functionResponse": {"name": "get_time", "response": {"result": "14:05"}, "id": "fc_2"}},
        {"functionResponse": {"name": "get_weather", "response": {"result": ""}}},
        {"text": "And now?"}]}


def test_the_thinking_budget_goes_inside_generation_config():
    body = {"contents": [{"role": "user", "parts": [{"text": "Hi"}]}], "generationConfig": {"temperature": 0.2}}
    before = copy.deepcopy(body)
    assert reference.transform_request(body, {}) == body
    sent = reference.transform_request(body, {"effort": "high"})
    assert body == before and "thinkingConfig" not in sent
    assert sent["generationConfig"] == {"temperature": 0.2,
                                        "thinkingConfig": {"thinkingBudget": 24576, "includeThoughts": True}}
    assert reference.transform_request(body, {"effort": "off"})["generationConfig"]["thinkingConfig"] == {
        "thinkingBudget": 0}
    with pytest.raises(ValueError):
        reference.transform_request(body, {"effort": "extreme"})
