"""Contract: within one tool turn, every follow-up request sent carries each earlier round's own reasoning.

Incident: the in-turn path built each assistant message from role, content and
tool calls only; the round's reasoning was "kept only for debugging" (seed
004). In a tool conversation that reasoning is the model's working memory
from one round to the next: without it every round started thinking from
scratch and re-read the files it had just read. DeepSeek's rule makes the
same omission fatal (incident `deepseek-reasoning-400`): with tools, the follow-up request must carry
the reasoning of the rounds before it.

Rule, under the era selected with ``--deepseek-era``: replaying a recorded
three-round DeepSeek thinking-mode tool conversation through the adapter's
real HTTP client, the client sends one request per recorded interaction. In
each follow-up request SENT (read from the player: vcrpy's in-process, the
loopback provider's record over the bridge), the assistant
message of every earlier round sits beside that round's own ``tool_calls``
and, under ``v3.2`` and ``current``, carries at its top level the
``reasoning_content`` that round streamed, not another round's; under ``r1``
no message carries it. Every request sent keeps the thinking settings asked
for (thinking on, at the top level; an effort DeepSeek reads as ``high``).
What came back: the tools ran with the streamed arguments (compared as JSON
values), and the turn's answer is the last round's text. The options reach
every request, whatever their value: under each era (not only the selected
one) the requests sent keep that era's rule, and a sub-agent's turn
(``role: "executor"``, no effort of its own) sends the thinking switch the
``executor.thinking`` policy asks for.

Level: provider (DeepSeek's round-trip rule of each era, and its thinking
switch); the sub-agent case is policy.

Production fingerprint: the thinking-to-action ratio explodes (each round
re-reads what the last one read), or the second request of every tool turn
answers HTTP 400 "The reasoning_content in the thinking mode must be passed
back to the API."
"""

import pytest

from harness.clip import clip_json, shown
from harness.rules.reasoning import DEEPSEEK_EFFORT_RUNG, ERAS, executor_thinking_problem
from harness.testing import ScriptedTool, play, reasoning_violations, same_arguments

CASSETTE = "deepseek_thinking_tools"
QUESTION = "Was invoice INV-0312 paid? Check the ledger too."
OPTIONS = {"effort": "high"}
# The arguments the cassette streams, per tool.
EXPECTED_RUNS = {
    "sql_query": [
        "{\"sql\":\"select * from invoice where id='INV-0312'\"}",
        "{\"sql\":\"select * from payment where invoice='INV-0312'\"}",
    ],
    "read_file": ['{"path":"ledger/2026-03.csv"}'],
}


def _turn(transport, era: str, options: dict = OPTIONS):
    tools = [ScriptedTool(name) for name in EXPECTED_RUNS]
    with play(CASSETTE, transport) as played:
        result = transport.run_http_turn(played.base_url, QUESTION, tools, played.options({**options, "era": era}))
    assert not played.unplayed(), (
        f"the client sent {len(played.sent)} request(s), but the cassette {CASSETTE} holds "
        f"{len(played.cassette)} rounds: {played.unplayed()} follow-up request(s) were never sent"
    )
    return played, tools, result


def _round_problems(k: int, body: dict, rounds, era: str) -> list[str]:
    where = f"request #{k + 1}"
    assistants = [m for m in body.get("messages") or [] if m.get("role") == "assistant"]
    if len(assistants) != k:
        return [f"{where} carries {len(assistants)} assistant messages, expected {k}, one per earlier round"]
    problems = [f"{where}: {p}" for p in reasoning_violations(body["messages"], era, bool(body.get("tools")))]
    for j, (message, streamed) in enumerate(zip(assistants, rounds)):
        ids = tuple(c.get("id") for c in message.get("tool_calls") or [])
        if ids != streamed.tool_call_ids:
            problems.append(
                f"{where}, round #{j + 1}: tool_calls ids {shown(ids)}, expected the streamed "
                f"{shown(streamed.tool_call_ids)}"
            )
        if era == "r1":
            continue
        got = message.get("reasoning_content", "<absent>")
        if got != streamed.reasoning:
            problems.append(
                f"{where}, round #{j + 1}: reasoning_content={shown(got)}, but should be that round's own streamed "
                f"reasoning {streamed.reasoning!r}, top level beside its tool_calls"
            )
    return problems


@pytest.mark.provider
def test_follow_up_requests_carry_each_rounds_own_reasoning(transport, deepseek_era):
    played, _, _ = _turn(transport, deepseek_era)
    bodies = played.sent_bodies()
    problems = [p for k, body in enumerate(bodies) for p in _round_problems(k, body, played.rounds, deepseek_era)]
    assert not problems, (
        f"{len(problems)} problem(s) in the requests sent under the {deepseek_era} rule:\n  " + "\n  ".join(problems)
        + "\nassistant messages of the last request: "
        + clip_json([m for m in bodies[-1]["messages"] if m.get("role") == "assistant"], 1500)
    )


@pytest.mark.provider
def test_requests_sent_keep_the_thinking_settings(transport, deepseek_era):
    played, _, _ = _turn(transport, deepseek_era)
    for k, body in enumerate(played.sent_bodies()):
        settings = {key: body.get(key, "<absent>") for key in ("thinking", "reasoning_effort", "extra_body")}
        assert body.get("thinking", {"type": "enabled"}) == {"type": "enabled"} and "extra_body" not in body, (
            f"request #{k + 1} sent {shown(settings)}, but effort {OPTIONS['effort']!r} should leave thinking on, "
            "switched at the top level of the body"
        )
        assert DEEPSEEK_EFFORT_RUNG.get(body.get("reasoning_effort")) == "high", (
            f"request #{k + 1} sent {shown(settings)}, but effort 'high' should send a reasoning_effort DeepSeek reads "
            "as high"
        )


@pytest.mark.provider
def test_tools_ran_with_the_streamed_arguments(transport, deepseek_era):
    played, tools, result = _turn(transport, deepseek_era)
    runs = {tool.name: [run.arguments for run in tool.runs] for tool in tools}
    same = runs.keys() == EXPECTED_RUNS.keys() and all(
        len(runs[name]) == len(sent) and all(same_arguments(got, want) for got, want in zip(runs[name], sent))
        for name, sent in EXPECTED_RUNS.items()
    )
    assert same, (
        f"the tools ran with {shown(runs)}, but the cassette streamed {EXPECTED_RUNS} (arguments as JSON values)"
    )
    events = result["events"]
    answer = events[-1]["response"] if events else None
    assert answer == played.rounds[-1].content, (
        f"the turn's last persisted response is {shown(answer)}, but the last round streamed "
        f"{shown(played.rounds[-1].content)}"
    )


@pytest.mark.provider
@pytest.mark.parametrize("era", ERAS)
def test_every_era_reaches_the_requests_sent(transport, era):
    played, _, _ = _turn(transport, era)
    problems = [f"request #{k + 1}: {problem}" for k, body in enumerate(played.sent_bodies())
                for problem in reasoning_violations(body.get("messages") or [], era, bool(body.get("tools")))]
    assert not problems, f"with era {era!r} in the options, the requests sent break its rule:\n  " + "\n  ".join(problems)


@pytest.mark.policy
def test_a_sub_agents_turn_sends_the_policys_thinking_switch(transport, policy, deepseek_era):
    options = {"role": "executor"}
    played, _, _ = _turn(transport, deepseek_era, options)
    wanted = policy["executor.thinking"]
    for k, body in enumerate(played.sent_bodies()):
        should = executor_thinking_problem(body, wanted)
        sent = {key: body.get(key, "<absent>") for key in ("thinking", "reasoning_effort")}
        assert should is None, (
            f"request #{k + 1} sent {shown(sent)}, but with the policy executor.thinking={wanted!r} a sub-agent's turn "
            f"with no effort of its own should {should} on every request (options {options!r})"
        )
