"""The OpenAI Responses reference, called directly: decoder, serializer and request builder."""

import pytest

from harness.reference import responses_adapter as reference
from harness.reference.sse import StreamError
from harness.wire.responses_events import Plan, frame, items_of, turn_body, turn_events

TURN = {"blocks": [
    {"type": "reasoning", "text": "ab", "signature": "gAAAA+/=", "item_id": "rs_1", "summary": ["a", "b"]},
    {"type": "text", "text": "Looking.", "item_id": "msg_1"},
    {"type": "tool_call", "id": "call_1", "name": "get_weather", "arguments": '{"city":"Paris"}', "item_id": "fc_1"},
    {"type": "tool_call", "id": "call_2", "name": "list_dir", "arguments": "", "item_id": "fc_2"},
], "stop_reason": "completed", "usage": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}}


def _pieces():
    return ((("a",), ("b",)), (("Look", "", "ing."),), (('{"ci', 'ty":"Paris"}'),), (("",),))


def test_a_turn_decodes_to_itself_items_in_output_index_order():
    assert reference.parse_stream(turn_body(TURN)) == TURN


def test_interleaved_parallel_calls_and_deltas_before_their_item_is_added():
    # Both calls' argument deltas come first, interleaved, before either output_item.added.
    steps = (("added", 0), ("delta", 0), ("delta", 0), ("done", 0), ("added", 1), ("delta", 1), ("delta", 1),
             ("delta", 1), ("done", 1), ("delta", 2), ("delta", 3), ("delta", 2), ("added", 3), ("added", 2),
             ("done", 3), ("done", 2))
    body = turn_body(TURN, Plan(pieces=_pieces(), steps=steps))
    assert reference.parse_stream(body) == TURN


def test_a_delta_without_item_id_goes_to_its_output_index():
    events = turn_events(TURN, Plan(pieces=_pieces()))
    for event in events:
        if event["type"].endswith(".delta"):
            del event["item_id"]
    assert reference.parse_stream(frame(events)) == TURN


@pytest.mark.parametrize("plan", [Plan(end="failed"), Plan(end="incomplete"), Plan(error=5), Plan(cut=8)])
def test_a_turn_that_did_not_complete_raises(plan):
    with pytest.raises(StreamError):
        reference.parse_stream(turn_body(TURN, plan))


def test_every_byte_cut_raises_or_gives_the_whole_turn():
    body = turn_body(TURN)
    for n in range(len(body)):
        try:
            got = reference.parse_stream(body[:n])
        except StreamError:
            continue
        assert got == TURN, n


def test_the_assistant_turn_goes_back_as_its_output_items():
    items = reference.serialize_message({"role": "assistant", "blocks": TURN["blocks"]})
    assert [i["type"] for i in items] == ["reasoning", "message", "function_call", "function_call"]
    assert items[0] == {"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAAA+/=",
                        "summary": [{"type": "summary_text", "text": "a"}, {"type": "summary_text", "text": "b"}]}
    assert items[3]["arguments"] == "{}" and items[2]["call_id"] == "call_1" and items[2]["id"] == "fc_1"
    assert len(items_of(TURN)) == len(items)


def test_tool_results_go_first_then_the_text():
    items = reference.serialize_message({"role": "user", "content": "And?", "tool_results": [
        {"tool_call_id": "call_1", "content": "sunny"}, {"tool_call_id": "call_2", "content": ""}]})
    assert items == [{"type": "function_call_output", "call_id": "call_1", "output": "sunny"},
                     {"type": "function_call_output", "call_id": "call_2", "output": ""},
                     {"type": "message", "role": "user", "content": "And?"}]


def test_store_false_asks_for_encrypted_reasoning_and_effort_is_set():
    body = {"model": "gpt-5", "input": [], "store": False, "include": ["file_search_call.results"]}
    sent = reference.transform_request(body, {"effort": "high"})
    assert sent["include"] == ["file_search_call.results", "reasoning.encrypted_content"]
    assert sent["reasoning"] == {"effort": "high"}
    assert body == {"model": "gpt-5", "input": [], "store": False, "include": ["file_search_call.results"]}
    assert "include" not in reference.transform_request({"model": "gpt-5", "input": []}, {})


def test_the_writer_closes_each_part_before_the_next_opens():
    # The API streams an item's parts one after another: added, deltas, text done, part done; then the next part.
    turn = {"blocks": [
        {"type": "reasoning", "text": "ab", "signature": "ENC", "item_id": "rs_1", "summary": ["a", "b"]},
        {"type": "text", "text": "x", "item_id": "msg_1"}, {"type": "text", "text": "", "item_id": "msg_1"},
        {"type": "text", "text": "z", "item_id": "msg_1"}], "stop_reason": "completed", "usage": None}
    parts = [(e["type"].split(".", 1)[1], e.get("summary_index", e.get("content_index"))) for e in turn_events(turn)
             if "part" in e["type"] or e["type"].endswith("text.done")]
    assert parts == [
        ("reasoning_summary_part.added", 0), ("reasoning_summary_text.done", 0), ("reasoning_summary_part.done", 0),
        ("reasoning_summary_part.added", 1), ("reasoning_summary_text.done", 1), ("reasoning_summary_part.done", 1),
        *[event for k in range(3) for event in (("content_part.added", k), ("output_text.done", k),
                                                 ("content_part.done", k))]]
