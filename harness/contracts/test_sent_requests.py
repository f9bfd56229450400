"""Contract: a request, once sent, is never changed by the kernel.

Incident: incident `batch-path-pairing`: what a kernel sent is evidence (the
first regression test trusted the in-memory messages, and they lied). A frame
that hands the model its live message list, instead of a request of its own,
keeps appending the turn's later assistant and tool messages to a request it
has already sent. The scripted model used to copy each request as it arrived,
so such a kernel looked right; it now keeps the very objects it was given,
beside a copy taken on arrival, and compares them when the turn is over.

Rule: every request the kernel passes to the model during a turn (an untidy
one: a concurrent batch round, a mixed serial round, the answer) is, when the
turn ends, exactly what it was when it was sent: the same keys, the same
messages, nothing appended, nothing rewritten.

Level: wire. A request is a message of the format, fixed the moment it is
sent; whatever keeps it after that (an SDK's retry, a tracer that serializes
later, a cassette recorder) reads it as sent. No correct client library
changes a body it was given, and none needs the kernel to. Over a bridge the
request was serialized on the way, so only an in-process kernel can break this.

Production fingerprint: the trace of a turn's first LLM call shows the whole
turn (its own answer and the tool results that came after it); a retried
request carries tool messages for calls the model has not made yet.
"""

import pytest

from harness.contracts.turns import QUESTION, ROUNDS, tools as untidy_tools
from harness.testing import ScriptedModel
from harness.under_test.invoke import valid

pytestmark = pytest.mark.wire


def test_requests_stay_as_they_were_sent(kernel):
    model = ScriptedModel(ROUNDS)
    tools = untidy_tools()
    valid(kernel).run_turn(QUESTION, model, tools)
    tools[0].probe.raise_if_stalled()
    assert len(model.sent) == len(ROUNDS), (
        f"the kernel sent {len(model.sent)} requests, but the script has {len(ROUNDS)} rounds: the turn did not "
        "reach every round, so later changes to earlier requests could not show"
    )
    changes = model.changed_requests()
    assert not changes, (
        f"the kernel changed {len({c.split(':', 1)[0] for c in changes})} request(s) after sending them; each "
        "should stay exactly as sent:\n  " + "\n  ".join(changes[:12])
    )
