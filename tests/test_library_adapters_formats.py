"""The thin adapters around real client libraries on OpenAI Responses and Gemini (``harness.libraries``).

Each adapter is held to what its library does with a realistic stream: the
turn read off openai-python's own Responses accumulator, and the parts of the
chunks google-genai decodes. The libraries are the ``openai`` and
``google-genai`` extras; a missing one fails with the install command, or skips
under ``HARNESS_SKIP_LIBRARIES=1`` (as in ``tests/test_library_adapters.py``).
"""

from __future__ import annotations

import json

import pytest

from harness.adapter import capabilities_of, format_of
from library_adapters import library_adapter

# adapter module -> (distribution, import name, wire format)
LIBRARIES = {
    "openai_responses": ("openai", "openai", "openai-responses"),
    "google_genai": ("google-genai", "google.genai", "gemini"),
}


def _adapter(module: str):
    distribution, import_name, _ = LIBRARIES[module]
    return library_adapter(module, import_name, distribution)


@pytest.mark.parametrize("module", LIBRARIES)
def test_each_adapter_decodes_streams_of_its_format_only(module):
    adapter = _adapter(module)
    assert format_of(adapter) == LIBRARIES[module][2], format_of(adapter)
    assert capabilities_of(adapter) == {"stream"}, capabilities_of(adapter)


SHELL = {"id": "resp_01", "object": "response", "created_at": 1, "model": "gpt-5", "output": [],
         "status": "in_progress", "usage": None}
REASONING = {"id": "rs_01", "type": "reasoning", "summary": [{"type": "summary_text", "text": "One "},
                                                             {"type": "summary_text", "text": "city."}],
             "encrypted_content": "gAAAAABo+x/9=="}
MESSAGE = {"id": "msg_01", "type": "message", "status": "completed", "role": "assistant",
           "content": [{"type": "output_text", "annotations": [], "logprobs": [], "text": "Checking."}]}
CALL = {"id": "fc_A", "type": "function_call", "status": "completed", "call_id": "call_A", "name": "get_weather",
        "arguments": '{"city":"Oslo"}'}
USAGE = {"input_tokens": 80, "output_tokens": 40, "total_tokens": 120,
         "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 12}}


def _responses_body() -> bytes:
    items = [REASONING, MESSAGE, CALL]
    events = [{"type": "response.created", "response": SHELL}]
    for n, item in enumerate(items):
        events += [{"type": "response.output_item.added", "output_index": n, "item": item},
                   {"type": "response.output_item.done", "output_index": n, "item": item}]
    events.append({"type": "response.completed",
                   "response": {**SHELL, "status": "completed", "output": items, "usage": USAGE}})
    return "".join(f"event: {e['type']}\ndata: {json.dumps({**e, 'sequence_number': k})}\n\n"
                   for k, e in enumerate(events)).encode()


def test_a_responses_turn_is_read_off_the_sdks_final_response():
    turn = _adapter("openai_responses").parse_stream(_responses_body())
    assert turn["blocks"] == [
        {"type": "reasoning", "text": "One city.", "signature": "gAAAAABo+x/9==", "item_id": "rs_01",
         "summary": ["One ", "city."]},
        {"type": "text", "text": "Checking.", "item_id": "msg_01"},
        {"type": "tool_call", "id": "call_A", "name": "get_weather", "arguments": '{"city":"Oslo"}', "item_id": "fc_A"},
    ], turn["blocks"]
    assert turn["stop_reason"] == "completed", turn["stop_reason"]
    assert turn["usage"] == USAGE, turn["usage"]


def test_a_responses_stream_without_completed_raises():
    body = _responses_body()
    cut = body[: body.index(b"event: response.completed")]
    with pytest.raises(RuntimeError):
        _adapter("openai_responses").parse_stream(cut)


def _gemini_body(*chunks: dict) -> bytes:
    return "".join(f"data: {json.dumps(c)}\r\n\r\n" for c in chunks).encode()


THOUGHT = {"candidates": [{"content": {"role": "model", "parts": [
    {"text": "Oslo first.", "thought": True, "thoughtSignature": "c2lnLXRob3VnaHQ="}]}, "index": 0}]}
ANSWER = {"candidates": [{"content": {"role": "model", "parts": [
    {"text": "Checking Oslo."},
    {"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}, "id": "fc_1"}, "thoughtSignature": "c2lnLWNhbGw="},
    {"functionCall": {"name": "get_time"}}]}, "finishReason": "STOP", "index": 0}],
    "usageMetadata": {"promptTokenCount": 96, "candidatesTokenCount": 41, "totalTokenCount": 331}}


def test_a_gemini_turn_keeps_each_signature_on_its_part():
    turn = _adapter("google_genai").parse_stream(_gemini_body(THOUGHT, ANSWER))
    blocks = turn["blocks"]
    assert [b["type"] for b in blocks] == ["reasoning", "text", "tool_call", "tool_call"], blocks
    assert blocks[0] == {"type": "reasoning", "text": "Oslo first.", "signature": "c2lnLXRob3VnaHQ="}, blocks[0]
    assert blocks[1] == {"type": "text", "text": "Checking Oslo."}, blocks[1]
    assert {k: v for k, v in blocks[2].items() if k != "arguments"} == {
        "type": "tool_call", "id": "fc_1", "name": "get_weather", "signature": "c2lnLWNhbGw="}, blocks[2]
    assert json.loads(blocks[2]["arguments"]) == {"city": "Oslo"}, blocks[2]
    assert blocks[3] == {"type": "tool_call", "id": "", "name": "get_time", "arguments": ""}, blocks[3]
    assert turn["stop_reason"] == "STOP", turn["stop_reason"]
    assert turn["usage"] == ANSWER["usageMetadata"], turn["usage"]


def test_a_gemini_part_with_only_a_signature_is_an_empty_text_block():
    ending = {"candidates": [{"content": {"role": "model", "parts": [{"thoughtSignature": "c2ln"}]},
                              "finishReason": "STOP", "index": 0}]}
    turn = _adapter("google_genai").parse_stream(_gemini_body(ending))
    assert turn["blocks"] == [{"type": "text", "text": "", "signature": "c2ln"}], turn["blocks"]


def test_a_gemini_stream_without_a_finish_reason_raises():
    with pytest.raises(ValueError, match="finish_reason"):
        _adapter("google_genai").parse_stream(_gemini_body(THOUGHT))
