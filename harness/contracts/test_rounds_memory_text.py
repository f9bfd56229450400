"""Contract: a persisted round distils and is indexed with everything that happened in it, in the order it happened, in every neutral-turn format.

Incident: the kernel of incident `deepseek-reasoning-400` distilled and
indexed old context from an event's input, response and tool outputs only;
the reasoning, where a round's key decision often lives, was never read. A
round of Anthropic Messages, OpenAI Responses or Gemini holds its reasoning
and its text as blocks in the order they were received (thinking between
texts, interleaved), so a distillation that reads them regrouped (every
thought, then every answer) gets cause and effect backwards as surely as
one that reads the answer first.

Rule: stated once over the neutral persisted round (:mod:`harness.adapter`),
for every format whose strategies row has persisted rounds. ``distill(round)``
holds, in this order: the round's input (when it has one), each of its
``reasoning`` and ``text`` blocks' non-empty texts in block order, then each
non-empty tool result in the order of its results; each text whole.
``vector_text(round)`` holds its input and each text block's text. Whether
reasoning is read (into both) is the ``memory.reasoning`` policy (default
``included``); under ``excluded`` no reasoning text appears, and the rest
keeps its order. Neither call changes the round. Judged on tagged rounds
(every text marked by its part, so "holds the reasoning" has one answer) and
on the rounds the format under test persists.

Level: policy (``memory.reasoning``: what a distillation reads is a product
decision an adapter may take differently).

Production fingerprint: distilled memories that never mention why the agent
did what it did, or that present its reasoning as a reaction to its own
answer; memory recall that never finds a round by the intent the model worked
out.
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import shown
from harness.testing.formats import PINNED, having, wire_format  # noqa: F401 (the fixture)
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.policy, pytest.mark.formats(*having("persisted_rounds"))]

_AT = 1731300000.0


def _thought(tag: str) -> dict:
    return {"type": "reasoning", "text": f"<reasoning {tag}>they mean the refund, so look up invoices", "signature": ""}


def _said(tag: str) -> dict:
    return {"type": "text", "text": f"<response {tag}>checking the invoices"}


_CALLS = [{"type": "tool_call", "id": f"call_{k}", "name": "invoices", "arguments": f'{{"n": {k}}}'} for k in (1, 2)]
# Tagged rounds: a text round, a tool round, thinking interleaved with text, and a later round with no input.
TAGGED = {
    "text-round": {"input": "<input>which invoice was refunded?", "blocks": [_thought("a"), _said("a")],
                   "tool_results": [], "timestamp": _AT},
    "tool-round": {"input": "<input>which invoice was refunded?", "blocks": [_thought("a"), _said("a"), *_CALLS],
                   "tool_results": [{"tool_call_id": "call_1", "name": "invoices", "content": "<tool 0>12 refunded"},
                                    {"tool_call_id": "call_2", "name": "invoices", "content": ""},
                                    {"tool_call_id": "call_2", "name": "invoices", "content": "<tool 2>13 paid"}],
                   "timestamp": _AT},
    "interleaved": {"input": "<input>and the one before?",
                    "blocks": [_thought("a"), _said("a"), _thought("b"), _said("b"), _said("c")],
                    "tool_results": [], "timestamp": _AT},
    "later-round": {"input": None, "blocks": [_said("a"), _thought("b"), {"type": "text", "text": ""}, _said("b")],
                    "tool_results": [], "timestamp": _AT},
}


def _texts(event: dict, kind: str) -> list[str]:
    return [b["text"] for b in event.get("blocks") or ()
            if isinstance(b, dict) and b.get("type") == kind and isinstance(b.get("text"), str) and b["text"]]


def _in_order(text: str, parts: list[str]) -> str | None:
    """The first of ``parts`` not found after the ones before it (leftmost matches), else None."""
    at = 0
    for part in parts:
        found = text.find(part, at)
        if found < 0:
            return part
        at = found + len(part)
    return None


def _judge(memory, policy, event: dict, tagged: bool) -> None:
    memory = valid(memory)
    included = policy["memory.reasoning"] == "included"
    before = copy.deepcopy(event)
    distilled, indexed = memory.distill(event), memory.vector_text(event)
    assert event == before, f"distill or vector_text changed the round it was given to {shown(event)}"
    where = f"memory.reasoning={policy['memory.reasoning']}; round {shown(event)}"
    assert isinstance(distilled, str) and isinstance(indexed, str), (
        f"distill gave {shown(distilled)} and vector_text {shown(indexed)}; both should be text; {where}")
    question = [event["input"]] if isinstance(event.get("input"), str) and event["input"] else []
    blocks = [b["text"] for b in event.get("blocks") or () if isinstance(b, dict) and b.get("type") in (
        ("reasoning", "text") if included else ("text",)) and isinstance(b.get("text"), str) and b["text"]]
    outputs = [r["content"] for r in event.get("tool_results") or () if isinstance(r, dict) and r.get("content")]
    lost = _in_order(distilled, question + blocks + outputs)
    assert lost is None, (
        f"the distillation {shown(distilled)} should read the input, the {'reasoning and text' if included else 'text'} "
        f"blocks in block order, then the tool outputs, each whole; {shown(lost)} is missing or out of that order; "
        f"{where}")
    for want in question + _texts(event, "text") + (_texts(event, "reasoning") if included else []):
        assert want in indexed, f"the vector text {shown(indexed)} lacks {shown(want)}; {where}"
    if tagged and not included:
        for thought in _texts(event, "reasoning"):
            assert thought not in distilled and thought not in indexed, (
                f"the reasoning {shown(thought)} is read, though the policy excludes it: distillation "
                f"{shown(distilled)}, vector text {shown(indexed)}; {where}")


@pytest.mark.parametrize("name", sorted(TAGGED))
def test_a_tagged_round_is_read_whole_in_order(memory, policy, name):
    _judge(memory, policy, TAGGED[name], tagged=True)


@given(data=st.data())
@example(data=PINNED)
def test_every_persisted_round_is_read_in_order(memory, policy, wire_format, data):
    for events in wire_format.cases(data, "persisted_rounds"):
        for event in events:
            _judge(memory, policy, event, tagged=False)
