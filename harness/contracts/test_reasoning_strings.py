"""Contract: every ``reasoning_content`` DeepSeek gets is a string; a null never reaches it.

Incident: incident `deepseek-reasoning-400`: sessions written before reasoning
was stored, and kernels that write the field for a round that did not think,
hold ``reasoning_content: null``. The request transform's backfill looked for
a missing key, found one present, and sent the null on; where the era's rule
asks nothing of a message (no tools, or a V3.2 turn without calls) nothing
looked at it at all. A null is not the string the field is documented as, nor
the ``""`` users report satisfies the presence check.

Rule: for every era and with or without ``tools``, each ``reasoning_content``
in the body the transform returns for DeepSeek is a string, whatever the
history held (null on an assistant turn with or without calls, on a user
message); so is each one in history rendered for DeepSeek from persisted
events (reasoning null, empty or real) and in that history once transformed.
Where the key goes or what string it holds is the rule of
``test_reasoning_backfill.py`` and ``test_reasoning_eras.py``.

Level: provider (DeepSeek's ``reasoning_content`` extension, every era).

Production fingerprint: after an upgrade old sessions send
``"reasoning_content": null`` and DeepSeek answers HTTP 400 "The
reasoning_content in the thinking mode must be passed back to the API." as
if the field were missing, though a log of the body shows the key.
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json, shown
from harness.rules.reasoning import ERAS
from harness.testing import non_string_reasoning, persisted_events, request_bodies
from harness.testing.requests import DEEPSEEK_URL, TOOLS, one_call
from harness.under_test.invoke import valid

pytestmark = pytest.mark.provider

NULLS = [
    {"role": "user", "content": "Compare a.txt with b.txt.", "reasoning_content": None},
    {"role": "assistant", "content": None, "reasoning_content": None, "tool_calls": one_call("call_0")},
    {"role": "tool", "tool_call_id": "call_0", "content": "text of a"},
    {"role": "assistant", "content": "They differ in line 3.", "reasoning_content": None},
    {"role": "user", "content": "Which line?"},
]
WITH_TOOLS = {"model": "deepseek-chat", "messages": NULLS, "tools": TOOLS, "stream": True}
WITHOUT_TOOLS = {"model": "deepseek-chat", "messages": NULLS, "stream": True}



@pytest.mark.parametrize("era", ERAS)
@given(body=request_bodies())
@example(body=WITH_TOOLS)
@example(body=WITHOUT_TOOLS)
def test_reasoning_sent_to_deepseek_is_a_string(transform, era, body):
    sent = valid(transform).transform_request(body, {"base_url": DEEPSEEK_URL, "era": era})
    problems = non_string_reasoning(sent.get("messages") or [])
    assert not problems, (
        f"era {era!r}, tools={bool(body.get('tools'))}: {len(problems)} problem(s):\n  " + "\n  ".join(problems)
        + f"\ninput messages: {clip_json(body['messages'], 1500)}"
    )


_NO_REASONING = {"input": "Look x up.", "response": "", "reasoning": None, "tool_calls": [
    {"id": "call_1", "name": "lookup", "arguments": "{}"}], "tool_results": [
    {"tool_call_id": "call_1", "content": "42"}], "tools_used": ["lookup"], "timestamp": 1731300000.0}


@pytest.mark.parametrize("era", ERAS)
@given(events=st.lists(persisted_events(reasoning=st.none() | st.just("") | st.text()), min_size=1, max_size=4))
@example(events=[_NO_REASONING, {**_NO_REASONING, "input": "", "response": "x is 42.", "tool_calls": [],
                                 "tool_results": [], "tools_used": [], "reasoning": ""}])
def test_history_replayed_to_deepseek_carries_string_reasoning(kernel, transform, era, events):
    history = valid(kernel).render_history(events, base_url=DEEPSEEK_URL)
    rendered = non_string_reasoning(history)
    assert not rendered, (
        f"render_history(events, base_url={DEEPSEEK_URL!r}): " + "; ".join(rendered)
        + f"\npersisted reasoning {shown([e['reasoning'] for e in events])}"
    )
    body = {"model": "deepseek-chat", "messages": history, "tools": TOOLS, "stream": True}
    sent = valid(transform).transform_request(body, {"base_url": DEEPSEEK_URL, "era": era})
    problems = non_string_reasoning(sent.get("messages") or [])
    assert not problems, (
        f"the rendered history transformed for DeepSeek (era {era!r}, tools): " + "; ".join(problems)
        + f"\nrendered {clip_json(history, 1500)}"
    )
