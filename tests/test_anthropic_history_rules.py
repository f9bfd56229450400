"""What Anthropic refuses in a Messages body: each refusal with its rule, its path and Anthropic's exact text."""

from __future__ import annotations

import copy

import pytest

from harness.rules import anthropic_history as rules
from harness.rules.anthropic_history import Refusal, open_assistant, refusals
from harness.rules.registry import RULES

ON = {"type": "enabled", "budget_tokens": 2048}
THINK = {"type": "thinking", "thinking": "Check the weather first.", "signature": "c2lnLTE="}
REDACTED = {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"}
TEXT = {"type": "text", "text": "Looking it up."}


def _use(cid: str) -> dict:
    return {"type": "tool_use", "id": cid, "name": "weather", "input": {}}


def _result(cid: str) -> dict:
    return {"type": "tool_result", "tool_use_id": cid, "content": "sunny"}


def _user(*content) -> dict:
    return {"role": "user", "content": list(content) if content else "What is the weather?"}


def _assistant(*content) -> dict:
    return {"role": "assistant", "content": list(content)}


def _body(*messages, thinking: dict | None = ON) -> dict:
    body = {"model": "claude", "max_tokens": 4096, "system": "Be brief.", "messages": list(messages)}
    if thinking is not None:
        body["thinking"] = thinking
    return body


def _turn(*blocks) -> dict:
    """The neutral turn the provider sent for these wire blocks."""
    neutral = []
    for b in blocks:
        if b["type"] == "thinking":
            neutral.append({"type": "reasoning", "text": b["thinking"], "signature": b["signature"]})
        elif b["type"] == "redacted_thinking":
            neutral.append({"type": "redacted_reasoning", "data": b["data"]})
        elif b["type"] == "tool_use":
            neutral.append({"type": "tool_call", "id": b["id"], "name": b["name"], "arguments": ""})
        else:
            neutral.append({"type": "text", "text": b["text"]})
    return {"blocks": neutral, "stop_reason": "tool_use", "usage": None}


INTERLEAVED = (THINK, TEXT, _use("toolu_a"), REDACTED, _use("toolu_b"))
LOOP = (_user(), _assistant(*INTERLEAVED), _user(_result("toolu_a"), _result("toolu_b"), TEXT))

VALID = {
    "a question": _body(_user()),
    "string content and no thinking": _body(_user(), {"role": "assistant", "content": "Sunny."}, _user(),
                                            thinking=None),
    "a tool loop with interleaved thinking": _body(*LOOP),
    "a tool loop, thinking disabled explicitly, no thinking left": _body(
        _user(), _assistant(TEXT, _use("toolu_a")), _user(_result("toolu_a")), thinking={"type": "disabled"}),
    "a finished turn keeps its thinking with thinking off": _body(*LOOP, _assistant(THINK, TEXT), _user(),
                                                                  thinking=None),
    "an empty final assistant message": _body(_user(), _assistant()),
    "tool results in any order": _body(_user(), _assistant(THINK, _use("toolu_a"), _use("toolu_b")),
                                       _user(_result("toolu_b"), _result("toolu_a"))),
}


@pytest.mark.parametrize("case", sorted(VALID))
def test_a_valid_body_is_not_refused(case: str) -> None:
    body = VALID[case]
    assert refusals(body) == []


def test_a_faithful_replay_of_the_sent_turn_is_not_refused() -> None:
    assert refusals(_body(*LOOP), sent=[_turn(*INTERLEAVED)]) == []
    # Empty text blocks cannot go back, so leaving them out moves nothing.
    sent = _turn(THINK, {"type": "text", "text": ""}, _use("toolu_a"), REDACTED, _use("toolu_b"))
    body = _body(_user(), _assistant(THINK, _use("toolu_a"), REDACTED, _use("toolu_b")),
                 _user(_result("toolu_a"), _result("toolu_b")))
    assert refusals(body, sent=[_turn(THINK, TEXT), sent]) == []


def test_judging_leaves_the_body_and_the_turns_unchanged() -> None:
    body, sent = _body(*LOOP), [_turn(*INTERLEAVED)]
    before = copy.deepcopy((body, sent))
    refusals(body, sent=sent, every_turn=True)
    assert (body, sent) == before


UNANSWERED = ("{}: `tool_use` ids were found without `tool_result` blocks immediately after: {}. Each `tool_use` "
              "block must have a corresponding `tool_result` block in the next message.")
ORPHAN = ("unexpected `tool_use_id` found in `tool_result` blocks: {}. Each `tool_result` block must have a "
          "corresponding `tool_use` block in the previous message.")
NOT_THINKING = ("messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `{}`. When "
                "`thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding "
                "the lastmost set of `tool_use` and `tool_result` blocks).")
MODIFIED = ("{}: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified. "
            "These blocks must remain as they were in the original response.")
THINKING_OFF = "When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`."

# body -> the refusals, (rule, path, text), in order.
REFUSED = {
    "a system message": (_body({"role": "system", "content": "Be brief."}, _user()), [
        (rules.MESSAGE_ROLES, "messages.0.role", "messages.0.role: Input should be 'user' or 'assistant'")]),
    "an assistant first": (_body(_assistant(TEXT), _user()), [
        (rules.FIRST_USER, "messages.0.role", 'messages: first message must use the "user" role')]),
    "two user messages in a row": (_body(_user(), _user()), [
        (rules.ROLES_ALTERNATE, "messages.1.role", 'messages: roles must alternate between "user" and '
         '"assistant", but found multiple "user" roles in a row')]),
    "two assistant messages in a row": (_body(_user(), _assistant(TEXT), _assistant(TEXT), thinking=None), [
        (rules.ROLES_ALTERNATE, "messages.2.role", 'messages: roles must alternate between "user" and '
         '"assistant", but found multiple "assistant" roles in a row')]),
    "empty content before the end": (_body(_user(), _assistant(), _user(), thinking=None), [
        (rules.CONTENT_NON_EMPTY, "messages.1", "messages.1: all messages must have non-empty content except for "
         "the optional final assistant message")]),
    "an empty text block": (_body(_user(), _assistant({"type": "text", "text": ""}, TEXT), _user(), thinking=None), [
        (rules.TEXT_NON_EMPTY, "messages.1.content.0", "messages: text content blocks must be non-empty")]),
    "an empty text block in a tool result": (_body(_user(), _assistant(THINK, _use("toolu_a")), _user(
        {"type": "tool_result", "tool_use_id": "toolu_a", "content": [{"type": "text", "text": ""}]})), [
        (rules.TEXT_NON_EMPTY, "messages.2.content.0", "messages: text content blocks must be non-empty")]),
    "redacted thinking without data": (_body(_user(), _assistant({"type": "redacted_thinking"}, TEXT), _user(),
                                             thinking=None), [
        (rules.REDACTED_DATA, "messages.1.content.0.redacted_thinking.data",
         "messages.1.content.0.redacted_thinking.data: Field required")]),
    "a tool use unanswered": (_body(_user(), _assistant(THINK, _use("toolu_a"), _use("toolu_b")),
                                    _user(_result("toolu_b"))), [
        (rules.TOOL_USE_ANSWERED, "messages.1", UNANSWERED.format("messages.1", "toolu_a"))]),
    "a tool use answered by a user question": (_body(_user(), _assistant(THINK, _use("toolu_a")), _user()), [
        (rules.TOOL_USE_ANSWERED, "messages.1", UNANSWERED.format("messages.1", "toolu_a"))]),
    "a tool use at the end": (_body(_user(), _assistant(TEXT, _use("toolu_a"), _use("toolu_b")), thinking=None), [
        (rules.TOOL_USE_ANSWERED, "messages.1", UNANSWERED.format("messages.1", "toolu_a, toolu_b"))]),
    "a result after the text": (_body(_user(), _assistant(THINK, _use("toolu_a"), _use("toolu_b")),
                                      _user(_result("toolu_a"), TEXT, _result("toolu_b"))), [
        (rules.TOOL_USE_ANSWERED, "messages.1", UNANSWERED.format("messages.1", "toolu_b"))]),
    "a result for a call of two messages back": (_body(
        _user(), _assistant(THINK, _use("toolu_a")), _user(_result("toolu_a")), _assistant(TEXT),
        _user(_result("toolu_a")), thinking=None), [
        (rules.TOOL_RESULT_PAIRED, "messages.4.content.0", ORPHAN.format("toolu_a"))]),
    "a result nobody asked for": (_body(_user(_result("toolu_x"), _result("toolu_y"))), [
        (rules.TOOL_RESULT_PAIRED, "messages.0.content.0", ORPHAN.format("toolu_x, toolu_y"))]),
    "thinking on, the tool turn starts with text": (_body(_user(), _assistant(TEXT, THINK, _use("toolu_a")),
                                                          _user(_result("toolu_a"))), [
        (rules.TOOL_TURN_THINKING, "messages.1.content.0.type", NOT_THINKING.format("text"))]),
    "thinking on, the tool turn starts with its tool use": (_body(_user(), _assistant(_use("toolu_a")),
                                                                  _user(_result("toolu_a"))), [
        (rules.TOOL_TURN_THINKING, "messages.1.content.0.type", NOT_THINKING.format("tool_use"))]),
    "thinking off, thinking left in the tool turn": (_body(*LOOP, thinking=None), [
        (rules.NO_THINKING_WHEN_OFF, "messages.1.content.0", THINKING_OFF)]),
    "thinking disabled, redacted thinking left in the tool turn": (_body(
        _user(), _assistant(TEXT, REDACTED, _use("toolu_a")), _user(_result("toolu_a")),
        thinking={"type": "disabled"}), [(rules.NO_THINKING_WHEN_OFF, "messages.1.content.1", THINKING_OFF)]),
    "thinking off, thinking in a final assistant message": (_body(_user(), _assistant(THINK), thinking=None), [
        (rules.NO_THINKING_WHEN_OFF, "messages.1.content.0", THINKING_OFF)]),
    "thinking on, an empty signature": (_body(_user(), _assistant({**THINK, "signature": ""}, _use("toolu_a")),
                                              _user(_result("toolu_a"))), [
        (rules.THINKING_SIGNED, "messages.1.content.0", "messages.1.content.0: Invalid `signature` in `thinking` "
         "block")]),
    "thinking on, no signature": (_body(_user(), _assistant(TEXT, {"type": "thinking", "thinking": "x"}), _user()), [
        (rules.THINKING_SIGNED, "messages.1.content.1", "messages.1.content.1: Invalid `signature` in `thinking` "
         "block")]),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_each_refusal_is_stated_with_its_rule_path_and_text(case: str) -> None:
    body, expected = REFUSED[case]
    assert refusals(body) == [Refusal(*r) for r in expected]


def test_independent_faults_are_each_refused_in_message_order() -> None:
    body = _body({"role": "system", "content": "x"}, _user(), _assistant({"type": "text", "text": ""},
                 _use("toolu_a")), _user(_result("toolu_z")), thinking=None)
    assert [r.rule for r in refusals(body)] == [
        rules.MESSAGE_ROLES, rules.TEXT_NON_EMPTY, rules.TOOL_USE_ANSWERED, rules.TOOL_RESULT_PAIRED]


# The turn the provider sent, the latest assistant message as replayed -> the refusal (None: accepted).
SENT = _turn(*INTERLEAVED)
REPLAYS = {
    "unchanged": (INTERLEAVED, None),
    "rebuilt as all thinking, then text, then tools": (
        (THINK, REDACTED, TEXT, _use("toolu_a"), _use("toolu_b")), (rules.THINKING_UNMODIFIED, 1, MODIFIED)),
    "thinking text changed": (({**THINK, "thinking": THINK["thinking"] + " "},) + INTERLEAVED[1:],
                              (rules.THINKING_UNMODIFIED, 0, MODIFIED)),
    "signature cut": (({**THINK, "signature": THINK["signature"][:-1]},) + INTERLEAVED[1:],
                      (rules.THINKING_UNMODIFIED, 0, "{}: Invalid `signature` in `thinking` block")),
    "redacted data changed": (INTERLEAVED[:3] + ({**REDACTED, "data": REDACTED["data"].lower()},) + INTERLEAVED[4:],
                              (rules.THINKING_UNMODIFIED, 3, rules.INVALID_DATA_TEXT)),
    # The incident: a thinking block whose text was omitted went back as redacted, its signature as the data.
    "thinking sent back as redacted with its signature": (
        ({"type": "redacted_thinking", "data": THINK["signature"]},) + INTERLEAVED[1:],
        (rules.THINKING_UNMODIFIED, 0, rules.INVALID_DATA_TEXT)),
    # Data the provider sent, in another block's place, decrypts: the block is moved, not invalid.
    "redacted block swapped with the thinking block": ((REDACTED, TEXT, _use("toolu_a"), THINK, _use("toolu_b")),
                                                       (rules.THINKING_UNMODIFIED, 0, MODIFIED)),
    "redacted block dropped": (INTERLEAVED[:3] + INTERLEAVED[4:], (rules.THINKING_UNMODIFIED, 0, MODIFIED)),
    # Only the thinking blocks' places are held: other blocks swapping between them moves none.
    "text and a tool use swapped": ((THINK, _use("toolu_a"), TEXT, REDACTED, _use("toolu_b")), None),
    "text moved across the redacted block": ((THINK, _use("toolu_a"), REDACTED, _use("toolu_b"), TEXT),
                                             (rules.THINKING_UNMODIFIED, 2, MODIFIED)),
    "a text block dropped before the redacted block": ((THINK, _use("toolu_a"), REDACTED, _use("toolu_b")),
                                                        (rules.THINKING_UNMODIFIED, 2, MODIFIED)),
    "a thinking block added": (INTERLEAVED + (THINK,), (rules.THINKING_UNMODIFIED, 5, MODIFIED)),
}


@pytest.mark.parametrize("case", sorted(REPLAYS))
def test_the_latest_assistant_messages_thinking_comes_back_as_sent(case: str) -> None:
    content, expected = REPLAYS[case]
    body = _body(_user(), _assistant(*content), _user(_result("toolu_a"), _result("toolu_b")))
    found = [r for r in refusals(body, sent=[SENT]) if r.rule == rules.THINKING_UNMODIFIED]
    if expected is None:
        assert found == []
    else:
        rule, m, text = expected
        path = f"messages.1.content.{m}"
        assert found == [Refusal(rule, path, text.format(path))]


def test_a_finished_turn_may_leave_its_thinking_out_but_not_change_it() -> None:
    finished = _body(*LOOP, _assistant(TEXT), _user())
    sent = [SENT, _turn(THINK, TEXT)]
    assert refusals(finished, sent=sent) == []
    changed = _body(*LOOP, _assistant(TEXT, THINK), _user())
    assert [r.rule for r in refusals(changed, sent=sent)] == [rules.THINKING_UNMODIFIED]


def test_with_thinking_off_the_replay_is_not_held_to_the_sent_turn() -> None:
    body = _body(_user(), _assistant(TEXT, _use("toolu_a"), _use("toolu_b")),
                 _user(_result("toolu_a"), _result("toolu_b")), thinking=None)
    assert refusals(body, sent=[SENT]) == []


def test_newer_models_hold_every_earlier_turn_to_what_was_sent() -> None:
    earlier = (THINK, _use("toolu_e"))
    history = (_user(), _assistant(THINK, TEXT), _user())
    body = _body(*history, _assistant(TEXT, _use("toolu_e")), _user(_result("toolu_e")),
                 _assistant(*INTERLEAVED), _user(_result("toolu_a"), _result("toolu_b")))
    sent = [_turn(THINK, TEXT), _turn(*earlier), SENT]
    # Without the newer models' rule only the latest message is held to its turn.
    assert refusals(body, sent=sent) == []
    held = refusals(body, sent=sent, every_turn=True)
    assert held == [Refusal(rules.EARLIER_UNCHANGED, "messages.3.content.0", MODIFIED.format("messages.3.content.0"))]


def test_the_open_assistant_message_is_the_one_the_request_continues() -> None:
    assert open_assistant([_user()]) is None
    assert open_assistant([_user(), _assistant(TEXT)]) == 1
    assert open_assistant(list(LOOP)) == 1
    assert open_assistant([*LOOP, _assistant(TEXT), _user()]) is None


def test_every_rule_is_registered_with_a_level() -> None:
    assert set(rules.RULES) <= set(RULES)
    assert [RULES[r].level for r in rules.RULES] == ["wire"] * (len(rules.RULES) - 1) + ["provider"]
