"""The history rules and the declared-tools readers judge any JSON they are given, never crash on it.

A kernel bug that sends a list for a body or an object for an id must end as
a contract's assertion (a kill), not as a TypeError in the rule (an invalid run).
"""

import pytest

from harness.rules import anthropic_history, gemini_history, responses_history
from harness.rules.chat_request import declared_tools as chat_declared_tools

NOT_OBJECTS = [[], "body", None, 3, [{"role": "user"}]]
ODD_IDS = [[1], {"id": "x"}, None, 7]


@pytest.mark.parametrize("judge", [anthropic_history.refusals, responses_history.refusals, gemini_history.refusals,
                                   anthropic_history.declared_tools, responses_history.declared_tools,
                                   gemini_history.declared_tools, chat_declared_tools])
@pytest.mark.parametrize("body", NOT_OBJECTS, ids=repr)
def test_a_body_that_is_no_object_is_judged_without_a_crash(judge, body):
    assert judge(body) in ([], {})


@pytest.mark.parametrize("odd", ODD_IDS, ids=repr)
def test_ids_of_any_json_type_are_compared_not_hashed(odd):
    anthropic = {"messages": [
        {"role": "user", "content": "Go."},
        {"role": "assistant", "content": [{"type": "tool_use", "id": odd, "name": "f", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": odd, "content": "ok"}]}]}
    assert isinstance(anthropic_history.refusals(anthropic), list)
    responses = {"input": [{"type": "function_call", "call_id": odd, "name": "f", "arguments": "{}"},
                           {"type": "function_call_output", "call_id": odd, "output": "ok"}]}
    assert isinstance(responses_history.refusals(responses), list)


def test_gemini_declarations_that_are_no_list_declare_nothing():
    assert gemini_history.declared_tools({"tools": [{"functionDeclarations": {"name": "f"}}]}) == {}
