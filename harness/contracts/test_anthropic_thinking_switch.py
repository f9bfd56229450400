"""Contract: effort turns extended thinking on with a budget Anthropic accepts, and off leaving no thinking behind.

Incident: thinking turned off in the middle of a tool loop left the tool
turn's thinking in the final assistant message, and a budget at or above
``max_tokens`` was sent (incident `anthropic-thinking-switch`); both are refused on every
request of the session.

Rule: ``transform_request(body, {"effort": e})`` of a Messages body (a
history possibly inside a tool loop, any ``max_tokens``, with or without a
``thinking`` key already):

- ``e`` None (not asked): the body comes back as it was;
- ``"off"``: no extended thinking (no ``thinking`` key, or ``{"type":
  "disabled"}``); the open assistant message (the one the request continues)
  holds no thinking or redacted_thinking block; the latest assistant message
  keeps its other blocks in order, and every other message is unchanged;
- any other level: ``thinking`` is ``{"type": "enabled", "budget_tokens":
  N}`` with N an integer >= 1024 and below the body's ``max_tokens``, which
  is never lowered; every message is unchanged;
- every other key (model, system, tools, stream) is kept, and the caller's
  body is left as it was. Judged as Anthropic would judge it (the rounds as
  sent), the result is refused nothing.

Level: provider (Anthropic's extended-thinking parameters and its rule on
thinking in the final assistant message).

Production fingerprint: HTTP 400 "When thinking is disabled, an `assistant`
message in the final position cannot contain `thinking`." right after the
user turned thinking off; with thinking on, a 400 on the budget of every
request whose ``max_tokens`` is not above it.
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.adapter import EFFORTS
from harness.clip import clip_json, shown
from harness.rules.anthropic_history import THINKING_TYPES, open_assistant, refusals
from harness.testing import anthropic_persisted_rounds, anthropic_wire_history
from harness.testing.anthropic_history import INTERLEAVED_ANSWER, INTERLEAVED_TURN
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.provider, pytest.mark.formats("anthropic")]

LEVELS = [e for e in EFFORTS if e != "off"]
_thinking_keys = st.none() | st.just({"type": "disabled"}) | st.builds(
    lambda n: {"type": "enabled", "budget_tokens": n}, st.integers(1024, 40000))


@st.composite
def bodies(draw, thinking: bool | None = None) -> tuple[dict, list[dict]]:
    """A Messages body and the rounds it replays; the history may end inside a tool loop."""
    events = draw(anthropic_persisted_rounds())
    if thinking is not None:
        events = [e for e in events if (e["blocks"][0]["type"] in ("reasoning", "redacted_reasoning")) == thinking]
    events = events[:draw(st.integers(1, len(events)))] if events else []
    if not events or not events[0]["input"]:
        events = [{"input": "Go.", "blocks": INTERLEAVED_ANSWER["blocks"], "tool_results": [], "timestamp": 1.0}]
    body = {"model": "claude-sonnet", "max_tokens": draw(st.sampled_from([1, 1024, 1025, 4096, 64000])
                                                           | st.integers(1, 70000)),
            "system": "Be brief.", "messages": anthropic_wire_history(events), "stream": True,
            "tools": [{"name": "list_dir", "input_schema": {"type": "object", "properties": {}}}]}
    existing = draw(_thinking_keys)
    if existing is not None:
        body["thinking"] = existing
    return body, [{"blocks": e["blocks"]} for e in events]


PINNED = ({"model": "claude-sonnet", "max_tokens": 1024, "stream": True, "messages": anthropic_wire_history([
    {"input": "Weather and folder?", "blocks": INTERLEAVED_TURN["blocks"], "timestamp": 1.0,
     "tool_results": [{"tool_call_id": f"toolu_0{k}", "content": "ok"} for k in (1, 2, 3)]}])},
    [INTERLEAVED_TURN])


def _transform(transform, body: dict, effort) -> dict:
    before = copy.deepcopy(body)
    out = valid(transform).transform_request(body, {"effort": effort})
    assert body == before, f"transform_request changed the caller's body: {clip_json(body, 800)}"
    assert isinstance(out, dict), f"transform_request returned {shown(out)}, expected a body"
    return out


def _kept_keys(out: dict, body: dict) -> list[str]:
    return [k for k in ("model", "system", "tools", "stream") if k in body and out.get(k) != body[k]]


@given(case=bodies())
@example(case=PINNED)
def test_no_effort_leaves_the_body_as_it_was(transform, case):
    body, _ = case
    out = _transform(transform, body, None)
    assert out == body, f"with no effort asked the body should come back unchanged: {clip_json(out, 1500)}"


@given(case=bodies())
@example(case=PINNED)
def test_off_sends_no_thinking_and_none_in_the_open_message(transform, case):
    body, _ = case
    out = _transform(transform, body, "off")
    shown_io = f"\n  sent: {clip_json(out, 1500)}"
    assert out.get("thinking", {"type": "disabled"}) == {"type": "disabled"}, (
        f"effort 'off' sent thinking={shown(out.get('thinking'))}, expected none (or {{'type': 'disabled'}})"
        f"{shown_io}")
    messages, sent = out.get("messages") or [], body["messages"]
    at = open_assistant(sent)
    left = [b.get("type") for b in (messages[at].get("content") or []) if isinstance(b, dict)] if at is not None \
        and at < len(messages) else []
    assert not [t for t in left if t in THINKING_TYPES], (
        f"the open assistant message (#{at}) still holds {shown(left)}: with thinking off Anthropic refuses thinking "
        f"in it{shown_io}")
    latest = max((k for k, m in enumerate(sent) if m["role"] == "assistant"), default=None)
    others_changed = [k for k, (m, o) in enumerate(zip(messages, sent)) if k != latest and m != o]
    assert len(messages) == len(sent) and not others_changed, (
        f"messages {others_changed} changed (or the count went from {len(sent)} to {len(messages)}); only the latest "
        f"assistant message may lose its thinking{shown_io}")
    if latest is not None:
        want = [b for b in sent[latest]["content"] if b.get("type") not in THINKING_TYPES]
        got = [b for b in messages[latest].get("content") or [] if b.get("type") not in THINKING_TYPES]
        assert got == want, f"the latest assistant message's other blocks should stay {shown(want)}{shown_io}"
    assert not _kept_keys(out, body), f"the keys {_kept_keys(out, body)} changed{shown_io}"


@given(case=bodies(thinking=True), effort=st.sampled_from(LEVELS))
@example(case=PINNED, effort="max")
@example(case=PINNED, effort="low")
def test_a_level_enables_thinking_with_a_budget_below_max_tokens(transform, case, effort):
    body, rounds = case
    out = _transform(transform, body, effort)
    shown_io = f"\n  sent: {clip_json({k: v for k, v in out.items() if k != 'messages'}, 800)}"
    thinking = out.get("thinking") if isinstance(out.get("thinking"), dict) else {}
    budget, most = thinking.get("budget_tokens"), out.get("max_tokens")
    assert thinking.get("type") == "enabled", f"effort {effort!r} should enable thinking{shown_io}"
    assert isinstance(budget, int) and not isinstance(budget, bool) and budget >= 1024, (
        f"effort {effort!r}: budget_tokens={shown(budget)}, Anthropic's minimum is 1024{shown_io}")
    assert isinstance(most, int) and isinstance(budget, int) and budget < most, (
        f"effort {effort!r}: budget_tokens={shown(budget)} must be below max_tokens={shown(most)}{shown_io}")
    assert isinstance(most, int) and most >= body["max_tokens"], (
        f"max_tokens went from {body['max_tokens']} down to {shown(most)}{shown_io}")
    assert out.get("messages") == body["messages"], f"with thinking on every message should be unchanged{shown_io}"
    assert not _kept_keys(out, body), f"the keys {_kept_keys(out, body)} changed{shown_io}"
    refused = refusals(out, sent=rounds)
    assert not refused, f"Anthropic would refuse it: {[r.message for r in refused]}{shown_io}"
