"""``harness probe``: a scenario suite against an agent program that cannot be imported.

For each scenario the loopback provider starts afresh with the chosen profile;
the agent command runs once per user turn, with ``{base_url}``, ``{session}``
(one per scenario, the same across its turns), ``{prompt}``, ``{provider}``
(``openai``, ``deepseek`` or ``gateway``) and ``{model}`` substituted in each
argument. The fake model calls only tools that the agent declares in its
request and that ``--tool`` allows, with arguments from each tool's schema;
without ``--tool`` it calls none, and the checks about calls are not
applicable. Then every wire-visible rule is checked from the server's record
(:mod:`harness.loopback.probe_checks`). The engine returns the results; the
command (:mod:`harness.cli.probe`) prints and writes them.
"""

from __future__ import annotations

import shlex
import subprocess
import uuid

from harness.loopback.delivery import Delivery
from harness.loopback.probe_case import MAX_REQUESTS, PAUSE, Case
from harness.loopback.probe_checks import Run, check_session
from harness.loopback.scenarios import SCENARIOS, Scenario
from harness.loopback.turn_bound import TurnBound
from harness.outcomes.checks import CheckResult
from harness.processes import run_owned

PLACEHOLDERS = ("base_url", "session", "prompt", "provider", "model")
MODEL = "loopback-model"
KEPT_OUTPUT = 64 * 1024  # bytes of each of the agent's streams kept for the report (the last ones)


SUITE = (
    Case("parallel-12", Delivery()),
    Case("interleaved", Delivery("inside-events", delay=PAUSE)),
    Case("index-zero", Delivery()),
    Case("thinking-tools", Delivery("inside-utf8", delay=PAUSE)),
    Case("keep-alive", Delivery("inside-crlf", delay=PAUSE)),
    Case("usage", Delivery("bytes", 7)),
    Case("text-beside-calls", Delivery("inside-events", delay=PAUSE)),
    Case("stream-error", Delivery()),
)


class ProbeUsage(ValueError):
    pass


def prompts_for(scenario: Scenario) -> tuple[str, ...]:
    return tuple(f"[{scenario.name} turn {t + 1}/{scenario.user_turns}] What is the weather in Zürich and in "
                 "Tokyo? Use your tools." for t in range(scenario.user_turns))


def agent_argv(template: str, values: dict[str, str]) -> list[str]:
    """The agent command split like a shell would, each placeholder replaced inside each argument."""
    try:
        argv = shlex.split(template)
    except ValueError as exc:
        raise ProbeUsage(f"--agent-cmd {template!r}: {exc}") from None
    if not argv:
        raise ProbeUsage("--agent-cmd is empty")
    if "{base_url}" not in template:
        raise ProbeUsage(f"--agent-cmd {template!r} has no {{base_url}}: the agent must be told where the provider is")
    out = []
    for arg in argv:
        for key in PLACEHOLDERS:
            arg = arg.replace("{" + key + "}", values[key])
        out.append(arg)
    return out


def run_case(case: Case, template: str, profile_name: str, era: str, tools: frozenset[str],
             timeout: float, delivery: Delivery | None = None, max_requests: int = MAX_REQUESTS
             ) -> list[CheckResult]:
    from harness.loopback.provider_profiles import make_profile
    from harness.loopback.server import LoopbackProvider
    from harness.loopback.sources import ScenarioSource

    scenario = SCENARIOS[case.scenario]
    prompts = prompts_for(scenario)
    source = ScenarioSource(scenario, tools, MODEL, prompts)
    profile = make_profile(profile_name, era)
    session = f"probe-{scenario.name}-{uuid.uuid4().hex[:8]}"
    with LoopbackProvider(source=source, profile=profile, delivery=delivery or case.delivery) as provider:
        runs = run_turns(provider, template, prompts, session, profile_name, timeout, max_requests=max_requests)
        exchanges = provider.record.exchanges
    return check_session(scenario, profile, exchanges, runs)


def run_turns(provider, template: str, prompts: tuple[str, ...], session: str, provider_name: str,
              timeout: float, base_url: str | None = None, max_requests: int = MAX_REQUESTS) -> list[Run]:
    """The agent run once per prompt against ``provider`` (at ``base_url``, default its chat base URL).

    A run that sends more than ``max_requests`` requests is stopped there, as looping.
    """
    runs: list[Run] = []
    bound = TurnBound(max_requests)
    provider.listener = bound
    for turn, prompt in enumerate(prompts):
        values = {"base_url": base_url or provider.base_url, "session": session, "prompt": prompt,
                  "provider": provider_name, "model": MODEL}
        argv = agent_argv(template, values)
        first = len(provider.record) + 1
        bound.begin()
        try:
            done, out, err, timed_out = run_owned(
                argv, timeout, keep=KEPT_OUTPUT, started=bound.started, stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            )
        except OSError as exc:
            raise ProbeUsage(f"--agent-cmd: cannot run {argv[0]!r}: {exc}") from None
        code = None if timed_out else done.returncode
        runs.append(Run(turn, prompt, argv, code, out.text(), err.text(), first, len(provider.record),
                        bound.describe() if bound.tripped else ""))
    return runs
