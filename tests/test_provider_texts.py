"""The providers' 400 texts added from users' reports: each rule refuses in the provider's exact words, and a
request that keeps the rule is refused nothing."""

from __future__ import annotations

import re

from harness.rules import anthropic_history, gemini_history

# The texts as users pasted them, kept apart from the code under test ({} stands for what varies).
PASTED = {
    "anthropic thinking field": "messages.{}.content.{}.thinking.thinking: Field required",
    "anthropic thinking first": "If an assistant message contains any thinking blocks, the first block must be "
                                "thinking or redacted_thinking. Found text.",
    "gemini signature bytes": "Invalid value at 'request.contents[{}].parts[{}].thought_signature' (TYPE_BYTES), "
                              "Base64 decoding failed",
}
ON = {"type": "enabled", "budget_tokens": 2048}
THINK = {"type": "thinking", "thinking": "Check the weather first.", "signature": "c2lnLTE="}
TEXT = {"type": "text", "text": "Looking it up."}
QUESTION = {"role": "user", "content": "What is the weather?"}


def _generic(text: str) -> str:
    return re.sub(r"\{[a-z]+\}", "{}", text)


def test_the_texts_are_the_providers_own():
    assert _generic(anthropic_history.THINKING_TEXT_TEXT) == "{}" + PASTED["anthropic thinking field"].split(
        "{}.content.{}", 1)[1] and PASTED["anthropic thinking field"].startswith("messages.{}.content.{}")
    assert anthropic_history.THINKING_FIRST_TEXT.format(found="text") == PASTED["anthropic thinking first"]
    assert _generic(gemini_history.BASE64_TEXT) == PASTED["gemini signature bytes"]


def test_a_thinking_block_without_its_thinking_is_refused_where_it_is():
    body = {"thinking": ON, "messages": [QUESTION, {"role": "assistant", "content": [
        {"type": "thinking", "signature": "c2lnLTE="}, TEXT]}]}
    found = [r for r in anthropic_history.refusals(body) if r.rule == anthropic_history.THINKING_TEXT]
    assert [(r.path, r.message) for r in found] == [
        ("messages.1.content.0.thinking.thinking", PASTED["anthropic thinking field"].format(1, 0))]


def test_empty_thinking_is_a_value():
    body = {"thinking": ON, "messages": [QUESTION, {"role": "assistant", "content": [
        {**THINK, "thinking": ""}, TEXT]}]}
    assert anthropic_history.THINKING_TEXT not in [r.rule for r in anthropic_history.refusals(body)]


def test_an_open_message_holding_thinking_after_text_is_refused():
    body = {"thinking": ON, "messages": [QUESTION, {"role": "assistant", "content": [TEXT, THINK]}]}
    found = [r for r in anthropic_history.refusals(body) if r.rule == anthropic_history.THINKING_FIRST]
    assert [(r.path, r.message) for r in found] == [("messages.1.content.0.type", PASTED["anthropic thinking first"])]


def test_thinking_first_or_no_thinking_at_all_is_taken():
    for content in ([THINK, TEXT], [TEXT], [THINK, TEXT, THINK]):
        body = {"thinking": ON, "messages": [QUESTION, {"role": "assistant", "content": content}]}
        assert anthropic_history.THINKING_FIRST not in [r.rule for r in anthropic_history.refusals(body)], content


def test_a_signature_that_is_no_base64_is_refused_in_geminis_words():
    call = {"functionCall": {"name": "weather", "args": {}}}
    body = {"contents": [{"role": "user", "parts": [{"text": "Weather?"}]},
                         {"role": "model", "parts": [{"text": "Looking.", "thought": True},
                                                     {**call, "thoughtSignature": "b'c2ln'"}]},
                         {"role": "user", "parts": [{"functionResponse": {"name": "weather", "response": {}}}]}]}
    found = [r for r in gemini_history.refusals(body, signed_calls=False) if r.rule == gemini_history.SIGNATURE_BASE64]
    assert [(r.path, r.message) for r in found] == [
        ("contents.1.parts.1.thoughtSignature", PASTED["gemini signature bytes"].format(1, 1))]


def test_base64_of_every_kind_is_taken():
    for signature in ("c2ln", "c2lnLTE=", "c2lnLTE", "-_-_", ""):
        body = {"contents": [{"role": "user", "parts": [{"text": "Hi"}]},
                             {"role": "model", "parts": [{"text": "Hello", "thoughtSignature": signature}]}]}
        assert gemini_history.SIGNATURE_BASE64 not in [r.rule for r in gemini_history.refusals(body)], signature


RESPONSES_PASTED = "Item '{}' of type 'message' was provided without its required 'reasoning' item: '{}'."
REASONED_ANSWER = [{"blocks": [{"type": "reasoning", "item_id": "rs_01", "text": "", "signature": "gAAAA=="},
                               {"type": "text", "item_id": "msg_01", "text": "Done."}]}]
ANSWER = {"type": "message", "role": "assistant", "id": "msg_01",
          "content": [{"type": "output_text", "text": "Done.", "annotations": []}]}
REASONING = {"type": "reasoning", "id": "rs_01", "summary": [], "encrypted_content": "gAAAA=="}


def test_a_message_sent_back_without_its_reasoning_is_refused_in_openais_words():
    from harness.rules import responses_history

    assert _generic(responses_history.MESSAGE_WITH_REASONING_TEXT) == RESPONSES_PASTED
    body = {"input": [{"role": "user", "content": "Hi"}, ANSWER, {"role": "user", "content": "And?"}]}
    found = [r for r in responses_history.refusals(body, sent=REASONED_ANSWER)
             if r.rule == responses_history.MESSAGE_WITH_REASONING]
    assert [(r.path, r.message) for r in found] == [("input[1]", RESPONSES_PASTED.format("msg_01", "rs_01"))]


def test_a_message_with_its_reasoning_or_without_its_id_is_taken():
    from harness.rules import responses_history

    for items in ([REASONING, ANSWER], [{k: v for k, v in ANSWER.items() if k != "id"}]):
        body = {"input": [{"role": "user", "content": "Hi"}, *items, {"role": "user", "content": "And?"}]}
        rules = [r.rule for r in responses_history.refusals(body, sent=REASONED_ANSWER)]
        assert responses_history.MESSAGE_WITH_REASONING not in rules, items
