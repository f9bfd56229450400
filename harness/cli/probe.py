"""``harness probe``'s command: run the suite's scenarios, print each check as it is decided, write the reports.

The scenarios run in :mod:`harness.loopback.probe`; the results are printed
and written by the writers every command shares (:mod:`harness.report`).
"""

from __future__ import annotations

import argparse
import sys

from harness import exit_codes
from harness.clip import clip
from harness.formats import spec_for
from harness.loopback.delivery import Delivery
from harness.loopback.probe import SUITE, ProbeUsage, run_case
from harness.loopback.probe_case import Case
from harness.loopback.probe_checks import NO_REQUEST, tested
from harness.loopback.scenarios import SCENARIOS
from harness.loopback.wires import WIRES
from harness.outcomes.checks import CheckResult
from harness.outcomes.results import FAILED, NOT_APPLICABLE
from harness.processes import Children
from harness.report import annotations as ci_annotations
from harness.report.junit import write_junit
from harness.report.ordering import problems
from harness.report.results_console import counts_line, result_lines, summary_lines
from harness.report.results_markdown import render_markdown
from harness.report.sarif import program_source, write_sarif

JUNIT_SUITE = "harness probe"
SHOWN_LINES = 10  # of a failing check's findings and excerpts on the terminal; the files hold every one


def _header(args: argparse.Namespace, tools: frozenset[str]) -> list[str]:
    # A format with a loopback row is judged by its strict profile; --profile and --deepseek-era are chat's.
    era = f" (era {args.deepseek_era})" if args.profile == "deepseek" else ""
    profile = f"{args.format} ({spec_for(args.format).label})" if args.format in WIRES else f"{args.profile}{era}"
    return [f"agent command: {args.agent_cmd}", f"provider profile: {profile}",
            f"tools the fake model may call: {', '.join(sorted(tools)) or 'none (no tool call will be made)'}",
            f"levels: {', '.join(args.levels) or 'all'}"]


def _run(cases: list[Case], args: argparse.Namespace, tools: frozenset[str],
         override: Delivery | None) -> tuple[list[CheckResult], bool]:
    """The checks of every case, at the levels asked for; and whether the agent sent the provider any request."""
    checks: list[CheckResult] = []
    asked = False
    scenarios = _scenarios(args.format)
    with Children():  # SIGINT or SIGTERM stops the agent program's whole group too
        for case in cases:
            shown = (override or case.delivery).describe()
            print(f"harness probe: scenario {case.scenario} ({scenarios[case.scenario].title}; delivery {shown})",
                  flush=True)
            if args.format in WIRES:
                from harness.loopback import format_probe

                found = format_probe.run_case(args.format, case, args.agent_cmd, tools, args.agent_timeout, override,
                                              args.max_requests)
            else:
                found = run_case(case, args.agent_cmd, args.profile, args.deepseek_era, tools, args.agent_timeout,
                                 override, args.max_requests)
            # Every rule check of a session without a request says so, whatever levels are shown.
            asked = asked or not any(r.reason == NO_REQUEST for r in found)
            found = [r for r in found if not args.levels or r.level in args.levels]
            for check in found:
                for line in result_lines(check.result(), args.verbose, SHOWN_LINES):
                    print(line, flush=True)
            checks += found
    return checks, asked


def _scenarios(fmt: str) -> dict:
    return WIRES[fmt].format.scenarios if fmt in WIRES else SCENARIOS


def _suite(fmt: str) -> tuple[Case, ...]:
    return WIRES[fmt].suite if fmt in WIRES else SUITE


def run_probe(args: argparse.Namespace) -> int:
    args.format = getattr(args, "format", "chat")
    suite, scenarios = _suite(args.format), _scenarios(args.format)
    names = args.scenario or [case.scenario for case in suite]
    unknown = [n for n in names if n not in scenarios]
    if unknown:
        print(f"harness probe: unknown scenario(s) {unknown}; scenarios: {', '.join(scenarios)}", file=sys.stderr)
        return exit_codes.USAGE
    try:
        override = Delivery.parse(args.delivery, args.delay / 1000) if args.delivery != "whole" or args.delay else None
    except ValueError as exc:
        print(f"harness probe: {exc}", file=sys.stderr)
        return exit_codes.USAGE
    by_name = {case.scenario: case for case in suite}
    tools = frozenset(args.tool)
    header = _header(args, tools)
    for line in header:
        print(f"harness probe: {line}", flush=True)
    try:
        checks, asked = _run([by_name.get(n, Case(n, Delivery())) for n in names], args, tools, override)
    except ProbeUsage as exc:
        print(f"harness probe: {exc}", file=sys.stderr)
        return exit_codes.USAGE
    results = [check.result() for check in checks]
    for line in summary_lines(results, "checks", by_capability=False):
        print(line)
    print(counts_line(results))
    markdown = render_markdown("harness probe", header, results, "check", by_capability=False, every=True)
    if ci_annotations.enabled():
        for line in ci_annotations.annotations(problems(results), "failing checks"):
            print(line)
        ci_annotations.add_step_summary(markdown)
    if args.junitxml:
        write_junit(results, args.junitxml, JUNIT_SUITE, properties=[(k, v) for k, _, v in (line.partition(": ") for line in header)])
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as out:
            out.write(markdown)
    if args.sarif:  # a check judges what the agent sent, so it sits at the agent's program
        write_sarif(problems(results), args.sarif, f"harness probe --agent-cmd {args.agent_cmd!r}",
                    program_source(args.agent_cmd), tested=tested(checks))
    if any(r.status == FAILED for r in results):
        return exit_codes.CONTRACTS_FAILED
    if not tested(checks):
        print(_nothing_tested(checks, asked), file=sys.stderr)
        return exit_codes.NOTHING_TESTED
    return exit_codes.OK


def _nothing_tested(checks: list[CheckResult], asked: bool) -> str:
    """Why nothing was tested: the agent never asked the provider, or no check selected had its thing to look at."""
    if not asked:
        return ("harness probe: nothing was tested: the agent sent the provider no request "
                "(does --agent-cmd call the provider at {base_url}?)")
    reasons = list(dict.fromkeys(c.reason for c in checks if c.status == NOT_APPLICABLE))
    shown = "; ".join(clip(reason, 160) for reason in reasons[:3]) + ("; ..." if len(reasons) > 3 else "")
    return (f"harness probe: nothing was tested: the agent asked the provider, but no check selected found what "
            f"it looks at in its requests: {shown}")
