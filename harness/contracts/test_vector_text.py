"""Contract: the text an event is indexed under for vector search includes its reasoning.

Incident: the kernel of incident `deepseek-reasoning-400` built each event's search text from its input
and response. The clue that makes a round findable often exists only in the
reasoning ("the user wants A, not B, so look up C first"); searched by the
response alone, memory recall picks the wrong rounds or misses the right one.
The fix adds the reasoning to the search text.

Rule: under the ``memory.reasoning`` policy ``included`` (the default), the
vector-search text of an event with reasoning contains that reasoning
verbatim; under ``excluded`` it does not contain it. Under either, it
contains the event's input and its response verbatim (what the search text
was built from before the fix), and building it leaves the event as it was.

Level: policy (``memory.reasoning``: what an event is indexed under is a
product decision an adapter may take differently).

Production fingerprint: memory recall that never finds a round by the intent
the model worked out, only by the words of its final answer.
"""

import copy

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from harness.contracts.calls import valid
from harness.contracts.persisted_events import shown
from harness.testing import persisted_events as events

pytestmark = pytest.mark.policy

INCIDENT_EVENT = {
    "input": "Can you check my bill?",
    "response": "Your statement closes on the 12th.",
    "reasoning": "They want the billing date, not the order status, so look up the statement first.",
    "tool_calls": [],
    "tool_results": [],
    "tools_used": [],
    "timestamp": 1731300000.0,
}


@given(event=events(reasoning=st.text(min_size=1)))
@example(event=INCIDENT_EVENT)
def test_vector_text_follows_the_reasoning_policy(memory, policy, event):
    # Reasoning that also occurs in the input or response would be found without being indexed.
    assume(event["reasoning"] not in event["input"] and event["reasoning"] not in event["response"])
    before = copy.deepcopy(event)
    text = valid(memory).vector_text(event)
    assert event == before, f"vector_text changed the event it was given to {shown(event)}; it was {shown(before)}"
    missing = [key for key in ("input", "response") if event[key] not in text]
    assert not missing, (
        f"vector text={shown(text)} lacks the event's {' and '.join(missing)}: input {shown(event['input'])}, "
        f"response {shown(event['response'])}"
    )
    included = policy["memory.reasoning"] == "included"
    assert (event["reasoning"] in text) == included, (
        f"vector text={shown(text)} {'lacks' if included else 'holds'} the reasoning {shown(event['reasoning'])}, "
        f"but memory.reasoning={policy['memory.reasoning']} says it should be "
        f"{'in' if included else 'out'}; input {shown(event['input'])}, response {shown(event['response'])}"
    )
