"""Contract: DeepSeek's fields go only to DeepSeek's exact host; every other provider gets none.

Incident: the reasoning round-trip fix had to stay provider-scoped (seed 004):
OpenAI's strict message schema rejects an unknown ``reasoning_content``
field, so a round-trip sent to every provider trades one outage for another.
The fix claimed ``api.deepseek.com`` by host, with guards against look-alike
hosts; a substring or suffix test would hand DeepSeek's fields (and the
conversation's reasoning) to ``api.deepseek.com.evil.io``.

Rule: for any base URL whose host is not exactly ``api.deepseek.com`` (OpenAI,
gateways, none at all, and look-alikes), the transformed body carries no
``reasoning_content`` on any message, whatever the history holds, and no
``thinking`` key, whatever the options; the DeepSeek host however it is
written (path, case, port) does get the DeepSeek profile.

Production fingerprint: right after a DeepSeek fix ships, OpenAI-compatible
providers with strict schemas answer HTTP 400 naming the unexpected
``reasoning_content`` (or ``thinking``) field on every request with history.
"""

import json

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from harness.adapter import EFFORTS, ROLES
from harness.request_examples import (
    DEEPSEEK_URLS,
    GENERIC_URLS,
    LOOKALIKE_URLS,
    OPENAI_URL,
    TOOLS,
    UNTIDY_BODY,
    request_bodies,
)

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
        f"#{n} {m.get('role')}: {m['reasoning_content']!r}"
        for n, m in enumerate(body.get("messages") or [])
        if "reasoning_content" in m
    ]


def _check_generic(body: dict, what: str) -> None:
    carriers = _carriers(body)
    assert not carriers, (
        f"messages {carriers} carry reasoning_content, but a request to {what} should carry none "
        "(strict endpoints reject the unknown field)"
    )
    assert "thinking" not in body, f"thinking={body['thinking']!r}, but a request to {what} should have no thinking key"


@given(
    body=request_bodies(),
    base_url=st.sampled_from(GENERIC_URLS + LOOKALIKE_URLS),
    effort=st.sampled_from((None, *EFFORTS)),
    role=st.sampled_from(ROLES),
)
@pytest.mark.policy
@example(body=UNTIDY_BODY, base_url=OPENAI_URL, effort="off", role="main")
def test_other_providers_never_get_reasoning_or_thinking(transform, body, base_url, effort, role):
    options = {"base_url": base_url, "effort": effort, "role": role}
    _check_generic(transform.transform_request(body, options), f"the generic profile (options {json.dumps(options)})")


@pytest.mark.policy
@pytest.mark.parametrize("base_url", LOOKALIKE_URLS)
def test_lookalike_hosts_get_the_generic_profile(transform, base_url):
    body = transform.transform_request(BODY, {"base_url": base_url, "effort": "off"})
    _check_generic(body, f"{base_url!r}, whose host only looks like api.deepseek.com,")


@pytest.mark.provider
@pytest.mark.parametrize("base_url", DEEPSEEK_URLS)
def test_the_deepseek_host_gets_the_deepseek_profile(transform, base_url):
    body = transform.transform_request(BODY, {"base_url": base_url, "effort": "off"})
    assert body.get("thinking") == {"type": "disabled"}, (
        f"thinking={body.get('thinking', '<absent>')!r}, but base_url={base_url!r} is DeepSeek's host and "
        "effort='off' should send {'type': 'disabled'}"
    )
    assert _carriers(body) == [f"#1 assistant: {HISTORY[1]['reasoning_content']!r}"], (
        f"messages carrying reasoning_content: {_carriers(body)}, but DeepSeek with tools should get the "
        f"assistant turn's own reasoning back (base_url={base_url!r})"
    )
