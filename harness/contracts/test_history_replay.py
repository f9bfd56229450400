"""Contract: history rendered for a later turn carries each round's own reasoning, to providers that ask.

Incident: the persisted event had no reasoning field and the renderer wrote
assistant messages without it (incident `deepseek-reasoning-400`, layer L1); elsewhere the history
path never inserted the reasoning although the database kept it for every
message (incident `deepseek-thinking-imbalance`). Each later turn lost the model's working memory, and with
tools DeepSeek refused the request outright. The fix is provider-scoped:
OpenAI's strict schema rejects the field, so only providers that ask get it.

Rule: ``render_history(events, base_url=<DeepSeek>)`` gives each assistant
message whose persisted reasoning is non-empty a top-level
``reasoning_content`` equal to it, no key where it was null or empty, and none
on user or tool messages. ``render_history(events)`` (the call without a base
URL) carries none at all, and a base URL whose host the ``reasoning.hosts``
policy does not list carries none either; a listed one carries each round's
own. Rendered for DeepSeek and then transformed for the era selected with
``--deepseek-era``, the request meets that era's rule, each carried value the
round's own. Whatever the provider, the history rendered from the events of
several turns holds every turn's question (each non-empty persisted
``input``) as a user message, verbatim and in the order of the events.

Level: per test. ``test_deepseek_history_carries_each_rounds_own_reasoning``
and ``test_replayed_history_meets_the_era_rule``: provider (DeepSeek's
round-trip rule). ``test_history_carries_reasoning_only_to_the_policys_hosts``:
policy, key ``reasoning.hosts``. ``test_history_holds_every_turns_question_in_order``:
wire (the conversation every later request carries).

Production fingerprint: the first request of every later turn answers HTTP 400
"The reasoning_content in the thinking mode must be passed back to the API."
(V3.2: "Missing `reasoning_content` field in the assistant message at message
index N."); without the 400, the agent re-derives what it had already worked
out; or the model answers the first question again on every later turn, or
misses what the user asked since.
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json, shown
from harness.testing import content_text, persisted_events as persisted_event, reasoning_violations
from harness.testing.requests import DEEPSEEK_URL, OPENAI_URL, TOOLS, host_of
from harness.under_test.invoke import valid

persisted_events = st.lists(persisted_event(), min_size=1, max_size=5)


# Pinned: DeepSeek's rounds as persisted (the incidents' session): a tool round and its follow-up, each with its
# own reasoning; a round cut off while still reasoning (no text, no call); a later turn without reasoning.
DEEPSEEK_ROUNDS = [
    {"input": "Which invoices are open?", "response": "", "reasoning": "List the open invoices first.",
     "tool_calls": [{"id": "call_00_inv", "name": "invoices", "arguments": '{"status": "open"}'}],
     "tool_results": [{"tool_call_id": "call_00_inv", "content": "12, 13"}], "tools_used": ["invoices"],
     "timestamp": 1731300000.0},
    {"input": "", "response": "Two: 12 and 13.", "reasoning": "The tool returned 12 and 13.", "tool_calls": [],
     "tool_results": [], "tools_used": [], "timestamp": 1731300001.0},
    {"input": "And which are paid?", "response": "", "reasoning": "Paid ones need another lookup, and",
     "tool_calls": [], "tool_results": [], "tools_used": [], "timestamp": 1731300060.0},
    {"input": "Thanks.", "response": "You're welcome.", "reasoning": None, "tool_calls": [], "tool_results": [],
     "tools_used": [], "timestamp": 1731300120.0},
]


def _assistants(messages: list[dict], events: list[dict]) -> list[dict]:
    assistants = [m for m in messages if m.get("role") == "assistant"]
    assert len(assistants) == len(events), (
        f"{len(assistants)} assistant messages rendered from {len(events)} persisted rounds, expected one per round"
    )
    return assistants


def _show(events: list[dict]) -> str:
    return clip_json([{"reasoning": e["reasoning"], "calls": len(e["tool_calls"])} for e in events], 1500)


@pytest.mark.provider
@given(events=persisted_events)
@example(events=DEEPSEEK_ROUNDS)
def test_deepseek_history_carries_each_rounds_own_reasoning(kernel, events):
    kernel = valid(kernel)
    messages = kernel.render_history(events, base_url=DEEPSEEK_URL)
    problems = _own_reasoning_problems(messages, events)
    assert not problems, (
        f"render_history(events, base_url={DEEPSEEK_URL!r}): {len(problems)} problem(s):\n  "
        + "\n  ".join(problems) + f"\nrounds {_show(events)}"
    )


def _own_reasoning_problems(messages: list[dict], events: list[dict]) -> list[str]:
    """Each assistant message must carry its round's non-empty reasoning, no other message any."""
    problems = [
        f"message #{n} ({m.get('role')}) carries reasoning_content, but only assistant messages may"
        for n, m in enumerate(messages)
        if m.get("role") != "assistant" and "reasoning_content" in m
    ]
    for n, (message, event) in enumerate(zip(_assistants(messages, events), events)):
        expected = event["reasoning"] or "<absent>"
        got = message.get("reasoning_content", "<absent>")
        if got != expected:
            problems.append(
                f"assistant message of round #{n}: reasoning_content={shown(got)}, but should be {shown(expected)} for "
                f"persisted reasoning {event['reasoning']!r} (top level, non-empty only)"
            )
    return problems


@pytest.mark.policy
@given(events=persisted_events, base_url=st.sampled_from([None, OPENAI_URL]))
@example(events=DEEPSEEK_ROUNDS, base_url=None)
@example(events=DEEPSEEK_ROUNDS, base_url=OPENAI_URL)
def test_history_carries_reasoning_only_to_the_policys_hosts(kernel, policy, events, base_url):
    kernel = valid(kernel)
    hosts = policy.hosts("reasoning.hosts")
    renders = {"render_history(events)": (kernel.render_history(events), False)} if base_url is None else {}
    listed = host_of(base_url) in hosts
    renders[f"render_history(events, base_url={base_url!r})"] = (
        kernel.render_history(events, base_url=base_url), listed)
    for call, (messages, wants_reasoning) in renders.items():
        if wants_reasoning:
            problems = _own_reasoning_problems(messages, events)
        else:
            problems = [f"message #{n} ({m.get('role')}) carries reasoning_content"
                        for n, m in enumerate(messages) if "reasoning_content" in m]
        assert not problems, (
            f"{call} with reasoning.hosts={list(hosts)}: "
            + ("each round's own reasoning should come back" if wants_reasoning else "no message should carry "
               "reasoning_content")
            + ":\n  " + "\n  ".join(problems) + f"\nrounds {_show(events)}"
        )


@pytest.mark.provider
@given(events=persisted_events)
@example(events=DEEPSEEK_ROUNDS)
def test_replayed_history_meets_the_era_rule(kernel, transform, deepseek_era, events):
    kernel = valid(kernel)
    transform = valid(transform)
    messages = kernel.render_history(events, base_url=DEEPSEEK_URL)
    body = {"model": "deepseek-chat", "messages": messages, "tools": TOOLS, "stream": True}
    sent = transform.transform_request(body, {"base_url": DEEPSEEK_URL, "era": deepseek_era})["messages"]
    problems = reasoning_violations(sent, deepseek_era, has_tools=True)
    for n, (message, event) in enumerate(zip(_assistants(sent, events), events)):
        if "reasoning_content" in message and message["reasoning_content"] != (event["reasoning"] or ""):
            problems.append(
                f"assistant message of round #{n} carries {shown(message['reasoning_content'])}, "
                f"but its own persisted reasoning is {event['reasoning']!r}"
            )
    assert not problems, (
        f"history replayed to DeepSeek under the {deepseek_era} rule: {len(problems)} problem(s):\n  "
        + "\n  ".join(problems) + f"\nrounds {_show(events)}"
    )


def _turn(question: str, answer: str, timestamp: float) -> dict:
    return {"input": question, "response": answer, "reasoning": None, "tool_calls": [], "tool_results": [],
            "tools_used": [], "timestamp": timestamp}


# Three turns, the second a tool round and its follow-up; questions differ only in what a strip or a repeat loses.
TURNS = [
    _turn("Which invoices are open?", "Two: 12 and 13.", 1731300000.0),
    {**_turn("  And which are paid?\n", "", 1731300060.0), "tool_calls": [
        {"id": "call_1", "name": "invoices", "arguments": "{}"}], "tool_results": [
        {"tool_call_id": "call_1", "content": "11"}], "tools_used": ["invoices"]},
    _turn("", "Only 11.", 1731300061.0),
    _turn("Which invoices are open?", "Still 12 and 13.", 1731300120.0),
]


@pytest.mark.wire
@given(events=persisted_events, base_url=st.sampled_from([None, OPENAI_URL, DEEPSEEK_URL]))
@example(events=TURNS, base_url=None)
@example(events=TURNS, base_url=DEEPSEEK_URL)
def test_history_holds_every_turns_question_in_order(kernel, events, base_url):
    messages = valid(kernel).render_history(events, base_url=base_url)
    asked = [content_text(m.get("content")) for m in messages if m.get("role") == "user"]
    questions = [e["input"] for e in events if e["input"]]
    assert asked == questions, (
        f"render_history(events, base_url={base_url!r}) holds the user messages {shown(asked)}, but should hold every "
        f"turn's question verbatim, in order: {questions}"
    )
