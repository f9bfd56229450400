"""What ``harness probe`` checks on the wire, from the loopback provider's record of one session.

Every check reads only what the agent put on the wire and what the fake model
streamed to it; the agent's own output is never trusted. Each check has a rule
level; a check that had nothing to look at (no tool call was streamed, a
single-turn scenario) is not applicable.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from harness.clip import clip
from harness.loopback.agent_style import replayed_as_text
from harness.loopback.exchanges import Exchange
from harness.loopback.provider_profiles import DeepSeekProfile, Profile
from harness.loopback.scenarios import PARTIAL, Scenario
from harness.outcomes.checks import FAILED, NOT_APPLICABLE, PASSED, CheckResult, Finding
from harness.rules.pairing import same_arguments
from harness.rules.reasoning import DEEPSEEK_EFFORT_RUNG, FORMAT_EFFORTS
from harness.rules.registry import RULES
from harness.rules.text import content_text

AGENT_FINISHED = "agent-finished"
NO_REQUEST = "the agent sent no request to the provider"


def tested(results: list[CheckResult]) -> bool:
    """Whether the results show anything about the agent's requests: a check failed, or one on the wire passed.

    ``agent-finished`` passing alone proves only that a program exited 0.
    """
    return any(r.status == FAILED or (r.status == PASSED and r.rule != AGENT_FINISHED) for r in results)


@dataclass
class Run:
    """One invocation of the agent: one user turn."""

    turn: int
    prompt: str
    argv: list[str]
    returncode: int | None  # None: it ran past its time limit
    stdout: str
    stderr: str
    first_request: int  # number of the first exchange made during this run (exchanges before it: earlier turns)
    last_request: int
    stopped: str = ""  # why the probe stopped the run before its end (it was looping), if it did


def rule_checks(scenario, profile, exchanges: list[Exchange]) -> list[CheckResult]:
    """One check per rule the profile judges: failed with each request that broke it, named after the rule."""
    checks: list[CheckResult] = []
    for rule in profile.judged:
        result = _result(scenario, rule)
        if not exchanges:
            checks.append(_na(result, NO_REQUEST))
            continue
        for exchange in exchanges:
            for v in exchange.violations:
                if v.rule == rule:
                    answer = f"HTTP {v.status}" if v.refused else "accepted anyway"
                    result.findings.append(Finding(v.request, v.message_index, f"{v.detail} ({profile.name} "
                                                   f"answered {answer})", exchange.excerpt(v.message_index)))
        checks.append(_settle(result))
    return checks


def check_session(scenario: Scenario, profile: Profile, exchanges: list[Exchange], runs: list[Run]) -> list[CheckResult]:
    checks = rule_checks(scenario, profile, exchanges)
    checks += [
        agent_finished(scenario, runs, exchanges),
        _calls_carried(scenario, exchanges),
        _calls_structured(scenario, exchanges),
        _turn_ends_in_text(scenario, exchanges),
        _text_carried(scenario, exchanges),
        _reasoning_carried(scenario, profile, exchanges),
        _history_replayed(scenario, exchanges, runs),
        _effort(scenario, profile, exchanges),
    ]
    if scenario.name == "stream-error":
        checks.append(_error_not_persisted(scenario, exchanges))
    return checks


def _result(scenario: Scenario, rule: str, level: str | None = None) -> CheckResult:
    """An open result of ``rule`` on ``scenario``, named, levelled and titled by the registry."""
    entry = RULES[rule]
    return CheckResult(scenario.name, rule, level or entry.level, entry.title)


def _settle(result: CheckResult) -> CheckResult:
    result.status = FAILED if result.findings else PASSED
    return result


def _na(result: CheckResult, reason: str) -> CheckResult:
    result.status, result.reason = NOT_APPLICABLE, reason
    return result


def agent_finished(scenario: Scenario, runs: list[Run], exchanges: list[Exchange]) -> CheckResult:
    result = _result(scenario, AGENT_FINISHED)
    for run in runs:
        tail = " | ".join((run.stderr or run.stdout).strip().splitlines()[-3:])
        if run.stopped:  # looping, whatever the scenario
            result.findings.append(Finding(None, None, f"turn {run.turn + 1} {run.stopped}", tail, "output"))
            continue
        if scenario.name == "stream-error" and run.turn == 0:
            continue  # the stream failed on purpose: giving up that turn is right
        if run.returncode != 0:
            status = ("ran past its time limit (or left a process holding its output open)"
                      if run.returncode is None else f"exited with status {run.returncode}")
            result.findings.append(Finding(None, None, f"turn {run.turn + 1} {status}", tail, "output"))
    if not result.findings and not exchanges:
        return _na(result, NO_REQUEST + ": exiting 0 without asking the model shows nothing")
    return _settle(result)


def _later(exchanges: list[Exchange], exchange: Exchange) -> list[Exchange]:
    return [e for e in exchanges if e.number > exchange.number and e.json is not None]


def _follow_ups(exchanges: list[Exchange]) -> dict[int, Exchange]:
    """Request number -> the first later request with a JSON body, in one pass (a scan per round is quadratic)."""
    follow: dict[int, Exchange] = {}
    nearest = None
    for exchange in reversed(exchanges):
        if nearest is not None:
            follow[exchange.number] = nearest
        if exchange.json is not None:
            nearest = exchange
    return follow


def _calls_carried(scenario: Scenario, exchanges: list[Exchange]) -> CheckResult:
    # Calls streamed in a shape outside the format (index-zero) are carried at that scenario's level.
    result = _result(scenario, "calls-carried", "robust" if scenario.level == "robust" else None)
    rounds = [e for e in exchanges if e.streamed is not None and e.streamed.calls and e.status == 200]
    if not rounds:
        return _na(result, "no tool call was streamed (does the agent declare a tool you allowed with --tool?)")
    follow_ups = _follow_ups(exchanges)
    # A round the agent ended on (its own final-answer tool), or replays as text, is its style, not the wire's:
    # the policy checks below report those.
    rounds = [e for e in rounds if e.number in follow_ups
              and not replayed_as_text(follow_ups[e.number].messages, e.streamed.calls)]
    if not rounds:
        return _na(result, "no tool round was followed by a request replaying it as tool_calls (the agent ended "
                   "on its calls, or replays them as text: see calls-structured and turn-ends-in-text)")
    for exchange in rounds:
        follow = follow_ups[exchange.number]
        streamed = {c["id"]: c for c in exchange.streamed.calls}
        sent, at = {}, None
        for n, message in enumerate(follow.messages):
            for call in message.get("tool_calls") or () if message.get("role") == "assistant" else ():
                if isinstance(call, dict) and call.get("id") in streamed:
                    sent[call["id"]] = call
                    at = n if at is None else at
        for cid, call in streamed.items():
            got = sent.get(cid)
            function = (got or {}).get("function") or {}
            if got is None:
                result.findings.append(Finding(follow.number, at, f"call {cid} ({call['name']}) is missing",
                                               follow.excerpt(at)))
            elif function.get("name") != call["name"] or not same_arguments(function.get("arguments"),
                                                                            call["arguments"]):
                result.findings.append(Finding(
                    follow.number, at, f"call {cid} went back as {function.get('name')}"
                    f"({function.get('arguments')!r}), but streamed as {call['name']}({call['arguments']!r})",
                    follow.excerpt(at)))
    return _settle(result)


def _calls_structured(scenario: Scenario, exchanges: list[Exchange]) -> CheckResult:
    result = _result(scenario, "calls-structured")
    follow_ups = _follow_ups(exchanges)
    rounds = [e for e in exchanges if e.streamed is not None and e.streamed.calls and e.status == 200
              and e.number in follow_ups]
    if not rounds:
        return _na(result, "no tool round was followed by another request")
    for exchange in rounds:
        follow = follow_ups[exchange.number]
        if replayed_as_text(follow.messages, exchange.streamed.calls):
            result.findings.append(Finding(follow.number, None, f"the calls of request #{exchange.number} "
                                           "went back as text", _messages_excerpt(follow)))
    return _settle(result)


def _turn_ends_in_text(scenario: Scenario, exchanges: list[Exchange]) -> CheckResult:
    result = _result(scenario, "turn-ends-in-text")
    follow_ups = _follow_ups(exchanges)
    rounds = [e for e in exchanges if e.streamed is not None and e.streamed.calls and e.status == 200]
    if not rounds:
        return _na(result, "no tool call was streamed")
    for exchange in rounds:
        if exchange.number not in follow_ups:
            result.findings.append(Finding(exchange.number, None, f"{len(exchange.streamed.calls)} call(s) were "
                                           "streamed, and the agent sent no request after them"))
    return _settle(result)


def _assistant_for(messages: list[dict], streamed) -> int | None:
    """The index of the assistant message standing for the streamed round, by call ids or by text."""
    ids = {c["id"] for c in streamed.calls}
    for n, message in enumerate(messages):
        if message.get("role") != "assistant":
            continue
        if ids and {c.get("id") for c in message.get("tool_calls") or () if isinstance(c, dict)} & ids:
            return n
        if not ids and streamed.text and content_text(message.get("content")) == streamed.text:
            return n
    return None


def _text_carried(scenario: Scenario, exchanges: list[Exchange]) -> CheckResult:
    result = _result(scenario, "text-carried")
    follow_ups = _follow_ups(exchanges)
    rounds = [e for e in exchanges if e.streamed is not None and e.streamed.text and not e.streamed.calls
              and not e.streamed.error and e.number in follow_ups]
    if not rounds:
        return _na(result, "no request followed a streamed answer")
    for exchange in rounds:
        follow = follow_ups[exchange.number]
        if _assistant_for(follow.messages, exchange.streamed) is None:
            contents = [m.get("content") for m in follow.messages if m.get("role") == "assistant"]
            result.findings.append(Finding(follow.number, None,
                                           f"no assistant message holds the answer streamed in request "
                                           f"#{exchange.number}: {exchange.streamed.text!r}; assistant contents "
                                           f"sent: {contents}"))
    return _settle(result)


def _reasoning_carried(scenario: Scenario, profile: Profile, exchanges: list[Exchange]) -> CheckResult:
    result = _result(scenario, "reasoning-carried")
    if not isinstance(profile, DeepSeekProfile) or profile.era == "r1":
        return _na(result, f"{profile.name} takes no reasoning back")
    follow_ups = _follow_ups(exchanges)
    rounds = [e for e in exchanges if e.streamed is not None and e.streamed.reasoning and e.number in follow_ups]
    if not rounds:
        return _na(result, "no reasoning was streamed before another request")
    for exchange in rounds:
        for follow in _later(exchanges, exchange):
            if not follow.json.get("tools") or not profile.thinking(follow.json):
                continue  # the rule holds with tools, in thinking mode
            at = _assistant_for(follow.messages, exchange.streamed)
            if at is None:
                continue  # a round left out of the history: text-carried and calls-carried say so
            message = follow.messages[at]
            required = profile.era == "current" or bool(exchange.streamed.calls)
            got = message.get("reasoning_content", None)
            if (required or got is not None) and got != exchange.streamed.reasoning:
                result.findings.append(Finding(
                    follow.number, at, f"reasoning_content={got!r}, but that round (request #{exchange.number}) "
                    f"streamed {exchange.streamed.reasoning!r}", follow.excerpt(at)))
    return _settle(result)


def _history_replayed(scenario: Scenario, exchanges: list[Exchange], runs: list[Run]) -> CheckResult:
    result = _result(scenario, "history-replayed")
    later_runs = [r for r in runs if r.turn > 0 and r.first_request <= r.last_request]
    if not later_runs:
        return _na(result, "a single turn, or no request in a later turn")
    by_number = {e.number: e for e in exchanges}
    for run in later_runs:
        first = by_number.get(run.first_request)
        if first is None or first.json is None:
            continue
        users = [content_text(m.get("content")) or "" for m in first.messages if m.get("role") == "user"]
        for earlier in runs[: run.turn]:
            if earlier.returncode != 0:
                continue  # a turn the agent gave up is not history
            if not any(earlier.prompt in u for u in users):
                result.findings.append(Finding(first.number, None, f"the prompt of turn {earlier.turn + 1} is "
                                               f"missing; user messages sent: {users}", _messages_excerpt(first)))
        earlier_rounds = [e for e in exchanges if e.number < run.first_request and e.streamed is not None
                          and e.status == 200 and not e.streamed.error]
        tool_answers = {m.get("tool_call_id") for m in first.messages if m.get("role") == "tool"}
        for exchange in earlier_rounds:
            if replayed_as_text(first.messages, exchange.streamed.calls):
                continue  # the agent's style: calls-structured reports it
            at = _assistant_for(first.messages, exchange.streamed)
            if at is None:
                what = f"calls {[c['id'] for c in exchange.streamed.calls]}" if exchange.streamed.calls \
                    else f"answer {exchange.streamed.text!r}"
                result.findings.append(Finding(first.number, None, f"the {what} of request #{exchange.number} "
                                               f"(turn {exchange.streamed.turn + 1}) are not replayed",
                                               _messages_excerpt(first)))
                continue
            missing = [c["id"] for c in exchange.streamed.calls if c["id"] not in tool_answers]
            if missing:
                result.findings.append(Finding(first.number, at, f"the results of {missing} are not replayed",
                                               first.excerpt(at)))
    return _settle(result)


def _messages_excerpt(exchange: Exchange, limit: int = 600) -> str:
    text = "messages = " + json.dumps(exchange.messages, ensure_ascii=False)
    return clip(text, limit)


def _effort(scenario: Scenario, profile: Profile, exchanges: list[Exchange]) -> CheckResult:
    deepseek = isinstance(profile, DeepSeekProfile)
    accepted = sorted(DEEPSEEK_EFFORT_RUNG) if deepseek else list(FORMAT_EFFORTS)
    result = _result(scenario, "deepseek-effort-word" if deepseek else "effort-word")
    sent = [(e, e.json.get("reasoning_effort")) for e in exchanges if e.json and "reasoning_effort" in e.json]
    if not sent:
        return _na(result, "no request sent reasoning_effort")
    for exchange, word in sent:
        if word not in accepted:
            result.findings.append(Finding(exchange.number, None, f"reasoning_effort={word!r}; {profile.name} "
                                           f"reads {', '.join(accepted)}",
                                           json.dumps({"reasoning_effort": word})))
    return _settle(result)


def _error_not_persisted(scenario: Scenario, exchanges: list[Exchange]) -> CheckResult:
    result = _result(scenario, "error-not-persisted")
    failed = [e for e in exchanges if e.streamed is not None and e.streamed.error]
    later = [e for f in failed[:1] for e in _later(exchanges, f)]
    if not later:
        return _na(result, "no request followed the failed stream")
    for exchange in later:
        for n, message in enumerate(exchange.messages):
            if message.get("role") == "assistant" and PARTIAL in (content_text(message.get("content")) or ""):
                result.findings.append(Finding(exchange.number, n, "the text streamed before the error is in the "
                                               "history as an answer", exchange.excerpt(n)))
    return _settle(result)
