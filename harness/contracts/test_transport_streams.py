"""Contract: over real HTTP, parallel streamed tool calls come back whole and go back out paired.

Incident: a client joined streamed tool-call fragments by their position in a
chunk instead of their ``index`` (incident `sse-index-accumulation`), and some OpenAI-compatible
gateways send every parallel call at ``index`` 0, told apart only by a new
``id`` (provider facts). Here the adapter's own HTTP client reads the stream,
so the whole path is exercised: request, SSE body, accumulation, tool runs,
follow-up request. The gateway also streams ``reasoning_content`` (as some
Qwen deployments do), which must not be echoed back to a generic provider
(incident `deepseek-thinking-imbalance`: strict schemas reject the field).

Rule: for each cassette the scripted tools ran once per streamed call, each
with the arguments streamed for it; the follow-up request SENT (read from the
cassette player) holds one assistant message with every call, ids as
streamed and arguments JSON text of the streamed value, followed by one tool
message per call id, and no ``thinking`` key; the effort asked for reaches
the provider as ``reasoning_effort``. ``reasoning_content`` goes back in the
follow-up only to a host the ``reasoning.hosts`` policy lists: the gateway
that streamed it is not listed by default, so it gets none.

Level: per case. The OpenAI cassette (parallel calls at indices 0, 1 and 2)
is wire; the gateway cassette sends every call at ``index`` 0, told apart by
a new ``id``, which is outside the format: robust (the endpoints that do it
include Gemini's OpenAI-compatible layer, Ollama and some Qwen deployments).
``test_reasoning_goes_back_only_to_the_policys_hosts``: policy, key
``reasoning.hosts``; it plays the gateway cassette, the one that streams
reasoning, so an adapter must also read that cassette's calls to reach it.

Production fingerprint: tools run with empty or merged arguments
(``{"city":"Paris"}{"city":"Tokyo"}``), then HTTP 400 "An assistant message
with 'tool_calls' must be followed by tool messages responding to each
'tool_call_id'." or a 400 naming the unexpected ``reasoning_content``.
"""

import pytest

from harness.clip import clip_json, shown
from harness.testing import ScriptedTool, pairing_violations, play, same_arguments
from harness.testing.requests import host_of
from harness.under_test.invoke import valid

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


CASSETTES = [
    pytest.param("openai_parallel_tool_calls", marks=pytest.mark.wire),
    pytest.param("gateway_index_zero", marks=pytest.mark.robust),
]


def _same_calls(got: dict, expected: dict) -> bool:
    """``{id: (name, arguments)}`` maps that agree on ids and names, with arguments as JSON values."""
    return got.keys() == expected.keys() and all(
        got[cid][0] == name and same_arguments(got[cid][1], arguments) for cid, (name, arguments) in expected.items()
    )


def _turn(transport, cassette: str):
    question, options, calls = CASES[cassette]
    tools = [ScriptedTool(name) for name in sorted({name for name, _ in calls.values()})]
    with play(cassette, transport) as played:
        valid(transport).run_http_turn(played.base_url, question, tools, played.options(options))
    assert not played.unplayed(), (
        f"the client sent {len(played.sent)} request(s), but {cassette} holds {len(played.cassette)}: "
        "the follow-up request was never sent"
    )
    return played, tools, options, calls


@pytest.mark.parametrize("cassette", CASSETTES)
def test_tools_run_with_their_own_streamed_arguments(transport, cassette):
    _, tools, _, calls = _turn(transport, cassette)
    runs = sorted((tool.name, run.arguments) for tool in tools for run in tool.runs)
    expected = sorted(calls.values())
    same = len(runs) == len(expected) and all(
        name == want_name and same_arguments(arguments, want)
        for (name, arguments), (want_name, want) in zip(runs, expected)
    )
    assert same, (
        f"{cassette}: the tools ran as {shown(runs)}, but the stream carried the calls {shown(expected)} (arguments "
        "as JSON)"
    )


def _follow_up(played) -> tuple[dict, list[dict]]:
    follow_up = played.sent_bodies()[-1]
    return follow_up, follow_up.get("messages") or []


@pytest.mark.parametrize("cassette", CASSETTES)
def test_follow_up_request_pairs_every_streamed_call(transport, cassette):
    played, _, _, calls = _turn(transport, cassette)
    follow_up, messages = _follow_up(played)
    assistants = [m for m in messages if m.get("role") == "assistant"]
    sent_calls = {
        c.get("id"): (c.get("function", {}).get("name"), c.get("function", {}).get("arguments"))
        for m in assistants
        for c in m.get("tool_calls") or []
    }
    assert _same_calls(sent_calls, calls), (
        f"{cassette}: the follow-up request sent the calls {shown(sent_calls)}, expected {shown(calls)} (arguments as "
        "JSON)"
    )
    problems = pairing_violations(messages)
    assert not problems, (
        f"{cassette}: the follow-up request breaks the pairing rule:\n" + "\n".join(problems)
        + "\nmessages: " + clip_json(messages, 1500)
    )
    assert "thinking" not in follow_up, (
        f"{cassette}: thinking={shown(follow_up['thinking'])}, but {played.provider_url} is not DeepSeek's host and "
        "should get no thinking key"
    )


@pytest.mark.policy
def test_reasoning_goes_back_only_to_the_policys_hosts(transport, policy):
    cassette = "gateway_index_zero"
    played, _, _, _ = _turn(transport, cassette)
    _, messages = _follow_up(played)
    hosts = policy.hosts("reasoning.hosts")
    host = host_of(played.provider_url)
    carried = {n: m["reasoning_content"] for n, m in enumerate(messages) if "reasoning_content" in m}
    if host in hosts:
        assistants = [n for n, m in enumerate(messages) if m.get("role") == "assistant"]
        expected = {n: played.rounds[0].reasoning for n in assistants[:1]}
    else:
        expected = {}
    assert carried == expected, (
        f"{cassette}: the follow-up request carries reasoning_content {shown(carried)} (by message number), but host "
        f"{host!r} is {'' if host in hosts else 'not '}in reasoning.hosts {list(hosts)}, so it should carry "
        f"{expected or 'none'}; messages: " + clip_json(messages, 1500)
    )


@pytest.mark.parametrize("cassette", CASSETTES)
def test_every_request_passes_the_effort(transport, cassette):
    played, _, options, _ = _turn(transport, cassette)
    efforts = [body.get("reasoning_effort", "<absent>") for body in played.sent_bodies()]
    assert efforts == [options["effort"]] * len(efforts), (
        f"{cassette}: the requests sent reasoning_effort {shown(efforts)}, but effort {shown(options['effort'])} "
        f"should reach {played.provider_url} on every request"
    )
