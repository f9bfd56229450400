"""Contract: effort turns thinking on in the form the model takes, and off as the model allows it.

Incident: thinking turned off in the middle of a tool loop left the tool
turn's thinking in the final assistant message, and a budget at or above
``max_tokens`` was sent (incident `anthropic-thinking-switch`); then the
current Claude models refused the budget form every earlier one needed
(incident `anthropic-adaptive-thinking`). Each is refused on every request
of the session.

Rule: ``transform_request(body, {"effort": e})`` of a Messages body (a
history possibly inside a tool loop, any ``max_tokens``, with or without a
``thinking`` key already), for the model of every row of the model table
(:mod:`harness.rules.models`; ``--model`` picks one) and one model the table
does not know (judged by the wire's forms alone), each as Anthropic names it,
as a gateway does (``anthropic/claude-opus-4.7``) and as Bedrock does
(``anthropic.claude-opus-4-7-v1:0``); the history may be a first turn (no
assistant message yet) or hold an assistant message in string form:

- ``e`` None (not asked): the body comes back as it was;
- ``"off"``: on a model that can turn thinking off, no thinking (no
  ``thinking`` key, or ``{"type": "disabled"}``), and the open assistant
  message (the one the request continues) holds no thinking or
  redacted_thinking block, the latest assistant message keeping its other
  blocks in order and every other message unchanged; on a model that always
  thinks (it refuses ``disabled``), no ``disabled`` and every message
  unchanged, since its thinking stays on;
- any other level: thinking on in a form the model takes (``{"type":
  "adaptive"}`` with an ``output_config.effort`` word it takes, or
  ``{"type": "enabled", "budget_tokens": N}`` with N >= 1024 and below
  ``max_tokens``), ``max_tokens`` never lowered, every message unchanged; and
  the levels reach the model in order: a higher level never thinks less, and
  ``max`` more than ``low``;
- every other key (model, system, tools, stream, and ``output_config``'s
  settings beside ``effort``, such as a structured output's ``format``) is
  kept, and the caller's body is left as it was. Judged as Anthropic would judge it (the rounds as
  sent), the result is refused nothing.

Level: provider (Anthropic's thinking parameters per model, and its rule on
thinking in the final assistant message).

Production fingerprint: HTTP 400 "When thinking is disabled, an `assistant`
message in the final position cannot contain `thinking`." right after the
user turned thinking off; "`thinking.type.enabled` is not supported for this
model." on every request after a model upgrade; with a budget, a 400 on every
request whose ``max_tokens`` is not above it; a first request that fails
with thinking off (the adapter crashed on a history with no assistant message
yet); a JSON answer that comes back as prose once effort is set (the
structured output's ``format`` was dropped).
"""

import copy
import re

import pytest
from hypothesis import example, given, strategies as st

from harness.adapter import EFFORTS
from harness.clip import clip_json, shown
from harness.rules import anthropic_thinking
from harness.rules.anthropic_history import THINKING_TYPES, open_assistant, refusals
from harness.rules.anthropic_thinking import effective, thinking_on
from harness.rules.models import ADAPTIVE, BUDGET, ModelRow
from harness.testing import anthropic_persisted_rounds, anthropic_wire_history
from harness.testing.anthropic_history import INTERLEAVED_ANSWER, INTERLEAVED_TURN
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.provider, pytest.mark.formats("anthropic")]

LEVELS = [e for e in EFFORTS if e != "off"]
_thinking_keys = st.none() | st.sampled_from([{"type": "disabled"}, {"type": "adaptive"}]) | st.builds(
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
    if draw(st.booleans()):
        body["output_config"] = dict(_STRUCTURED)
    existing = draw(_thinking_keys)
    if existing is not None:
        body["thinking"] = existing
    return body, [{"blocks": e["blocks"]} for e in events]


# A structured output's settings, which live in output_config beside the effort word.
_STRUCTURED = {"format": {"type": "json_schema", "schema": {"type": "object", "properties": {"answer": {"type": "string"}},
                                                            "required": ["answer"], "additionalProperties": False}}}
PINNED = ({"model": "claude-sonnet", "max_tokens": 1024, "stream": True, "output_config": _STRUCTURED,
           "messages": anthropic_wire_history([
    {"input": "Weather and folder?", "blocks": INTERLEAVED_TURN["blocks"], "timestamp": 1.0,
     "tool_results": [{"tool_call_id": f"toolu_0{k}", "content": "ok"} for k in (1, 2, 3)]}])},
    [INTERLEAVED_TURN])
# A session's first request: no assistant message yet.
FIRST_TURN = ({"model": "claude-sonnet", "max_tokens": 1024, "stream": True,
               "messages": [{"role": "user", "content": "Hello."}]}, [])
# A plain chat history: the assistant's reply in string form, as the API also takes it.
STRING_REPLY = ({"model": "claude-sonnet", "max_tokens": 1024, "stream": True, "messages": [
    {"role": "user", "content": "Hello."}, {"role": "assistant", "content": "Hi! How can I help?"},
    {"role": "user", "content": "Name a colour."}]}, [{"blocks": [{"type": "text", "text": "Hi! How can I help?"}]}])


# A model id as Anthropic names it, as gateways write the same model (a vendor prefix, version dots), and as
# Bedrock does (its provider prefix and a version suffix).
SPELLINGS = pytest.mark.parametrize("spelling", ["anthropic", "gateway", "bedrock"])


def _model_id(row: ModelRow, spelling: str) -> str:
    if spelling == "anthropic":
        return row.example
    if spelling == "bedrock":
        return f"anthropic.{row.example}-v1:0"
    return "anthropic/" + re.sub(r"(?<=\d)-(?=\d$)|(?<=\d)-(?=\d-)", ".", row.example)


def _transform(transform, body: dict, effort, row: ModelRow, spelling: str = "anthropic") -> tuple[dict, dict]:
    """The body for ``row``'s model (spelt as ``spelling`` says), and what the adapter made of it under ``effort``."""
    body = {**body, "model": _model_id(row, spelling)}
    before = copy.deepcopy(body)
    out = valid(transform).transform_request(body, {"effort": effort})
    assert body == before, f"transform_request changed the caller's body: {clip_json(body, 800)}"
    assert isinstance(out, dict), f"transform_request returned {shown(out)}, expected a body"
    return body, out


def _kept_keys(out: dict, body: dict) -> list[str]:
    changed = [k for k in ("model", "system", "tools", "stream") if k in body and out.get(k) != body[k]]
    return changed + (["output_config (beside effort)"] if _settings(out) != _settings(body) else [])


def _settings(body: dict) -> dict:
    """``output_config``'s settings other than the effort word, which the level may set."""
    config = body.get("output_config")
    if config is None:
        return {}
    return {k: v for k, v in config.items() if k != "effort"} if isinstance(config, dict) else {"": config}


def _without_thinking(content: object) -> object:
    return [b for b in content if b.get("type") not in THINKING_TYPES] if isinstance(content, list) else content


def _shown(out: dict, row: ModelRow, effort) -> str:
    return f"\n  model: {row.describe()}, effort {effort!r}\n  sent: {clip_json({k: v for k, v in out.items() if k != 'messages'}, 800)}"


def _refused(out: dict, row: ModelRow, rounds: list[dict] | None, io: str) -> None:
    """Anthropic refuses nothing in ``out`` for ``row``'s model: its thinking parameters, and (``rounds`` given)
    its history as the model reads it, thinking on where it is on by default."""
    said = anthropic_thinking.refusals(out, row)
    assert not said, f"Anthropic refuses these thinking parameters for {row.example}: {said}{io}"
    if rounds is None:
        return
    history = refusals(effective(out, row), sent=rounds)
    assert not history, f"Anthropic would refuse the history: {[r.message for r in history]}{io}"


@SPELLINGS
@given(case=bodies())
@example(case=PINNED)
def test_no_effort_leaves_the_body_as_it_was(transform, model_row, spelling, case):
    body, out = _transform(transform, case[0], None, model_row, spelling)
    assert out == body, (f"with no effort asked the body should come back unchanged: {clip_json(out, 1500)}"
                         f"{_shown(out, model_row, None)}")


@SPELLINGS
@given(case=bodies())
@example(case=PINNED)
@example(case=FIRST_TURN)
@example(case=STRING_REPLY)
def test_off_thinks_as_little_as_the_model_allows(transform, model_row, spelling, case):
    body, out = _transform(transform, case[0], "off", model_row, spelling)
    row, sent = model_row, body["messages"]
    io = _shown(out, row, "off") + f"\n  messages sent: {clip_json(out.get('messages'), 1200)}"
    # A model that always thinks is refused a tool turn without thinking whatever the adapter sends: the
    # history it is given is its caller's, so it is held to leaving every message as it was.
    _refused(out, row, case[1] if row.can_disable else None, io)
    messages = out.get("messages") or []
    assert not _kept_keys(out, body), f"the keys {_kept_keys(out, body)} changed{io}"
    if not row.can_disable:
        assert thinking_on(out) in (None, ADAPTIVE) and messages == sent, (
            f"{row.example} always thinks: effort 'off' may only leave thinking adaptive, with every message "
            f"as it was (its thinking stays on), but sent thinking={shown(out.get('thinking'))}{io}")
        return
    assert out.get("thinking", {"type": "disabled"}) == {"type": "disabled"}, (
        f"effort 'off' sent thinking={shown(out.get('thinking'))}, expected none (or {{'type': 'disabled'}}){io}")
    at = open_assistant(sent)
    left = [b.get("type") for b in (messages[at].get("content") or []) if isinstance(b, dict)] if at is not None \
        and at < len(messages) else []
    assert not [t for t in left if t in THINKING_TYPES], (
        f"the open assistant message (#{at}) still holds {shown(left)}: with thinking off Anthropic refuses thinking "
        f"in it{io}")
    latest = max((k for k, m in enumerate(sent) if m["role"] == "assistant"), default=None)
    others_changed = [k for k, (m, o) in enumerate(zip(messages, sent)) if k != latest and m != o]
    assert len(messages) == len(sent) and not others_changed, (
        f"messages {others_changed} changed (or the count went from {len(sent)} to {len(messages)}); only the latest "
        f"assistant message may lose its thinking{io}")
    if latest is not None:
        want, got = _without_thinking(sent[latest]["content"]), _without_thinking(messages[latest].get("content"))
        assert got == want, f"the latest assistant message's other blocks should stay {shown(want)}{io}"


@SPELLINGS
@given(case=bodies(thinking=True), effort=st.sampled_from(LEVELS))
@example(case=PINNED, effort="max")
@example(case=PINNED, effort="low")
def test_a_level_turns_thinking_on_in_a_form_the_model_takes(transform, model_row, spelling, case, effort):
    body, out = _transform(transform, case[0], effort, model_row, spelling)
    io = _shown(out, model_row, effort)
    _refused(out, model_row, case[1], io)  # first: a form the model refuses is told in the provider's words
    assert thinking_on(out) in model_row.thinking, (
        f"effort {effort!r} should turn thinking on as {' or '.join(model_row.thinking)}, but sent "
        f"thinking={shown(out.get('thinking'))}{io}")
    most = out.get("max_tokens")
    assert isinstance(most, int) and most >= body["max_tokens"], (
        f"max_tokens went from {body['max_tokens']} down to {shown(most)}{io}")
    assert out.get("messages") == body["messages"], f"with thinking on every message should be unchanged{io}"
    assert not _kept_keys(out, body), f"the keys {_kept_keys(out, body)} changed{io}"


def _depth(out: dict, row: ModelRow) -> tuple:
    """How hard ``out`` asks the model to think, comparable within one form: (form, rank)."""
    form = thinking_on(out)
    if form == BUDGET:
        return form, out["thinking"].get("budget_tokens")
    config = out.get("output_config") if isinstance(out.get("output_config"), dict) else {}
    word = config.get("effort", "high")  # high is what an adaptive model does when no effort is given
    return form, row.efforts.index(word) if word in row.efforts else word


@SPELLINGS
def test_the_levels_reach_the_model_in_order(transform, model_row, spelling):
    """The slider is not a no-op: each level thinks at least as hard as the one below, and max more than low."""
    body = PINNED[0]
    depths = {e: _depth(_transform(transform, body, e, model_row, spelling)[1], model_row) for e in LEVELS}
    io = f"\n  model: {model_row.describe()}\n  sent per level (form, budget or effort rank): {depths}"
    ranks = [depths[e] for e in LEVELS]
    assert all(a[0] == b[0] and a[1] <= b[1] for a, b in zip(ranks, ranks[1:])) and ranks[0] < ranks[-1], (
        f"the levels {', '.join(LEVELS)} should ask for ever deeper thinking in one form, max deeper than low{io}")
