"""Contract: the distillation text of an event reads input, reasoning, response, tool outputs, in that order.

Incident: the kernel of incident `deepseek-reasoning-400` distilled old context from an event's input,
response and tool outputs only; the reasoning, where the round's key decision
often lives, was never read. The fix puts the reasoning in, in the order the
round happened: what was asked, what the model thought, what it answered, what
its tools returned. A summary that reads the answer before the thought behind
it gets cause and effect backwards.

Rule: every non-empty part of the event appears in the distillation text, and
the input comes before the reasoning, the reasoning before the response, and
the response before the tool outputs (which keep the order of the event's
results, a tool that returned nothing adding nothing); this holds for any
event, empty parts and equal tool outputs included, and distilling leaves the
event as it was; every part is read whole, however long. Whether the
reasoning is read at all is the ``memory.reasoning`` policy (default
``included``); with ``excluded`` it must not appear, and the rest keeps its
order.

Level: policy (``memory.reasoning``: what a distillation reads is a product
decision an adapter may take differently).

Production fingerprint: distilled memories that never mention why the agent
did what it did, or that present its reasoning as a reaction to its own answer.
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import shown
from harness.under_test.invoke import valid

pytestmark = pytest.mark.policy

INPUT = "INPUT-7f3: which invoice was refunded?"
REASONING = "REASONING-a91: they mean the refund, not the order, so look up invoices first"
RESPONSE = "RESPONSE-c42: checking the invoices"
OUTPUTS = ["TOOL-OUTPUT-e10: invoice 12 refunded", "TOOL-OUTPUT-e11: invoice 13 paid"]


def _event(with_tools: bool) -> dict:
    calls = [{"id": f"call_{k}", "name": "invoices", "arguments": f'{{"n":{k}}}'} for k in range(2 if with_tools else 0)]
    return {
        "input": INPUT,
        "response": RESPONSE,
        "reasoning": REASONING,
        "tool_calls": calls,
        "tool_results": [{"tool_call_id": c["id"], "content": out} for c, out in zip(calls, OUTPUTS)],
        "tools_used": ["invoices"] if with_tools else [],
        "timestamp": 1731300000.0,
    }


@pytest.mark.parametrize("with_tools", [False, True], ids=["text-round", "tool-round"])
def test_distillation_reads_in_chronological_order(memory, policy, with_tools):
    event = _event(with_tools)
    included = policy["memory.reasoning"] == "included"
    parts = [INPUT, *([REASONING] if included else []), RESPONSE, *(OUTPUTS if with_tools else [])]
    text = memory.distill(event)
    assert included or REASONING not in text, (
        f"the distillation text holds the reasoning {REASONING!r}, but the policy memory.reasoning=excluded "
        f"keeps it out; got {text!r} for event {event!r}"
    )
    missing = [part for part in parts if part not in text]
    assert not missing, f"the distillation text lacks {shown(missing)}; got {shown(text)} for event {shown(event)}"
    positions = [text.index(part) for part in parts]
    order = [part.split(":")[0] for _, part in sorted(zip(positions, parts))]
    wanted = [part.split(":")[0] for part in parts]
    assert order == wanted, (
        f"the distillation text reads {shown(order)}, but should read {wanted}; got {shown(text)} for event "
        f"{shown(event)}"
    )


# Short texts of any characters, and now and then a long one: far above any length a summary might cut at.
_text = st.one_of(
    st.text(alphabet=st.characters(blacklist_characters="\x00"), max_size=12),
    st.integers(2_000, 12_000).map(lambda n: "long text " * n),
)


@st.composite
def _tagged_events(draw) -> dict:
    """An event whose every part is tagged, so its place in the text is unambiguous; parts may be empty."""
    n = draw(st.integers(0, 4))
    calls = [{"id": f"call_{k}", "name": "lookup", "arguments": "{}"} for k in range(n)]
    outputs = [draw(st.sampled_from(["", "same output", None])) for _ in range(n)]
    results = []
    for k, (call, output) in enumerate(zip(calls, outputs)):
        text = f"<tool {k}>{draw(_text)}" if output is None else output
        results.append({"tool_call_id": call["id"], "content": text})

    def part(tag: str) -> str:
        return draw(st.sampled_from(["", f"<{tag}>{draw(_text)}"]))

    reasoning = draw(st.sampled_from([None, ""])) if draw(st.booleans()) else part("reasoning")
    return {"input": part("input"), "response": part("response"), "reasoning": reasoning,
            "tool_calls": calls, "tool_results": results,
            "tools_used": ["lookup"] if calls else [], "timestamp": 1731300000.0}


# Pinned: a round as long as production's: reasoning and a tool's output (a log) of several thousand characters.
_LOG = "".join(f"03:{k // 60:02d}:{k % 60:02d} step {k} ok\n" for k in range(300)) + "03:05:00 step 300 FAILED\n"
LONG_ROUND = {"input": "Why did the nightly fail?", "response": "The log names the failing step.",
              "reasoning": "".join(f"Step {k} passed, so the cause is later. " for k in range(150)),
              "tool_calls": [{"id": "call_log", "name": "read_log", "arguments": '{"run": "nightly"}'}],
              "tool_results": [{"tool_call_id": "call_log", "content": _LOG}], "tools_used": ["read_log"],
              "timestamp": 1731300000.0}


@given(event=_tagged_events())
@example(event=LONG_ROUND)
def test_any_event_distils_in_order(memory, policy, event):
    before = copy.deepcopy(event)
    text = valid(memory).distill(event)
    assert event == before, f"distill changed the event it was given to {shown(event)}; it was {shown(before)}"
    included = policy["memory.reasoning"] == "included"
    parts = [event["input"], event["reasoning"] if included else "", event["response"],
             *(r["content"] for r in event["tool_results"])]
    parts = [p for p in parts if p]
    at, order = 0, []
    for piece in parts:
        found = text.find(piece, at)
        order.append(found)
        if found < 0:
            break
        at = found + len(piece)
    assert all(k >= 0 for k in order), (
        f"the distillation text {shown(text)} does not hold {shown(parts)} in that order (input, reasoning per the "
        "policy "
        f"memory.reasoning={policy['memory.reasoning']}, response, then each tool output in its result's order); "
        f"event {event!r}"
    )
    if not included and event["reasoning"]:
        assert event["reasoning"] not in text, (
            f"the distillation text holds the reasoning {shown(event['reasoning'])}, but memory.reasoning=excluded "
            f"keeps it out; got {text!r}"
        )
