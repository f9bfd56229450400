"""Contract: the text an event is indexed under for vector search includes its reasoning.

Incident: the kernel of incident `deepseek-reasoning-400` built each event's search text from its input
and response. The clue that makes a round findable often exists only in the
reasoning ("the user wants A, not B, so look up C first"); searched by the
response alone, memory recall picks the wrong rounds or misses the right one.
The fix adds the reasoning to the search text.

Rule: under the ``memory.reasoning`` policy ``included`` (the default), the
vector-search text of an event with reasoning contains that reasoning
verbatim; under ``excluded`` it does not contain it. Every text of the
generated events is tagged by its part (``<reasoning>``, ``<input>``, ...),
and no text holds another's tag, so "contains the reasoning" cannot be
answered by a separator or a piece of another part. Under either, it
contains the event's input and its response verbatim (what the search text
was built from before the fix), and building it leaves the event as it was.

Level: policy (``memory.reasoning``: what an event is indexed under is a
product decision an adapter may take differently).

Production fingerprint: memory recall that never finds a round by the intent
the model worked out, only by the words of its final answer.
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import shown
from harness.testing import persisted_events as events
from harness.under_test.invoke import valid

pytestmark = pytest.mark.policy

INCIDENT_EVENT = {
    "input": "<input>Can you check my bill?",
    "response": "<response>Your statement closes on the 12th.",
    "reasoning": "<reasoning>They want the billing date, not the order status, so look up the statement first.",
    "tool_calls": [],
    "tool_results": [],
    "tools_used": [],
    "timestamp": 1731300000.0,
}
# A reasoning that is nothing but a separator an adapter may join the parts with: untagged, an excluded
# adapter's text would seem to hold it.
SEPARATOR_EVENT = {**INCIDENT_EVENT, "reasoning": "<reasoning>\n"}

# Any text but "<": no part can hold another part's tag, so "holds the reasoning" has one answer.
_free = st.text(alphabet=st.characters(blacklist_characters="<"))


@st.composite
def _tagged_events(draw) -> dict:
    """A persisted event whose every text is tagged by its part; input and response may be empty."""
    event = draw(events())

    def part(tag: str) -> str:
        return draw(st.sampled_from(["", f"<{tag}>{draw(_free)}"]))

    results = [{**r, "content": f"<tool {k}>{draw(_free)}"} for k, r in enumerate(event["tool_results"])]
    return {**event, "input": part("input"), "response": part("response"),
            "reasoning": f"<reasoning>{draw(_free)}", "tool_results": results}


@given(event=_tagged_events())
@example(event=INCIDENT_EVENT)
@example(event=SEPARATOR_EVENT)
def test_vector_text_follows_the_reasoning_policy(memory, policy, event):
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
