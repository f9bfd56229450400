"""Contract: the stop reason ``message_delta`` sends is the turn's, whichever of Anthropic's values it is.

Incident: `anthropic-stop-reason`: decoders that knew only some stop reasons
mapped ``pause_turn`` and ``refusal`` to a plain end of turn, or to an error,
or took the stop reason from ``message_start`` (where it is always null).

Rule: for each stop reason Anthropic sends (``end_turn``, ``tool_use``,
``max_tokens``, ``stop_sequence``, ``pause_turn``, ``refusal``) and any turn
streamed as Anthropic streams it, the decoded turn's ``stop_reason`` is that
value, unchanged.

Level: wire: ``message_delta.delta.stop_reason`` is one of these six in the
Messages format, ``message_start``'s is null, and the kernel decides on the
value itself (answer the calls, continue a paused turn, report a refusal).

Production fingerprint: a paused server-tool turn ends as if complete; a
refusal comes back as an empty, successful answer; a ``tool_use`` turn whose
calls are never run.
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.testing.anthropic_incident import PLAN, TURN
from harness.clip import shown
from harness.testing import anthropic_stream_plans as plans
from harness.testing.anthropic_streams import STOP_REASONS, turns
from harness.under_test.invoke import valid
from harness.wire.anthropic_events import turn_body

pytestmark = [pytest.mark.wire, pytest.mark.formats("anthropic")]


@pytest.mark.parametrize("reason", STOP_REASONS)
@given(data=st.data())
@example(data=None)
def test_the_stop_reason_sent_is_kept(stream, reason, data):
    if data is None:  # the incident turn
        turn, plan = {**TURN, "stop_reason": reason}, PLAN
    else:
        turn = {**data.draw(turns(max_calls=3), label="turn"), "stop_reason": reason}
        plan = data.draw(plans(turn), label="plan")
    body = turn_body(turn, plan)
    got = valid(stream).parse_stream(body)
    assert isinstance(got, dict), f"parse_stream returned {shown(got)}, but should return a turn; stream: {shown(body)}"
    assert got.get("stop_reason") == reason, (
        f"stop_reason={shown(got.get('stop_reason'))}, but message_delta sent {reason!r}; stream: {shown(body)}")
