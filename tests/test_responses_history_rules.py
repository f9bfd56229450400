"""The Responses history rules (harness.rules.responses_history): each refusal found alone, with its text."""

from harness.rules import responses_history as rules

SENT = [{"blocks": [{"type": "reasoning", "text": "", "signature": "ENC", "item_id": "rs_1", "summary": []},
                    {"type": "tool_call", "id": "call_1", "name": "f", "arguments": "{}", "item_id": "fc_1"}]}]
RS = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "ENC"}
FC = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": "{}"}
OUT = {"type": "function_call_output", "call_id": "call_1", "output": "ok"}
USER = {"type": "message", "role": "user", "content": "go"}


def _rules(items, sent=SENT, store=False):
    return [(r.rule, r.path, r.message) for r in rules.refusals({"input": items, "store": store}, sent)]


def test_the_replay_as_sent_is_refused_nothing():
    assert _rules([USER, RS, FC, OUT]) == []


def test_a_reasoning_item_without_its_following_item():
    assert _rules([USER, RS, OUT], sent=None) == [
        (rules.REASONING_FOLLOWED, "input[1]", "Item 'rs_1' of type 'reasoning' was provided without its required "
                                               "following item."),
        (rules.OUTPUT_ANSWERS_CALL, "input[2]", "No tool call found for function call output with call_id call_1.")]


def test_a_function_call_without_its_reasoning_item():
    assert _rules([USER, FC, OUT]) == [(rules.CALL_WITH_REASONING, "input[1]", "Item 'fc_1' of type 'function_call' "
                                        "was provided without its required 'reasoning' item: 'rs_1'.")]


def test_bare_ids_under_store_false_and_not_with_storage():
    bare = {"type": "reasoning", "id": "rs_1", "summary": []}
    text = "Item with id 'rs_1' not found. Items are not persisted when `store` is set to false."
    assert _rules([USER, bare, FC, OUT]) == [(rules.NOT_STORED, "input[1]", text)]
    assert _rules([USER, {"type": "item_reference", "id": "rs_1"}, FC, OUT])[0] == (rules.NOT_STORED, "input[1]", text)
    assert _rules([USER, bare, FC, OUT], store=True) == []


def test_summary_required_and_encrypted_content_unchanged():
    assert _rules([USER, {k: v for k, v in RS.items() if k != "summary"}, FC, OUT]) == [
        (rules.SUMMARY_REQUIRED, "input[1]", "Input[1] missing required field 'summary'")]
    assert [r[0] for r in _rules([USER, {**RS, "encrypted_content": "ENC2"}, FC, OUT])] == [rules.ENCRYPTED_UNCHANGED]


def test_an_item_with_a_role_and_no_type_is_a_message():
    # The API's easy input message: ``type`` may be left out, and the item is still the reasoning's following item.
    answer = {"role": "assistant", "content": [{"type": "output_text", "text": "Done."}]}
    assert _rules([USER, {**RS, "id": "rs_2"}, answer], sent=None) == []
    assert _rules([USER, {**RS, "id": "rs_2"}, {"content": "no role, no type"}], sent=None)[0][0] == (
        rules.REASONING_FOLLOWED)
