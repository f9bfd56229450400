"""Contract: with tools, every assistant turn sent to DeepSeek has ``reasoning_content``; real values stay.

Incident: fixing the kernel to store reasoning only helps rounds persisted
after the fix (incident `deepseek-reasoning-400`). Sessions on disk were written before the field
existed; every request carries tools, and DeepSeek's rule then wants
``reasoning_content`` on every earlier assistant turn, so those sessions got
HTTP 400 on every transform, restarts included: the missing field sits in old
records on disk. The remedy lives in the request transform: with tools, an
assistant message without the field gets ``""`` (reported to satisfy the check),
and a real value is never overwritten, or the model's actual reasoning would
be wiped.

Rule (the current era's rule, which this remedy serves; ``--deepseek-era``
selects the rule of the round-trip contracts): with ``tools``, each assistant
message lacking ``reasoning_content`` (no key, or null: no reasoning either
way) gains ``""``, in every round, not just the last; one that has a string
keeps its exact value; without ``tools`` no message gains it (a null may go,
or become ``""``). Every other key, of the body and of every message, is deep-equal to
the input; system, user and tool messages are untouched; the input body is not
modified.

Level: provider (DeepSeek's current round-trip rule; the ``""`` that
satisfies it is reported by users, not documented).

Production fingerprint: after an upgrade, old sessions answer HTTP 400 "The
reasoning_content in the thinking mode must be passed back to the API." on
every request and never recover; or the model loses its earlier reasoning
because an empty string replaced it.
"""

import copy

import pytest
from hypothesis import example, given

from harness.clip import clip_json, shown
from harness.testing import request_bodies
from harness.testing.requests import DEEPSEEK_URL, TOOLS, UNTIDY_BODY, one_call
from harness.under_test.invoke import valid

pytestmark = pytest.mark.provider

OPTIONS = {"base_url": DEEPSEEK_URL, "era": "current"}


def _history(*reasoning: str | None) -> list[dict]:
    """A user message, then tool rounds with the given reasoning (None: no key), then a final answer."""
    messages: list[dict] = [{"role": "user", "content": "Compare a.txt with b.txt."}]
    for n, text in enumerate(reasoning[:-1]):
        assistant = {"role": "assistant", "content": None, "tool_calls": one_call(f"call_{n}")}
        if text is not None:
            assistant["reasoning_content"] = text
        messages += [assistant, {"role": "tool", "tool_call_id": f"call_{n}", "content": "text"}]
    final = {"role": "assistant", "content": "They differ in line 3."}
    if reasoning[-1] is not None:
        final["reasoning_content"] = reasoning[-1]
    return messages + [final]


def _without_reasoning(message: dict) -> dict:
    return {k: v for k, v in message.items() if k != "reasoning_content"}


def _message_problems(n: int, before: dict, after: dict, has_tools: bool) -> list[str]:
    role = before.get("role")
    null = "reasoning_content" in before and before["reasoning_content"] is None
    if role != "assistant":
        # A null reasoning_content is no reasoning: it may go (test_reasoning_strings.py wants no null sent).
        untouched = [before, _without_reasoning(before)] if null else [before]
        if after in untouched:
            return []
        return [f"{role} message #{n} became {shown(after)}, but should be untouched: {shown(before)}"]
    problems = []
    if _without_reasoning(after) != _without_reasoning(before):
        problems.append(
            f"assistant message #{n}: fields besides reasoning_content became {shown(_without_reasoning(after))}, "
            f"but should be unchanged: {_without_reasoning(before)!r}"
        )
    got = after.get("reasoning_content", "<absent>")
    if "reasoning_content" in before and not null:
        if got != before["reasoning_content"]:
            problems.append(
                f"assistant message #{n}: reasoning_content={shown(got)}, but its existing value "
                f"{before['reasoning_content']!r} must never be overwritten"
            )
    elif has_tools and got != "":
        problems.append(
            f"assistant message #{n}: reasoning_content={shown(got)}, but should be backfilled with '' (tools present)"
        )
    elif not has_tools and got != "<absent>" and not (null and got == ""):
        problems.append(
            f"assistant message #{n}: reasoning_content={shown(got)} for "
            f"{shown(before.get('reasoning_content', '<absent>'))}, "
            "but nothing is backfilled without tools (a null may go, or become '')"
        )
    return problems


def _check(transform, body: dict) -> None:
    sent = copy.deepcopy(body)
    after = transform.transform_request(sent, OPTIONS)
    problems = [] if sent == body else [f"the input body was modified in place: {shown(sent)}"]
    rest_before = {k: v for k, v in body.items() if k != "messages"}
    rest_after = {k: v for k, v in after.items() if k != "messages"}
    if rest_after != rest_before:
        problems.append(
            f"body keys besides messages became {shown(rest_after)}, but should be unchanged: {shown(rest_before)}")
    messages = after.get("messages") or []
    if len(messages) != len(body["messages"]):
        problems.append(f"{len(messages)} messages came back, but {len(body['messages'])} went in")
    has_tools = bool(body.get("tools"))
    for n, (before, got) in enumerate(zip(body["messages"], messages)):
        problems += _message_problems(n, before, got, has_tools)
    assert not problems, (
        f"{len(problems)} problem(s) transforming for DeepSeek (tools={has_tools}, options {OPTIONS}):\n  "
        + "\n  ".join(problems)
        + f"\ninput messages: {clip_json(body['messages'], 1500)}"
    )


def test_backfill_covers_every_round(transform):
    transform = valid(transform)
    _check(transform, {"model": "deepseek-chat", "messages": _history(None, None, None), "tools": TOOLS})


def test_backfill_covers_a_null_left_in_place(transform):
    transform = valid(transform)
    history = _history(None, "Read a.txt first.", None)
    for message in history:
        if message.get("role") == "assistant" and "reasoning_content" not in message:
            message["reasoning_content"] = None
    _check(transform, {"model": "deepseek-chat", "messages": history, "tools": TOOLS})


def test_backfill_never_overwrites_real_reasoning(transform):
    transform = valid(transform)
    history = _history("Read a.txt first.", None, "", "Line 3 differs.")
    _check(transform, {"model": "deepseek-chat", "messages": history, "tools": TOOLS})


def test_no_backfill_without_tools(transform):
    transform = valid(transform)
    _check(transform, {"model": "deepseek-chat", "messages": _history(None, "Read b.txt.", None)})


@given(body=request_bodies())
@example(body=UNTIDY_BODY)
def test_any_history_is_backfilled_by_the_rule(transform, body):
    transform = valid(transform)
    _check(transform, body)
