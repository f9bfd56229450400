"""``harness probe --format F`` for every format with a loopback row (:mod:`.wires`): its suite against an agent.

Per scenario a fresh loopback provider serves the format's route under its
strict profile (:mod:`harness.loopback.strict_route`); the agent runs once per
user turn with ``{base_url}`` as the format's clients are configured (the
origin and the row's base path: ``/v1`` for the OpenAI SDK, nothing for the
Anthropic SDK and Gemini clients, which append their own paths) and the other
placeholders as for chat (:mod:`harness.loopback.probe`). The checks are one
per rule the profile judges (a body that is not a request, then the history
rules), named after it and failed with the answer the provider would have
sent, and ``agent-finished``.
"""

from __future__ import annotations

import uuid

from harness.loopback.delivery import Delivery
from harness.loopback.probe import prompts_for, run_turns
from harness.loopback.probe_case import MAX_REQUESTS, Case
from harness.loopback.probe_checks import agent_finished, rule_checks
from harness.loopback.strict_route import FormatRoute
from harness.loopback.wires import WIRES
from harness.outcomes.checks import CheckResult


def run_case(fmt: str, case: Case, template: str, tools: frozenset[str], timeout: float,
             delivery: Delivery | None = None, max_requests: int = MAX_REQUESTS) -> list[CheckResult]:
    from harness.loopback.server import LoopbackProvider

    row = WIRES[fmt]
    scenario = row.format.scenarios[case.scenario]
    prompts = prompts_for(scenario)
    route = FormatRoute(row.format, scenario, allowed_tools=tools, prompts=prompts)  # no --tool: no call
    session = f"probe-{scenario.name}-{uuid.uuid4().hex[:8]}"
    with LoopbackProvider(delivery=delivery or case.delivery, routes=(route,)) as provider:
        runs = run_turns(provider, template, prompts, session, fmt, timeout, provider.origin + row.base_path,
                         max_requests)
        exchanges = provider.record.exchanges
    return [*rule_checks(scenario, route.profile, exchanges), agent_finished(scenario, runs, exchanges)]
