"""``harness probe --format openai-responses`` and ``--format gemini``: a format's scenarios against an agent.

Per scenario a fresh loopback provider serves the format's route under its
strict profile (:mod:`harness.loopback.strict_route`); the agent runs once per
user turn with ``{base_url}`` as the format's clients are configured (the
OpenAI SDK: the origin and ``/v1``; Gemini clients: the origin, to which they
append ``/v1beta/models/...``) and the other placeholders as for chat
(:mod:`harness.loopback.probe`). The checks are one per history rule the
profile judges, named after it and failed with the answer the provider would
have sent, and ``agent-finished``.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from harness.loopback.delivery import Delivery
from harness.loopback.gemini_format import GEMINI
from harness.loopback.probe import PAUSE, Case, prompts_for, run_turns
from harness.loopback.probe_checks import agent_finished, rule_checks
from harness.loopback.responses_format import RESPONSES
from harness.loopback.strict_route import FormatRoute, WireFormat
from harness.outcomes.checks import CheckResult


@dataclass(frozen=True)
class ProbedFormat:
    wire: WireFormat
    base_path: str  # what {base_url} adds to the origin
    suite: tuple[Case, ...]


FORMATS = {
    "openai-responses": ProbedFormat(RESPONSES, "/v1", (
        Case("reasoning-tools", Delivery("inside-events", delay=PAUSE)),
        Case("parallel-calls", Delivery("bytes", 7)),
        Case("reasoning-text", Delivery("inside-utf8", delay=PAUSE)),
        Case("zero-argument-tool", Delivery("inside-crlf", delay=PAUSE)),
        Case("stream-error", Delivery()),
    )),
    "gemini": ProbedFormat(GEMINI, "", (
        Case("signed-calls", Delivery("inside-events", delay=PAUSE)),
        Case("parallel-calls", Delivery("bytes", 7)),
        Case("parallel-rounds", Delivery("inside-utf8", delay=PAUSE)),
        Case("zero-argument-tool", Delivery("inside-crlf", delay=PAUSE)),
        Case("stream-error", Delivery()),
    )),
}


def run_case(fmt: str, case: Case, template: str, tools: frozenset[str], timeout: float,
             delivery: Delivery | None = None) -> list[CheckResult]:
    from harness.loopback.server import LoopbackProvider

    probed = FORMATS[fmt]
    scenario = probed.wire.scenarios[case.scenario]
    prompts = prompts_for(scenario)
    route = FormatRoute(probed.wire, scenario, allowed_tools=tools, prompts=prompts)  # no --tool: no call
    session = f"probe-{scenario.name}-{uuid.uuid4().hex[:8]}"
    with LoopbackProvider(delivery=delivery or case.delivery, routes=(route,)) as provider:
        runs = run_turns(provider, template, prompts, session, probed.wire.name, timeout,
                         provider.origin + probed.base_path)
        exchanges = provider.record.exchanges
    return [*rule_checks(scenario, route.profile, exchanges), agent_finished(scenario, runs, exchanges)]
