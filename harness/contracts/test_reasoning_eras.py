"""Contract: the DeepSeek profile sends reasoning back by the rule of the era it is told.

Incident: DeepSeek's rule for ``reasoning_content`` changed twice (incidents
`deepseek-reasoning-400` and `deepseek-thinking-imbalance` hit the current
one). R1 answered 400 when it was sent back; V3.2 demanded it on assistant
turns with tool calls; the current rule demands it on every earlier assistant
turn whenever the request carries tools. An adapter that hard-codes one era's
rule breaks on a server that keeps another, so the era is an input
(``options["era"]``), and this contract checks all three.

Rule: for each era, the transformed body of any history meets that era's rule
(:mod:`harness.rules.reasoning`), and every value carried is the message's own:
real reasoning verbatim, ``""`` only where the message had none.

Level: provider (DeepSeek's rule, era by era).

Production fingerprint: R1: 400 "The reasoning_content is an intermediate
result for display purposes only ..."; V3.2: 400 "Missing
`reasoning_content` field in the assistant message at message index N.";
current: 400 "The reasoning_content in the thinking mode must be passed back
to the API."
"""

import pytest
from hypothesis import example, given

from harness.clip import clip_json, shown
from harness.rules.reasoning import ERAS
from harness.testing import reasoning_violations, request_bodies
from harness.testing.requests import CHAT_BODY, DEEPSEEK_URL, UNTIDY_BODY
from harness.under_test.invoke import valid

pytestmark = pytest.mark.provider


def _foreign_values(before: list[dict], after: list[dict]) -> list[str]:
    """Carried values that are not the message's own (real text kept, "" only where none was)."""
    problems = []
    for n, (old, new) in enumerate(zip(before, after)):
        if "reasoning_content" not in new:
            continue
        own = old.get("reasoning_content") or ""
        if new["reasoning_content"] != own:
            problems.append(
                f"message #{n} ({new.get('role')}) carries reasoning_content={shown(new['reasoning_content'])}, "
                f"but its own is {own!r}"
            )
    return problems


@pytest.mark.parametrize("era", ERAS)
@given(body=request_bodies())
@example(body=UNTIDY_BODY)
@example(body=CHAT_BODY)
def test_each_era_rule_is_kept(transform, era, body):
    transform = valid(transform)
    after = transform.transform_request(body, {"base_url": DEEPSEEK_URL, "era": era})
    messages = after.get("messages") or []
    assert len(messages) == len(body["messages"]), (
        f"{len(messages)} messages came back, but {len(body['messages'])} went in (era {era!r}); input messages: "
        + clip_json(body["messages"], 1500)
    )
    has_tools = bool(body.get("tools"))
    problems = reasoning_violations(messages, era, has_tools) + _foreign_values(body["messages"], messages)
    assert not problems, (
        f"era {era!r}, tools={has_tools}: {len(problems)} problem(s):\n  " + "\n  ".join(problems)
        + f"\ninput messages: {clip_json(body['messages'], 1500)}"
    )
