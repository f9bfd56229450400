"""Contract: a live turn stored, loaded, rendered, trimmed and sent again keeps every rule at every link.

Incident: incident `deepseek-reasoning-400` lost reasoning at every layer the
kernel kept (the persisted event, cold storage, the renderer), and each layer's
own test was green: the loss only showed when the layers ran one after the
other, as production runs them, and the next request went out without it.
Incident `batch-path-pairing` was the same story for tool pairing. A contract
per capability proves each link alone; this one chains them.

Rule: a live untidy turn (text beside calls, a parallel-safe and an unsafe
tool in one round, a tool the turn does not offer, a tool that returns
nothing, reasoning on some rounds) and a second, plain turn are persisted,
stored in cold storage and loaded back, and

- the loaded events equal the persisted ones, every field, in order;
- the history rendered from the loaded events is the history rendered from
  the persisted ones, for a generic provider and for DeepSeek; it passes the
  pairing rule, holds both turns' questions as its user messages, verbatim
  and in order, and carries the text beside the calls, every tool output and
  both answers;
- trimmed to a budget far above its size it comes back unchanged; trimmed to
  the smallest budget it still ends with the latest turn, paired;
- sent to DeepSeek (current era, with tools) each assistant message carries
  its own round's reasoning, ``""`` where the round had none, and nothing else
  changes in the conversation;
- robust: with one more call in round 2 whose arguments were cut off, the
  loaded events still equal the persisted ones, and the history rendered
  from them replays round 2's calls with their ids, names and arguments byte
  for byte, the cut call answered by one tool message.

Level: per test. ``test_a_turn_survives_every_link_of_the_chain``: wire (the
conversation every later request carries).
``test_deepseek_gets_each_rounds_reasoning_at_the_end_of_the_chain``:
provider (DeepSeek's current round-trip rule).
``test_a_cut_call_survives_every_link_of_the_chain``: robust (the provider
sends a cut call only when the token limit or a gateway cuts the stream).

Production fingerprint: each capability's tests are green, yet the second
turn of a session answers HTTP 400 (a call without its result, or reasoning
missing), or the model sees its own text of the last round vanish after a
restart.
"""

import copy

import pytest

from harness.clip import clip_json, shown
from harness.contracts.turns import (
    ANSWER,
    QUESTION,
    CUT,
    CUT_ROUNDS,
    ROUND_1,
    ROUND_2,
    ROUNDS,
    answers,
    as_made,
    expected_output,
    replayed,
    tools as untidy_tools,
)
from harness.testing import ScriptedModel, content_text, pairing_violations
from harness.testing.events import differences
from harness.testing.requests import DEEPSEEK_URL, OPENAI_URL
from harness.under_test.invoke import valid



# The second turn asks again, in words a strip or a repeat of the first question would lose.
SECOND_QUESTION = "  And which of them changed since yesterday?\n"
SECOND_ANSWER = "Only b.txt changed."
SECOND_ROUNDS = [{"content": SECOND_ANSWER, "finish_reason": "stop"}]


def _live_turn_loaded(kernel, memory, first: list[dict] = ROUNDS):
    """(persisted events of a live untidy turn and a plain one, the same events after cold storage, the tools)."""
    tools = untidy_tools()
    persisted = []
    for question, rounds in ((QUESTION, first), (SECOND_QUESTION, SECOND_ROUNDS)):
        events = kernel.run_turn(question, ScriptedModel(rounds), tools)["events"]
        assert len(events) == len(rounds), f"{len(events)} events persisted for a turn of {len(rounds)} rounds"
        persisted += events
    cold = memory.store_blocks(copy.deepcopy(persisted))
    return persisted, memory.load_blocks(copy.deepcopy(cold)), tools


@pytest.mark.wire
def test_a_turn_survives_every_link_of_the_chain(kernel, memory):
    kernel, memory = valid(kernel), valid(memory)
    persisted, loaded, _ = _live_turn_loaded(kernel, memory)
    assert len(loaded) == len(persisted), f"stored {len(persisted)} events of a live turn, loaded {len(loaded)}"
    for n, (want, got) in enumerate(zip(persisted, loaded)):
        problems = differences(want, got)
        assert not problems, f"event #{n} of a live turn came back changed from cold storage:\n  " + "\n  ".join(
            problems)

    for base_url in (None, OPENAI_URL, DEEPSEEK_URL):
        fresh = kernel.render_history(copy.deepcopy(persisted), base_url=base_url)
        again = kernel.render_history(copy.deepcopy(loaded), base_url=base_url)
        assert again == fresh, (
            f"render_history(base_url={base_url!r}) of the loaded events gives {clip_json(again, 1500)}, but of the "
            f"persisted ones {clip_json(fresh, 1500)}"
        )
    history = kernel.render_history(copy.deepcopy(loaded))
    problems = pairing_violations(history)
    assert not problems, f"the history rendered from the loaded events breaks the pairing rule: {shown(problems)}"
    asked = [content_text(m.get("content")) for m in history if m.get("role") == "user"]
    assert asked == [QUESTION, SECOND_QUESTION], (
        f"the history rendered from the loaded events holds the user messages {shown(asked)}, but should hold both "
        f"turns' questions verbatim, in order: {[QUESTION, SECOND_QUESTION]}"
    )
    words = [ROUNDS[0]["content"], ANSWER, SECOND_ANSWER] + [
        out for out in (expected_output(c) for c in ROUND_1 + ROUND_2) if out]
    contents = [content_text(m.get("content")) for m in history]
    missing = [w for w in words if w not in contents]
    assert not missing, f"the rendered history lacks {shown(missing)}; history {clip_json(history, 1500)}"

    big = memory.trim_history(copy.deepcopy(history), 10**9)
    assert big == history, f"trimmed to a budget far above its size the history became {clip_json(big, 1500)}"
    small = memory.trim_history(copy.deepcopy(history), 1)
    latest = history[max(n for n, m in enumerate(history) if m.get("role") == "user"):]
    assert small[-len(latest):] == latest and not pairing_violations(small), (
        f"trimmed to budget 1 the history became {clip_json(small, 1500)}, but should end with the latest turn, paired"
    )


@pytest.mark.provider
def test_deepseek_gets_each_rounds_reasoning_at_the_end_of_the_chain(kernel, memory, transform):
    kernel, memory, transform = valid(kernel), valid(memory), valid(transform)
    _, loaded, tools = _live_turn_loaded(kernel, memory)
    deepseek = kernel.render_history(copy.deepcopy(loaded), base_url=DEEPSEEK_URL)
    body = {"model": "deepseek-chat", "messages": deepseek, "tools": [t.schema for t in tools], "stream": True}
    sent = transform.transform_request(copy.deepcopy(body), {"base_url": DEEPSEEK_URL, "era": "current"})
    assistants = [m for m in sent.get("messages") or [] if m.get("role") == "assistant"]
    carried = [m.get("reasoning_content", "<absent>") for m in assistants]
    wanted = [r.get("reasoning") or "" for r in ROUNDS + SECOND_ROUNDS]
    assert carried == wanted, (
        f"sent to DeepSeek, the assistant messages carry reasoning_content {shown(carried)}, but each round's own is "
        f"{wanted} ('' where a round had none)"
    )
    rest = [{k: v for k, v in m.items() if k != "reasoning_content"} for m in sent.get("messages") or []]
    plain = [{k: v for k, v in m.items() if k != "reasoning_content"} for m in deepseek]
    assert rest == plain, (
        f"sent to DeepSeek the conversation became {clip_json(rest, 1500)}, but was {clip_json(plain, 1500)}"
    )


@pytest.mark.robust
def test_a_cut_call_survives_every_link_of_the_chain(kernel, memory):
    kernel, memory = valid(kernel), valid(memory)
    persisted, loaded, _ = _live_turn_loaded(kernel, memory, CUT_ROUNDS)
    problems = [p for n, (want, got) in enumerate(zip(persisted, loaded)) for p in differences(want, got)]
    assert len(loaded) == len(persisted) and not problems, (
        f"the events of a turn with a cut call came back changed from cold storage ({len(persisted)} stored, "
        f"{len(loaded)} loaded):\n  " + "\n  ".join(problems))
    history = kernel.render_history(copy.deepcopy(loaded))
    calls = CUT_ROUNDS[1]["tool_calls"]
    at = next((k for k, m in enumerate(history) if CUT["id"] in {c.get("id") for c in m.get("tool_calls") or ()}),
              None)
    assert at is not None, f"the rendered history has no assistant message with the cut call: {clip_json(history, 1500)}"
    assert replayed(history[at]) == as_made(calls), (
        f"the rendered history replays round 2's calls as {shown(replayed(history[at]))}, but the model made them "
        f"{shown(as_made(calls))}: each call's id, name and arguments go back byte for byte, cut ones included"
    )
    answer = [m for m in history[at + 1:] if m.get("role") == "tool" and m.get("tool_call_id") == CUT["id"]]
    content = content_text(answer[0].get("content")) if answer else "<no tool message>"
    assert len(answer) == 1 and answers(CUT, content), (
        f"the rendered history answers the cut call {CUT['id']} with {shown(content)} ({len(answer)} tool messages); "
        f"it should keep its one result: what the tool returned, {expected_output(CUT)!r}, or an error text"
    )
