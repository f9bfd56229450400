"""What the newer formats' providers accept is accepted, and an opaque value is judged before any shape.

Each case is a replay the provider takes (adjacent unsigned texts sent as one,
tool results and the next question as two user messages, an empty tool result
as ``content: []``, a message item without text left out), or one it refuses
(a signed part merged or its signature moved) whose report must name the
signature first.
"""

from __future__ import annotations

import pytest

from harness.contracts.gemini_parts_kept import assert_parts_kept
from harness.contracts.responses_checks import assert_items_kept
from harness.rules import anthropic_history as anthropic
from harness.testing.gemini_history import part_changes

SIG = "c2lnbmVk"
SENT = [{"text": "Plan: ", "thought": True}, {"text": "check both.", "thought": True},
        {"text": "Checking "}, {"text": "Oslo."},
        {"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}}, "thoughtSignature": SIG},
        {"functionCall": {"name": "get_weather", "args": {"city": "Rome"}}}]
MERGED = [{"text": "Plan: check both.", "thought": True}, {"text": "Checking Oslo."}, *SENT[4:]]


def test_adjacent_unsigned_texts_sent_back_as_one_are_the_same_parts():
    assert part_changes(MERGED, SENT) == {}
    assert part_changes(SENT, SENT) == {}


def test_unsigned_texts_of_two_kinds_are_never_one_run():
    assert "order" in part_changes([{"text": "Plan: check both.Checking Oslo."}, *SENT[4:]], SENT)


def test_a_signed_part_merged_with_its_neighbour_is_a_signature_change():
    signed = [{"text": "Let me "}, {"text": "look.", "thoughtSignature": SIG}]
    assert "signatures" in part_changes([{"text": "Let me look.", "thoughtSignature": SIG}], signed)


def test_a_moved_signature_is_reported_before_the_shape():
    moved = [MERGED[0], {"text": "Checking Oslo.", "thoughtSignature": SIG},
             {"functionCall": SENT[4]["functionCall"]}, {"text": "extra"}, SENT[5]]
    with pytest.raises(AssertionError, match="signed part"):
        assert_parts_kept(moved, SENT, "replay")
    to_second_call = [*MERGED[:2], {"functionCall": SENT[4]["functionCall"]}, {**SENT[5], "thoughtSignature": SIG}]
    assert "signatures" in part_changes(to_second_call, SENT)


QUESTION = {"role": "user", "content": "Weather?"}
CALLED = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "w", "input": {}}]}
RESULTS = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": []}]}


def test_tool_results_and_the_next_question_may_be_two_user_messages():
    body = {"messages": [QUESTION, CALLED, RESULTS, {"role": "user", "content": "And Rome?"}]}
    assert anthropic.refusals(body) == []


def test_two_user_questions_in_a_row_are_still_refused():
    body = {"messages": [QUESTION, {"role": "user", "content": "And Rome?"}]}
    assert [r.rule for r in anthropic.refusals(body)] == [anthropic.ROLES_ALTERNATE]


@pytest.mark.parametrize("content, text", [([], ""), ("", ""), (None, None), ("4", "4"),
                                           ([{"type": "text", "text": "4"}, {"type": "text", "text": "2"}], "42"),
                                           ([{"type": "image", "source": {}}], None)])
def test_a_tool_results_text_in_every_form(content, text):
    assert anthropic.tool_result_text({"type": "tool_result", "content": content}) == text
    assert anthropic.tool_result_text({"type": "tool_result"}) == ""


TURN = {"blocks": [{"type": "reasoning", "text": "", "signature": "enc-1", "item_id": "rs_1", "summary": []},
                   {"type": "text", "text": "", "item_id": "msg_1"},
                   {"type": "tool_call", "id": "call_1", "name": "w", "arguments": "{}", "item_id": "fc_1"}]}
REASONING = {"id": "rs_1", "type": "reasoning", "summary": [], "encrypted_content": "enc-1"}
CALL = {"id": "fc_1", "type": "function_call", "call_id": "call_1", "name": "w", "arguments": "{}"}
EMPTY_MESSAGE = {"id": "msg_1", "type": "message", "role": "assistant",
                 "content": [{"type": "output_text", "text": ""}]}


def test_a_message_item_without_text_may_be_left_out_or_kept():
    assert_items_kept([REASONING, CALL], TURN, "")
    assert_items_kept([REASONING, EMPTY_MESSAGE, CALL], TURN, "")


def test_encrypted_content_is_judged_before_the_items_shape():
    with pytest.raises(AssertionError, match="encrypted_content"):
        assert_items_kept([CALL, {**REASONING, "encrypted_content": "enc-2"}], TURN, "")


def test_an_id_added_to_a_call_sent_without_one_moves_no_signature():
    from harness.rules.gemini_history import refusals

    sent = {"blocks": [{"type": "tool_call", "id": "", "name": "get_weather", "arguments": '{"city": "Oslo"}',
                        "signature": SIG}]}
    call = {"name": "get_weather", "args": {"city": "Oslo"}}
    back = [{"role": "user", "parts": [{"text": "Oslo?"}]},
            {"role": "model", "parts": [{"functionCall": {**call, "id": "adk-1"}, "thoughtSignature": SIG}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "id": "adk-1", "response": {}}}]}]
    assert refusals({"contents": back}, sent=[sent]) == []
    moved = [back[0], {"role": "model", "parts": [{"functionCall": {**call, "args": {"city": "Rome"}},
                                                     "thoughtSignature": SIG}]}, back[2]]
    assert [r.rule for r in refusals({"contents": moved}, sent=[sent])] == ["gemini-signatures-as-sent"]
