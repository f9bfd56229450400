"""Contract: the words of a turn reach the wire, the store and the replayed history unchanged.

Incident: incident `batch-path-pairing`: the event written to disk, not the in-memory messages, is
what the next request is rendered from, so a field lost on the way to the
store only shows up one turn later. Here the fields are the turn's words: the
user's question, each tool's output and the model's answer.

Rule: the words travel verbatim (surrounding whitespace and newlines
included). On both tool paths (serial, and the concurrent batch), every request
the kernel sends carries the question as a user message; the follow-up holds
each tool's output as the content of the tool message for its call; the
persisted events hold the question as ``input``, each output under its call
id and the answer as ``response``; the history rendered from those events
carries the question, every output and the answer. Any persisted events
render each result as the content of its call's tool message, verbatim
(where each tool message sits is the pairing rule's business, held in
``test_batch_pairing.py``); a result stored without content (``null``: a tool that
returned nothing) is sent as ``""``, never as ``null``.

Level: wire (the question, each tool's output and the answer are the
conversation the format carries; losing one breaks it on every provider).

Production fingerprint: the next turn's request holds ``"content": null``
where the question or a tool's output was; the model answers as if it had
never been asked, or calls the same tool again.
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import shown
from harness.testing import ScriptedModel, ScriptedTool, content_text, persisted_events
from harness.under_test.invoke import valid

pytestmark = pytest.mark.wire

# Verbatim means verbatim: the words keep their leading spaces and trailing newlines.
QUESTION = "  Compare a.txt and b.txt\n"
ANSWER = "Both files hold the same list.\n\n"
CALLS = [
    {"id": "call_a", "name": "read_file", "arguments": '{"path":"a.txt"}'},
    {"id": "call_b", "name": "read_file", "arguments": '{"path":"b.txt"}'},
]
PATHS = {"serial": False, "batch": True}


def _turn(kernel, path: str):
    tool = ScriptedTool("read_file", parallel_safe=PATHS[path])
    model = ScriptedModel([{"tool_calls": CALLS, "finish_reason": "tool_calls"}, {"content": ANSWER}])
    events = kernel.run_turn(QUESTION, model, [tool])["events"]
    outputs = {c["id"]: tool.result_for(c["arguments"]) for c in CALLS}
    return model, events, outputs


def _tool_contents(messages: list[dict]) -> dict:
    return {m.get("tool_call_id"): content_text(m.get("content")) for m in messages if m.get("role") == "tool"}


@pytest.mark.parametrize("path", PATHS)
def test_requests_carry_the_question_and_each_tools_output(kernel, path):
    kernel = valid(kernel)
    model, _, outputs = _turn(kernel, path)
    for n, request in enumerate(model.requests, 1):
        users = [content_text(m.get("content")) for m in request.get("messages", []) if m.get("role") == "user"]
        assert users == [QUESTION], (
            f"{path} path: request #{n} sent the user messages {shown(users)}, expected [{QUESTION!r}]"
        )
    sent = _tool_contents(model.requests[-1].get("messages", []))
    assert sent == outputs, (
        f"{path} path: the follow-up request sent the tool outputs {shown(sent)}, expected {shown(outputs)}"
    )
    said = [content_text(m.get("content")) for m in model.requests[-1].get("messages", []) if m.get("tool_calls")]
    assert all(not text for text in said), (
        f"{path} path: the tool-call message of the follow-up request says {shown(said)}, but the model said nothing"
    )


@pytest.mark.parametrize("path", PATHS)
def test_persisted_events_hold_the_question_outputs_and_answer(kernel, path):
    kernel = valid(kernel)
    _, events, outputs = _turn(kernel, path)
    inputs = [e.get("input") for e in events if e.get("input")]
    stored = {r.get("tool_call_id"): r.get("content") for e in events for r in e.get("tool_results") or ()}
    answer = events[-1].get("response") if events else None
    assert inputs == [QUESTION], f"{path} path: the events stored the inputs {shown(inputs)}, expected [{QUESTION!r}]"
    assert stored == outputs, (
        f"{path} path: the events stored the tool outputs {shown(stored)}, expected {shown(outputs)}"
    )
    assert answer == ANSWER, f"{path} path: the last event stored the response {shown(answer)}, expected {ANSWER!r}"


@pytest.mark.parametrize("path", PATHS)
def test_history_rendered_from_the_events_keeps_every_word(kernel, path):
    kernel = valid(kernel)
    _, events, outputs = _turn(kernel, path)
    history = kernel.render_history(events)
    users = [content_text(m.get("content")) for m in history if m.get("role") == "user"]
    answers = [content_text(m.get("content")) for m in history if m.get("role") == "assistant" and m.get("content")]
    assert users == [QUESTION], (
        f"{path} path: the rendered history's user messages are {shown(users)}, not [{QUESTION!r}]"
    )
    assert _tool_contents(history) == outputs, (
        f"{path} path: the rendered history has the tool outputs {shown(_tool_contents(history))}, expected "
        f"{shown(outputs)}"
    )
    assert answers[-1:] == [ANSWER], (
        f"{path} path: the rendered history's answers are {shown(answers)}, not ending {ANSWER!r}"
    )


# Pinned: a batch whose first tool returned nothing, stored as null, the other's output after it.
NULL_FIRST = [{"input": "Compare a.txt and b.txt", "response": "", "reasoning": None,
               "tool_calls": [{"id": "call_a", "name": "read_file", "arguments": '{"path": "a.txt"}'},
                              {"id": "call_b", "name": "read_file", "arguments": '{"path": "b.txt"}'}],
               "tool_results": [{"tool_call_id": "call_a", "content": None},
                                {"tool_call_id": "call_b", "content": "1\n2\n"}],
               "tools_used": ["read_file"], "timestamp": 1731300000.0}]


@given(events=st.lists(persisted_events(), min_size=1, max_size=3), data=st.data())
@example(events=NULL_FIRST, data=None)
def test_stored_results_render_as_their_tool_messages(kernel, events, data):
    kernel = valid(kernel)
    for event in events:
        for result in event["tool_results"]:
            if data is not None and data.draw(st.booleans(), label="stored without content"):
                result["content"] = None
    expected = []
    for event in events:
        contents = {r["tool_call_id"]: r["content"] for r in event["tool_results"]}
        expected += [(call["id"], contents[call["id"]] or "") for call in event["tool_calls"]]
    history = kernel.render_history(events)
    got = [(m.get("tool_call_id"), content_text(m.get("content"))) for m in history if m.get("role") == "tool"]
    assert sorted(got, key=repr) == sorted(expected, key=repr), (
        f"the rendered tool messages are {shown(got)}, but should be {expected} in some order: each result verbatim "
        f"under its call id, a result stored as null sent as ''; events {shown(events, 1500)}"
    )
