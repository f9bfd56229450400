"""Contract: DeepSeek's thinking switch is a top-level key of the request body, sent only when asked.

Incident: an adapter wrote ``req.extra_body.thinking = {type="disabled"}`` and
sent the raw JSON to api.deepseek.com (incident `deepseek-reasoning-400`). ``extra_body`` is an
argument of the OpenAI Python SDK, which merges it into the top level of the
HTTP body; sent raw, the server ignores the key. The kernel's "thinking off"
never took effect, every request ran in thinking mode, and every one hit the
reasoning round-trip rule. Elsewhere the slider's "off" sent nothing at all
(incident `deepseek-thinking-imbalance`), so thinking stayed at its default: on, at high effort.

Rule: for the DeepSeek profile, ``thinking`` is a key of the top level of the
transformed body and nowhere else (no ``extra_body``); ``effort: "off"`` sends
``{"type": "disabled"}``; an effort level never disables it; a caller who did
not ask (no effort, main role) gets no ``thinking`` key, so the server default
stands.

Level: provider (DeepSeek's documented switch and its default).

Production fingerprint: thinking is configured off, yet responses still stream
``reasoning_content`` and the session dies with HTTP 400 "The
reasoning_content in the thinking mode must be passed back to the API."
"""

import pytest

from harness.clip import clip_json, shown
from harness.testing.requests import DEEPSEEK_URL, TOOLS
from harness.under_test.invoke import valid

pytestmark = pytest.mark.provider

BODY = {
    "model": "deepseek-chat",
    "messages": [
        {"role": "user", "content": "List the open invoices."},
        {
            "role": "assistant",
            "content": None,
            "reasoning_content": "Query the invoice table.",
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "sql_query", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "3 rows"},
    ],
    "tools": TOOLS,
    "stream": True,
}


def _transform(transform, **options):
    return transform.transform_request(BODY, {"base_url": DEEPSEEK_URL, **options})


def _misplaced(value, path="") -> list[str]:
    """Paths below the top level that hold a ``thinking`` or an ``extra_body`` key."""
    found = []
    if isinstance(value, dict):
        for key, inner in value.items():
            here = f"{path}.{key}" if path else key
            if key == "extra_body" or (key == "thinking" and path):
                found.append(here)
            found += _misplaced(inner, here)
    elif isinstance(value, list):
        for n, inner in enumerate(value):
            found += _misplaced(inner, f"{path}[{n}]")
    return found


def _show(body: dict) -> str:
    return clip_json({k: v for k, v in body.items() if k != "messages"}, 1500)


@pytest.mark.parametrize("effort", ["off", "low", "medium", "high", "max"])
def test_thinking_switch_is_top_level(transform, effort):
    transform = valid(transform)
    body = _transform(transform, effort=effort)
    misplaced = _misplaced(body)
    assert not misplaced, (
        f"the body holds {shown(misplaced)}, but the thinking switch belongs at the top level of the raw JSON "
        f"(the server never reads extra_body) for effort={effort!r}; body without messages: {_show(body)}"
    )
    if effort == "off":
        return
    thinking = body.get("thinking", {"type": "enabled"})
    assert thinking == {"type": "enabled"}, (
        f"thinking={shown(thinking)}, but effort={effort!r} asks for thinking, so it should be absent or "
        f"{{'type': 'enabled'}}; body without messages: {_show(body)}"
    )


def test_off_sends_thinking_disabled(transform):
    transform = valid(transform)
    body = _transform(transform, effort="off")
    assert body.get("thinking") == {"type": "disabled"}, (
        f"thinking={shown(body.get('thinking', '<absent>'))}, but should be {{'type': 'disabled'}} at the top level "
        f"for effort='off' (thinking is on by default); body without messages: {_show(body)}"
    )


@pytest.mark.parametrize("options", [{}, {"effort": None, "role": "main"}], ids=["no-options", "effort-none"])
def test_no_thinking_key_when_not_asked(transform, options):
    transform = valid(transform)
    body = _transform(transform, **options)
    assert "thinking" not in body and not _misplaced(body), (
        f"thinking={shown(body.get('thinking'))} (misplaced: {shown(_misplaced(body))}), but no thinking key should "
        f"be sent when the caller did not ask (options {options!r}); body without messages: {_show(body)}"
    )
