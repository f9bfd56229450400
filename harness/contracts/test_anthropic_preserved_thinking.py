"""Contract: newer Claude models: nothing before the latest thinking block changes; earlier rounds go back unchanged.

Incident: history conversion that rewrote or dropped the thinking of earlier
tool rounds (incident `anthropic-thinking-dropped`), and replay regrouped into all thinking,
then text, then tools (incident `anthropic-replay-regrouped`): older models ignore earlier
turns' thinking, newer ones check that nothing before the latest thinking
block changed.

Rule: in a turn of several tool rounds played by ``ScriptedModel(rounds,
format="anthropic")``, each request the kernel sends starts with the messages
of the request before it, unchanged, and judged under the newer models' rule
(every assistant message held to the round the provider sent, omission
included) nothing is refused. ``render_history`` of the persisted rounds,
transformed at any effort level, is likewise refused nothing under that rule.

Level: provider (Anthropic's newer models; older ones accept a changed or
dropped earlier thinking block).

Production fingerprint: on newer models only, HTTP 400 "`thinking` or
`redacted_thinking` blocks in the latest assistant message cannot be
modified" from the third round of a tool loop on, or on the first request
of a resumed session.
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.adapter import EFFORTS
from harness.clip import clip_json
from harness.contracts.anthropic_rounds import PINNED, as_sent, run
from harness.rules.anthropic_history import refusals
from harness.testing import anthropic_tool_loops
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.provider, pytest.mark.formats("anthropic")]

_loops = anthropic_tool_loops(thinking=True)


@given(loop=_loops)
@example(loop=PINNED)
def test_each_request_replays_the_one_before_unchanged(kernel, loop):
    model, _ = run(kernel, loop)
    for n in range(1, len(model.requests)):
        before, now = model.requests[n - 1].get("messages") or [], model.requests[n].get("messages") or []
        assert now[:len(before)] == before, (
            f"request #{n + 1} does not start with request #{n}'s messages unchanged\n"
            f"  request #{n}: {clip_json(before, 1200)}\n  request #{n + 1}: {clip_json(now[:len(before)], 1200)}")
    for n, request in enumerate(model.requests[1:], 2):
        refused = refusals(as_sent(request, loop), sent=loop[:n - 1], every_turn=True)
        assert not refused, (
            f"under the newer models' rule Anthropic would answer request #{n} with 400: "
            f"{[(r.path, r.message) for r in refused]}\n  messages: {clip_json(request.get('messages'), 2000)}")


@given(loop=_loops, effort=st.sampled_from([e for e in EFFORTS if e != "off"]))
@example(loop=PINNED, effort="high")
def test_rendered_and_transformed_history_keeps_every_round(kernel, transform, loop, effort):
    _, events = run(kernel, loop)
    messages = valid(kernel).render_history(events)
    body = {"model": "claude-sonnet", "max_tokens": 4096, "messages": messages}
    out = valid(transform).transform_request(body, {"effort": effort})
    refused = refusals(out, sent=loop, every_turn=True)
    assert not refused, (
        f"rendered and transformed at effort {effort!r}, under the newer models' rule Anthropic would refuse: "
        f"{[(r.path, r.message) for r in refused]}\n  messages: {clip_json(out.get('messages'), 2000)}")
