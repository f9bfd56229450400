"""``harness probe --format anthropic``: the Messages scenarios against an agent program that talks the Anthropic wire.

Per scenario a fresh loopback provider serves ``/v1/messages`` under the
strict ``anthropic`` profile; the agent runs once per user turn with
``{base_url}`` the origin (the Anthropic SDKs append ``/v1/messages``) and the
other placeholders as for chat (:mod:`harness.loopback.probe`). The checks are
one per history rule the profile judges, named after it and failed with the
400 Anthropic would have answered, and ``agent-finished``.
"""

from __future__ import annotations

import uuid

from harness.loopback.anthropic_scenarios import SCENARIOS
from harness.loopback.delivery import Delivery
from harness.loopback.probe import PAUSE, Case, prompts_for, run_turns
from harness.loopback.probe_checks import agent_finished, rule_checks
from harness.outcomes.checks import CheckResult

PROVIDER = "anthropic"
SUITE = (
    Case("interleaved-thinking", Delivery("inside-events", delay=PAUSE)),
    Case("redacted-thinking", Delivery()),
    Case("zero-argument-tool", Delivery("inside-utf8", delay=PAUSE)),
    Case("parallel-12", Delivery("bytes", 7)),
    Case("stream-error", Delivery()),
)


def run_case(case: Case, template: str, tools: frozenset[str], timeout: float,
             delivery: Delivery | None = None) -> list[CheckResult]:
    from harness.loopback.anthropic_route import MessagesRoute
    from harness.loopback.server import LoopbackProvider

    scenario = SCENARIOS[case.scenario]
    prompts = prompts_for(scenario)
    route = MessagesRoute(scenario, allowed_tools=tools, prompts=prompts)  # no --tool: no call
    session = f"probe-{scenario.name}-{uuid.uuid4().hex[:8]}"
    with LoopbackProvider(messages=route, delivery=delivery or case.delivery) as provider:
        runs = run_turns(provider, template, prompts, session, PROVIDER, timeout,
                         provider.messages_base_url)
        exchanges = provider.record.exchanges
    return [*rule_checks(scenario, route.profile, exchanges), agent_finished(scenario, runs, exchanges)]
