"""Contract: over real HTTP, parallel streamed tool calls come back whole and go back out paired.

Incident: a client joined streamed tool-call fragments by their position in a
chunk instead of their ``index`` (seed 001), and some OpenAI-compatible
gateways send every parallel call at ``index`` 0, told apart only by a new
``id`` (provider facts). Here the adapter's own HTTP client reads the stream,
so the whole path is exercised: request, SSE body, accumulation, tool runs,
follow-up request. The gateway also streams ``reasoning_content`` (as some
Qwen deployments do), which must not be echoed back to a generic provider
(seed 004: strict schemas reject the field).

Rule: for each cassette the scripted tools ran once per streamed call, each
with exactly the arguments streamed for it; the follow-up request SENT (read
from the cassette player) holds one assistant message with every call, ids and
argument strings as streamed, followed by one tool message per call id, with
no ``reasoning_content`` and no ``thinking`` key anywhere; the effort asked for
reaches the provider as ``reasoning_effort``.

Production fingerprint: tools run with empty or merged arguments
(``{"city":"Paris"}{"city":"Tokyo"}``), then HTTP 400 "An assistant message
with 'tool_calls' must be followed by tool messages responding to each
'tool_call_id'." or a 400 naming the unexpected ``reasoning_content``.
"""

import json

import pytest

from harness.replay import replay
from harness.scripted import ScriptedTool
from harness.wire_rules import pairing_violations

pytestmark = pytest.mark.wire

# cassette -> (question, options, the calls it streams: id -> (tool, arguments))
CASES = {
    "openai_parallel_tool_calls": (
        "Weather in Paris and Tokyo, and the time in Tokyo?",
        {"effort": "high"},
        {
            "call_Wq3pX1": ("get_weather", '{"city":"Paris"}'),
            "call_Hk7dR2": ("get_weather", '{"city":"Tokyo"}'),
            "call_Tz9mB4": ("get_time", '{"tz":"Asia/Tokyo"}'),
        },
    ),
    "gateway_index_zero": (
        "Is it warmer in Oslo or in Lisbon?",
        {"effort": "low"},
        {"call_6b1e": ("get_weather", '{"city":"Oslo"}'), "call_9f4a": ("get_weather", '{"city":"Lisbon"}')},
    ),
}


def _turn(transport, cassette: str):
    question, options, calls = CASES[cassette]
    tools = [ScriptedTool(name) for name in sorted({name for name, _ in calls.values()})]
    with replay(cassette) as played:
        transport.run_http_turn(played.base_url, question, tools, options)
    assert not played.unplayed(), (
        f"the client sent {len(played.sent)} request(s), but {cassette} holds {len(played.cassette)}: "
        "the follow-up request was never sent"
    )
    return played, tools, options, calls


@pytest.mark.parametrize("cassette", CASES)
def test_tools_run_with_their_own_streamed_arguments(transport, cassette):
    _, tools, _, calls = _turn(transport, cassette)
    runs = sorted((tool.name, run.arguments) for tool in tools for run in tool.runs)
    expected = sorted(calls.values())
    assert runs == expected, f"{cassette}: the tools ran as {runs}, but the stream carried the calls {expected}"


@pytest.mark.parametrize("cassette", CASES)
def test_follow_up_request_pairs_every_streamed_call(transport, cassette):
    played, _, _, calls = _turn(transport, cassette)
    follow_up = played.sent_bodies()[-1]
    messages = follow_up.get("messages") or []
    assistants = [m for m in messages if m.get("role") == "assistant"]
    sent_calls = {
        c.get("id"): (c.get("function", {}).get("name"), c.get("function", {}).get("arguments"))
        for m in assistants
        for c in m.get("tool_calls") or []
    }
    assert sent_calls == calls, f"{cassette}: the follow-up request sent the calls {sent_calls}, expected {calls}"
    problems = pairing_violations(messages)
    assert not problems, f"{cassette}: the follow-up request breaks the pairing rule:\n" + "\n".join(problems)
    carriers = [f"#{n} {m.get('role')}" for n, m in enumerate(messages) if "reasoning_content" in m]
    assert not carriers and "thinking" not in follow_up, (
        f"{cassette}: messages {carriers} carry reasoning_content and "
        f"thinking={follow_up.get('thinking', '<absent>')!r}, "
        f"but a generic provider ({played.base_url}) should get neither; "
        + json.dumps(assistants, ensure_ascii=False)[:800]
    )


@pytest.mark.parametrize("cassette", CASES)
def test_every_request_passes_the_effort(transport, cassette):
    played, _, options, _ = _turn(transport, cassette)
    efforts = [body.get("reasoning_effort", "<absent>") for body in played.sent_bodies()]
    assert efforts == [options["effort"]] * len(efforts), (
        f"{cassette}: the requests sent reasoning_effort {efforts}, but effort {options['effort']!r} should "
        f"reach {played.base_url} on every request"
    )
