"""Strictness: requests the format's provider refuses, sent on purpose; a target that accepts one is reported.

Each refused request is bent from one the target accepted in a scripted
conversation (an entry or a key left out, two neighbours swapped, a string
cut short or emptied, or a body that is not JSON), and kept only when the
format's own rules refuse it: the strict profile the loopback judges with
(:mod:`harness.loopback.strict_route` over the history rules of
:mod:`harness.rules`, or the strict chat provider profile for a format without
a loopback row), with every turn the target streamed in the run as the ones
it may pair with. One check per rule that profile judges, at the
``provider`` level: passed when the target answers the request with a 4xx,
failed when it accepts it (or crashes on it: a 5xx, no answer), not applicable
when no accepted request could be bent to break the rule.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator

from harness.conform.conversation import Emitted
from harness.conform.stream_checks import check, settle
from harness.conform.target import Target
from harness.outcomes.checks import CheckResult, Finding
from harness.rules.registry import RULES

SCENARIO = "strictness"
LEVEL = "provider"
STRICT_CHAT = "openai"  # the chat profile that refuses what OpenAI refuses (the gateway profile accepts all)
NOT_JSON = b'{"model": '
MAX_CANDIDATES = 5000  # bent requests judged per accepted one
LEFT_ALONE = ("tools",)  # top-level keys not bent: no history rule reads them

Judge = Callable[[bytes, list[dict]], set[str]]  # (a raw body, the turns it pairs with) -> the rules that refuse it


def judge_for(format_name: str) -> tuple[tuple[str, ...], Judge]:
    """The rules the format's strict profile judges, and the judge of one body."""
    from harness.loopback.provider_profiles import make_profile
    from harness.loopback.strict_route import StrictProfile
    from harness.loopback.wires import WIRES

    if format_name in WIRES:
        wire = WIRES[format_name].format

        def judge(raw: bytes, sent: list[dict]) -> set[str]:
            profile = StrictProfile(wire)
            for turn in sent:
                profile.remember(turn)
            return {v.rule for v in profile.check(raw, 0) if v.refused}

        return StrictProfile(wire).judged, judge
    profile = make_profile(STRICT_CHAT)

    def judge_chat(raw: bytes, sent: list[dict]) -> set[str]:
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        return {v.rule for v in profile.check(body if isinstance(body, dict) else None, 0) if v.refused}

    return profile.judged, judge_chat


def bent(body: dict) -> Iterator[bytes]:
    """Every bent form of ``body``, as raw bodies: not JSON; then at any depth an object's key or a list's entry left
    out, two neighbours swapped, a string cut short by one character or emptied."""
    yield NOT_JSON
    whole = (((), body),) if body else ()
    for path, value in (*whole, *_walk({k: v for k, v in body.items() if k not in LEFT_ALONE}, ())):
        if isinstance(value, dict):
            for key in value:
                yield _raw(_with(body, path, {k: v for k, v in value.items() if k != key}))
        elif isinstance(value, list):
            for n in range(len(value)):
                yield _raw(_with(body, path, value[:n] + value[n + 1:]))
            for n in range(len(value) - 1):
                yield _raw(_with(body, path, [*value[:n], value[n + 1], value[n], *value[n + 2:]]))
        elif isinstance(value, str) and value:
            yield _raw(_with(body, path, value[:-1]))
            if len(value) > 1:
                yield _raw(_with(body, path, ""))


def _walk(value: object, path: tuple) -> Iterator[tuple[tuple, object]]:
    if path:
        yield path, value
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        yield from _walk(inner, (*path, key))


def _with(body: dict, path: tuple, value: object) -> dict:
    if not path:
        return value
    out = copy.deepcopy(body)
    holder = out
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = value
    return out


def _raw(body: dict) -> bytes:
    return json.dumps(body, ensure_ascii=False).encode()


def chosen(bases: list[tuple[dict, list[dict]]], judge: Judge) -> dict[str, tuple[bytes, set[str]]]:
    """Per rule, the bent request that breaks it with the fewest other rules (the first such one)."""
    best: dict[str, tuple[bytes, set[str]]] = {}
    for body, sent in bases:
        for n, raw in enumerate(bent(body)):
            if n >= MAX_CANDIDATES:
                break
            refused = judge(raw, sent)
            for rule in refused:
                if rule not in best or len(refused) < len(best[rule][1]):
                    best[rule] = (raw, refused)
    return best


def strictness_checks(target: Target, log: list[Emitted]) -> list[CheckResult]:
    judged, judge = judge_for(target.spec.name)
    # Each accepted request, with every turn the target streamed in the run: a provider remembers all it sent.
    streamed = [e.turn for e in log if e.turn is not None]
    bases = [(e.request, streamed) for e in log if e.turn is not None]
    picks = chosen(bases, judge)
    results = []
    for rule in judged:
        result = check(SCENARIO, rule, LEVEL, f"refuses as the provider does: {RULES[rule].title}")
        if rule not in picks:
            results.append(settle(result, "no request the target accepted could be bent to break this rule"))
            continue
        raw, refused = picks[rule]
        reply = target.post(raw)
        number = len(log) + 1
        log.append(Emitted(SCENARIO, number, {}, reply))
        if reply.status is None or not 400 <= reply.status < 500:
            answer = ("accepted it" if reply.status is not None and reply.status < 400 else
                      f"answered {reply.describe()}, not a refusal")
            others = sorted(refused - {rule})
            result.findings.append(Finding(number, None, f"a request breaking {rule}"
                                           + (f" (and {', '.join(others)})" if others else "")
                                           + f": the provider refuses it with a 4xx, the target {answer}",
                                           raw.decode("utf-8", "replace")[:600], "sent"))
        results.append(settle(result))
    return results
