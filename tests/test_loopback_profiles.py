"""Provider profiles of the loopback provider: each violation sent for real, status and body read back."""

import json

import httpx
import pytest

from harness.loopback import LoopbackProvider, answers
from harness.rules import models, pairing

# The providers' error texts as their APIs return them (quoted in their documentation and in public
# client bug reports), kept here apart from the code under test: ``{}`` stands for the part that varies.
PROVIDER_TEXTS = {
    "openai unanswered calls": "An assistant message with 'tool_calls' must be followed by tool messages "
    "responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: {}",
    "deepseek unanswered calls": "An assistant message with 'tool_calls' must be followed by tool messages "
    "responding to each 'tool_call_id'. (insufficient tool messages following tool_calls message)",
    "orphan tool message": "Invalid parameter: messages with role 'tool' must be a response to a "
    "preceding message with 'tool_calls'.",
    "r1 reasoning sent back": "The reasoning_content is an intermediate result for display purposes only and "
    "will not be included in the context for inference. Please remove the reasoning_content from your message "
    "to reduce network traffic.",
    "v3.2 reasoning missing": "Missing `reasoning_content` field in the assistant message at message index {}.",
    "current reasoning missing": "The reasoning_content in the thinking mode must be passed back to the API.",
    "thinking tool_choice": "Thinking mode does not support this tool_choice",
    "openai unknown message field": "Additional properties are not allowed ('{}' was unexpected) - 'messages.{}'",
    "mistral call id": "Tool call id was {} but must be a-z, A-Z, 0-9, with a length of 9.",
    "openai tools beside effort": "Function tools with reasoning_effort are not supported for {} in "
    "/v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.",
}
CODE_TEXTS = {
    "openai unanswered calls": pairing.OPENAI_UNANSWERED_CALLS,
    "deepseek unanswered calls": pairing.DEEPSEEK_UNANSWERED_CALLS,
    "orphan tool message": pairing.ORPHAN_TOOL_MESSAGE,
    "r1 reasoning sent back": answers.R1_REASONING_SENT_BACK,
    "v3.2 reasoning missing": answers.V32_REASONING_MISSING,
    "current reasoning missing": answers.CURRENT_REASONING_MISSING,
    "thinking tool_choice": answers.THINKING_TOOL_CHOICE,
    "openai unknown message field": answers.OPENAI_UNKNOWN_MESSAGE_FIELD,
    "openai tools beside effort": models.OPENAI_TOOLS_WITH_EFFORT,
    "mistral call id": models.MISTRAL_CALL_ID,
}


def _generic(text: str) -> str:
    """A template with its named fields written as ``{}``."""
    import re

    return re.sub(r"\{[a-z]+\}", "{}", text)


@pytest.mark.parametrize("name", sorted(PROVIDER_TEXTS))
def test_each_error_text_is_the_providers_own(name):
    assert _generic(CODE_TEXTS[name]) == PROVIDER_TEXTS[name]


TOOLS = [{"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}]


def _call(cid):
    return {"id": cid, "type": "function", "function": {"name": "read_file", "arguments": "{}"}}


USER = {"role": "user", "content": "Compare a.txt and b.txt"}
CALLS = {"role": "assistant", "content": None, "tool_calls": [_call("call_a"), _call("call_b")]}
RESULT_A = {"role": "tool", "tool_call_id": "call_a", "content": "a"}
RESULT_B = {"role": "tool", "tool_call_id": "call_b", "content": "b"}


def _send(provider, body):
    response = httpx.post(provider.base_url + "/chat/completions", json={"model": "m", **body}, timeout=10)
    return response.status_code, response.json()


# (profile, era, body, status, message, rule, level, message index)
CASES = {
    "openai: a call without its tool message": (
        "openai", "current", {"messages": [USER, CALLS, RESULT_A]}, 400,
        PROVIDER_TEXTS["openai unanswered calls"].format("call_b"), "unanswered-tool-calls", "wire", 1),
    "openai: a tool message without its call": (
        "openai", "current", {"messages": [USER, RESULT_A]}, 400,
        PROVIDER_TEXTS["orphan tool message"], "orphan-tool-message", "wire", 1),
    "openai: reasoning_content on a message": (
        "openai", "current", {"messages": [USER, {"role": "assistant", "content": "hi", "reasoning_content": "r"},
                                           USER]}, 400,
        PROVIDER_TEXTS["openai unknown message field"].format("reasoning_content", 1), "unknown-message-field",
        "provider", 1),
    "openai: a thinking argument": (
        "openai", "current", {"messages": [USER], "thinking": {"type": "disabled"}}, 400,
        "Unrecognized request argument supplied: thinking", "unknown-argument", "wire", None),
    "openai: function tools beside reasoning_effort to a model refusing the pair": (
        "openai", "current", {"model": "gpt-5.6-terra", "messages": [USER], "tools": TOOLS, "reasoning_effort": "high"},
        400, PROVIDER_TEXTS["openai tools beside effort"].format("gpt-5.6-terra"), "tools-beside-effort", "provider",
        None),
    "openai: a tool call id a Mistral model does not take": (
        "openai", "current", {"model": "mistral-small-latest", "messages": [USER, CALLS, RESULT_A, RESULT_B],
                              "tools": TOOLS},
        400, PROVIDER_TEXTS["mistral call id"].format("call_a"), "call-id-shape", "provider", None),
    "deepseek: a call without its tool message": (
        "deepseek", "current", {"messages": [USER, {**CALLS, "reasoning_content": ""}, RESULT_A]}, 400,
        PROVIDER_TEXTS["deepseek unanswered calls"], "unanswered-tool-calls", "wire", 1),
    "deepseek r1: reasoning sent back": (
        "deepseek", "r1", {"messages": [USER, {"role": "assistant", "content": "x", "reasoning_content": "r"},
                                        USER]}, 400,
        PROVIDER_TEXTS["r1 reasoning sent back"], "reasoning-sent-back", "provider", 1),
    "deepseek v3.2: a tool-call turn without reasoning": (
        "deepseek", "v3.2", {"messages": [USER, CALLS, RESULT_A, RESULT_B], "tools": TOOLS}, 400,
        PROVIDER_TEXTS["v3.2 reasoning missing"].format(1), "reasoning-missing", "provider", 1),
    "deepseek current: a text turn without reasoning, with tools": (
        "deepseek", "current", {"messages": [USER, {"role": "assistant", "content": "x"}, USER], "tools": TOOLS},
        400, PROVIDER_TEXTS["current reasoning missing"], "reasoning-missing", "provider", 1),
    "deepseek: tool_choice forced in thinking mode": (
        "deepseek", "current", {"messages": [USER], "tools": TOOLS,
                                "tool_choice": {"type": "function", "function": {"name": "read_file"}}}, 400,
        PROVIDER_TEXTS["thinking tool_choice"], "tool-choice-in-thinking-mode", "provider", None),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_violation_is_answered_with_the_providers_status_and_body(case):
    profile, era, body, status, message, rule, level, index = CASES[case]
    with LoopbackProvider(scenario="parallel-12", profile=profile, era=era) as provider:
        got_status, got_body = _send(provider, body)
    assert (got_status, got_body["error"]["message"]) == (status, message), json.dumps(got_body)
    assert got_body["error"]["type"] == "invalid_request_error"
    violation = next(v for v in provider.record.violations if v.refused)
    assert (violation.rule, violation.level, violation.request, violation.message_index) == (rule, level, 1, index)


def test_a_thinking_switch_under_extra_body_is_recorded_and_thinking_stays_on():
    body = {"messages": [USER, {"role": "assistant", "content": "x"}, USER], "tools": TOOLS,
            "extra_body": {"thinking": {"type": "disabled"}}}
    with LoopbackProvider(scenario="parallel-12", profile="deepseek") as provider:
        status, answer = _send(provider, body)
    rules = [(v.rule, v.level, v.status) for v in provider.record.violations]
    # The nested switch is never seen: thinking stays on, so the current rule applies and refuses.
    assert ("thinking-switch-nested", "provider", 200) in rules
    assert status == 400 and answer["error"]["message"] == PROVIDER_TEXTS["current reasoning missing"]


def test_thinking_disabled_at_the_top_level_lifts_the_reasoning_rule():
    body = {"messages": [USER, {"role": "assistant", "content": "x"}, USER], "tools": TOOLS,
            "thinking": {"type": "disabled"}}
    with LoopbackProvider(scenario="parallel-12", profile="deepseek") as provider:
        status, _ = _send(provider, body)
    assert status == 200 and not provider.record.violations


def test_the_lenient_gateway_accepts_and_records_what_others_refuse():
    with LoopbackProvider(scenario="parallel-12", profile="gateway") as provider:
        status, answer = _send(provider, {"messages": [USER, CALLS, RESULT_A]})
    assert status == 200 and answer["object"] == "chat.completion"
    [violation] = provider.record.violations
    assert (violation.rule, violation.level, violation.status, violation.message_index) == (
        "unanswered-tool-calls", "wire", 200, 1)


def test_a_body_that_is_not_json_is_refused_as_openai_does():
    with LoopbackProvider(scenario="parallel-12", profile="openai") as provider:
        response = httpx.post(provider.base_url + "/chat/completions", content=b"{not json", timeout=10)
    assert response.status_code == 400 and "could not parse the JSON body" in response.json()["error"]["message"]
    assert provider.record.violations[0].rule == "body-not-json"


def test_a_correct_request_breaks_no_rule_on_any_profile():
    body = {"messages": [USER, {**CALLS, "reasoning_content": "r"}, RESULT_A, RESULT_B], "tools": TOOLS}
    for profile in ("deepseek", "gateway"):
        with LoopbackProvider(scenario="parallel-12", profile=profile) as provider:
            status, _ = _send(provider, body)
        assert status == 200 and not provider.record.violations, provider.record.violations
    plain = {"messages": [USER, CALLS, RESULT_A, RESULT_B], "tools": TOOLS}
    with LoopbackProvider(scenario="parallel-12", profile="openai") as provider:
        status, _ = _send(provider, plain)
    assert status == 200 and not provider.record.violations


@pytest.mark.parametrize("model, effort", [("gpt-4.1", "high"), ("gpt-5.6-terra", "none"), ("some-model", "high")])
def test_tools_beside_an_effort_are_answered_where_the_model_takes_them(model, effort):
    body = {"model": model, "messages": [USER], "tools": TOOLS, "reasoning_effort": effort}
    with LoopbackProvider(scenario="parallel-12", profile="openai") as provider:
        status, _ = _send(provider, body)
    assert status == 200 and not provider.record.violations, provider.record.violations


def test_the_lenient_gateway_records_a_models_rule_and_answers():
    body = {"model": "mistral-small-latest", "messages": [USER, CALLS, RESULT_A, RESULT_B], "tools": TOOLS}
    with LoopbackProvider(scenario="parallel-12", profile="gateway") as provider:
        status, _ = _send(provider, body)
    assert status == 200
    assert [(v.rule, v.status) for v in provider.record.violations] == [("call-id-shape", 200)] * 2
