"""Contract: DeepSeek's fields go only where they belong: ``thinking`` to DeepSeek, reasoning to the chosen hosts.

Incident: the reasoning round-trip fix had to stay provider-scoped (incident `deepseek-thinking-imbalance`):
OpenAI's strict message schema rejects an unknown ``reasoning_content``
field, so a round-trip sent to every provider trades one outage for another.
The fix claimed ``api.deepseek.com`` by host, with guards against look-alike
hosts; a substring or suffix test would hand DeepSeek's fields (and the
conversation's reasoning) to ``api.deepseek.com.evil.io``.

Rule: for any base URL whose host is not exactly ``api.deepseek.com``
(OpenAI, gateways, none at all, and look-alikes), the transformed body has no
``thinking`` key, whatever the options. ``reasoning_content`` goes back only
to the hosts the ``reasoning.hosts`` policy lists, matched exactly (by
default DeepSeek's alone): every other host, look-alikes included, gets it on
no message, whatever the history holds, and a listed host keeps each
assistant turn's own. The DeepSeek host however it is written (path, case,
port) gets the DeepSeek profile.

Level: per test. ``test_no_thinking_key_outside_deepseeks_host``: wire
(OpenAI answers an unknown ``thinking`` argument with "Unrecognized request
argument"). ``test_reasoning_goes_back_only_to_the_policys_hosts`` and
``test_lookalike_hosts_get_no_reasoning``: policy, key ``reasoning.hosts``
(which endpoints get reasoning back is a product decision; the default keeps
it to DeepSeek, since strict endpoints reject the field).
``test_the_deepseek_host_gets_the_deepseek_profile``: provider.

Production fingerprint: right after a DeepSeek fix ships, OpenAI-compatible
providers with strict schemas answer HTTP 400 naming the unexpected
``reasoning_content`` (or ``thinking``) field on every request with history.
"""

import json

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json, shown
from harness.adapter import EFFORTS, ROLES
from harness.testing import request_bodies
from harness.testing.requests import (
    CHAT_BODY,
    DEEPSEEK_URLS,
    GENERIC_URLS,
    LOOKALIKE_URLS,
    OPENAI_URL,
    TOOLS,
    UNTIDY_BODY,
    host_of,
)
from harness.under_test.invoke import valid

HISTORY = [
    {"role": "user", "content": "Which invoices are open?"},
    {
        "role": "assistant",
        "content": None,
        "reasoning_content": "Query the invoice table.",
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "sql_query", "arguments": "{}"}}],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "3 rows"},
]
BODY = {"model": "some-model", "messages": HISTORY, "tools": TOOLS, "stream": True}


def _carriers(body: dict) -> list[str]:
    return [
        f"#{n} {m.get('role')}: {shown(m['reasoning_content'])}"
        for n, m in enumerate(body.get("messages") or [])
        if "reasoning_content" in m
    ]


def _reasoning_problems(sent: dict, body: dict, base_url: str | None, hosts: tuple[str, ...]) -> list[str]:
    """How the reasoning in ``sent`` breaks the reasoning.hosts policy for ``base_url``."""
    host = host_of(base_url)
    if host not in hosts:
        carriers = _carriers(sent)
        if not carriers:
            return []
        problem = (f"messages {shown(carriers)} carry reasoning_content, but host {host!r} is not in reasoning.hosts "
                   f"{list(hosts)}, so no message should")
        return [problem]
    problems = []
    for n, (before, after) in enumerate(zip(body["messages"], sent.get("messages") or [])):
        if before.get("role") == "assistant" and "reasoning_content" in before:
            got = after.get("reasoning_content", "<absent>")
            if got != before["reasoning_content"]:
                problems.append(f"assistant message #{n}: reasoning_content={shown(got)}, but host {host!r} is in "
                                f"reasoning.hosts, so it keeps its own {before['reasoning_content']!r}")
    return problems


@given(
    body=request_bodies(),
    base_url=st.sampled_from(GENERIC_URLS + LOOKALIKE_URLS),
    effort=st.sampled_from((None, *EFFORTS)),
    role=st.sampled_from(ROLES),
)
@pytest.mark.wire
@example(body=UNTIDY_BODY, base_url=OPENAI_URL, effort="off", role="main")
def test_no_thinking_key_outside_deepseeks_host(transform, body, base_url, effort, role):
    transform = valid(transform)
    options = {"base_url": base_url, "effort": effort, "role": role}
    sent = transform.transform_request(body, options)
    assert "thinking" not in sent, (
        f"thinking={shown(sent['thinking'])}, but host {host_of(base_url)!r} is not api.deepseek.com and should get no "
        f"thinking key (options {clip_json(options)}); body {clip_json(body, 1500)}"
    )


@given(
    body=request_bodies(),
    base_url=st.sampled_from(GENERIC_URLS + LOOKALIKE_URLS),
    effort=st.sampled_from((None, *EFFORTS)),
    role=st.sampled_from(ROLES),
)
@pytest.mark.policy
@example(body=UNTIDY_BODY, base_url=OPENAI_URL, effort="off", role="main")
@example(body=CHAT_BODY, base_url=OPENAI_URL, effort=None, role="main")
def test_reasoning_goes_back_only_to_the_policys_hosts(transform, policy, body, base_url, effort, role):
    transform = valid(transform)
    options = {"base_url": base_url, "effort": effort, "role": role}
    sent = transform.transform_request(body, options)
    problems = _reasoning_problems(sent, body, base_url, policy.hosts("reasoning.hosts"))
    assert not problems, (
        "\n".join(problems) + f"\noptions {clip_json(options)}; input messages "
        + clip_json(body["messages"], 1500)
    )


@pytest.mark.policy
@pytest.mark.parametrize("base_url", LOOKALIKE_URLS)
def test_lookalike_hosts_get_no_reasoning(transform, policy, base_url):
    transform = valid(transform)
    sent = transform.transform_request(BODY, {"base_url": base_url, "effort": "off"})
    problems = _reasoning_problems(sent, BODY, base_url, policy.hosts("reasoning.hosts"))
    assert not problems, (
        "\n".join(problems) + f"\n{base_url!r} only looks like api.deepseek.com (hosts match exactly); "
        f"input messages {json.dumps(HISTORY)}"
    )


@pytest.mark.provider
@pytest.mark.parametrize("base_url", DEEPSEEK_URLS)
def test_the_deepseek_host_gets_the_deepseek_profile(transform, base_url):
    transform = valid(transform)
    body = transform.transform_request(BODY, {"base_url": base_url, "effort": "off"})
    assert body.get("thinking") == {"type": "disabled"}, (
        f"thinking={shown(body.get('thinking', '<absent>'))}, but base_url={base_url!r} is DeepSeek's host and "
        "effort='off' should send {'type': 'disabled'}"
    )
    assert _carriers(body) == [f"#1 assistant: {HISTORY[1]['reasoning_content']!r}"], (
        f"messages carrying reasoning_content: {_carriers(body)}, but DeepSeek with tools should get the "
        f"assistant turn's own reasoning back (base_url={base_url!r}); input messages {json.dumps(HISTORY)}"
    )
