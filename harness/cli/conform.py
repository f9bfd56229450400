"""``harness conform``: the harness as a strict client of one format against a running server or gateway.

The engine is :mod:`harness.conform`; the checks are printed as they are
listed and written by the writers every command shares (:mod:`harness.report`),
judged by an expectations file when one is given (:mod:`harness.cli.expectations`:
an entry's id is ``scenario::rule``). The credential is read from the
environment variable named by ``--api-key-env`` and never printed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from harness import exit_codes
from harness.adapter import DEFAULT_FORMAT, FORMATS
from harness.cli import durations
from harness.cli import expectations as judging
from harness.cli.expectations_file import ExpectationsError, empty_expectations, read_expectations, write_expectations
from harness.outcomes.results import FAILED, PASSED
from harness.report import annotations as ci_annotations
from harness.report.junit import write_junit
from harness.report.ordering import problems
from harness.report.results_console import counts_line, result_lines, summary_lines
from harness.report.results_markdown import render_markdown
from harness.report.sarif import rule_id, write_sarif

JUNIT_SUITE = "harness conform"
SHOWN_LINES = 10
EFFORTS = ("off", "low", "medium", "high", "max")


def add_subcommand(sub) -> None:
    from harness.conform.target import KEY_VARIABLE, TIMEOUT

    conform = sub.add_parser("conform", help="act as a strict client of a format against a running server or "
                             "gateway: scripted tool rounds, every stream judged, refused requests sent on purpose")
    conform.add_argument("--base-url", required=True, metavar="URL",
                         help="the server: the format's endpoint path is joined to it (http://host/v1 and "
                              "/v1/responses give http://host/v1/responses)")
    conform.add_argument("--format", choices=tuple(FORMATS), default=DEFAULT_FORMAT,
                         help=f"the wire format the server emits (default: {DEFAULT_FORMAT})")
    conform.add_argument("--model", required=True, metavar="NAME", help="the model to ask for")
    conform.add_argument("--api-key-env", default=KEY_VARIABLE, metavar="VAR",
                         help=f"environment variable holding the credential (default: {KEY_VARIABLE}); never printed")
    conform.add_argument("--auth-header", default="authorization", metavar="NAME",
                         help="the header the credential goes in: authorization (as Bearer) or any other, e.g. "
                              "x-api-key, x-goog-api-key (default: authorization)")
    conform.add_argument("--effort", choices=EFFORTS, default="high",
                         help="the reasoning the conversations ask for (default: high)")
    conform.add_argument("--upstream-port", type=_port, metavar="PORT",
                         help="play the gateway's upstream: serve the loopback provider on 127.0.0.1:PORT for the run "
                              "(configure the gateway to call it) and check what crossed the gateway")
    conform.add_argument("--no-strictness", action="store_true",
                         help="send no request the provider refuses (only the scripted conversations)")
    conform.add_argument("--levels", type=_levels, default=(), metavar="LEVEL[,LEVEL]",
                         help="only checks of these levels: wire, robust, provider, policy (default: all)")
    conform.add_argument("--timeout", type=durations.positive, default=TIMEOUT, metavar="SECONDS",
                         help=f"how long the server may stay silent on one request (default: {TIMEOUT:g})")
    conform.add_argument("--junitxml", metavar="PATH", help="also write a JUnit XML report")
    conform.add_argument("--markdown", metavar="PATH", help="also write the report as Markdown")
    conform.add_argument("--sarif", metavar="PATH", help="also write the failing checks as SARIF 2.1.0")
    conform.add_argument("--expectations", metavar="FILE", help="judge the run by this file (ids: scenario::rule)")
    conform.add_argument("--strict-expectations", action="store_true",
                         help="an expected failure that passes, or a stale entry, fails the run")
    conform.add_argument("--update-expectations", action="store_true",
                         help="write the run's failures into --expectations FILE")
    conform.add_argument("-v", "--verbose", action="store_true", help="show every finding of a failed check")


def _levels(value: str) -> tuple[str, ...]:
    from harness.rules.levels import parse_levels

    try:
        return parse_levels(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        port = -1
    if not 0 < port < 65536:
        raise argparse.ArgumentTypeError(f"expected a port from 1 to 65535, got {value!r}")
    return port


def _say(line: str) -> None:
    print(line, flush=True)


def run_conform(args: argparse.Namespace) -> int:
    from harness.conform import Target, TargetError, conform
    from harness.formats import spec_for

    spec = spec_for(args.format)
    try:
        expectations = _expectations(args)
        target = Target(args.base_url, spec, args.model, args.api_key_env, args.auth_header, args.timeout)
    except (ExpectationsError, TargetError) as exc:
        print(f"harness conform: {exc}", file=sys.stderr)
        return exit_codes.USAGE
    credential = (f"from ${args.api_key_env} in header {args.auth_header}" if target.has_key
                  else f"none (${args.api_key_env} is not set)")
    header = [f"target: {target.url}", f"format: {spec.name} ({spec.label})", f"model: {args.model}",
              f"credential: {credential}", f"levels: {', '.join(args.levels) or 'all'}"]
    try:
        upstream_provider = _upstream_provider(args.upstream_port)
    except OSError as exc:
        print(f"harness conform: --upstream-port {args.upstream_port}: cannot listen there: {exc}", file=sys.stderr)
        return exit_codes.USAGE
    with _upstream(upstream_provider) as (upstream, where):
        if where:
            header.append(f"upstream: the loopback provider, {where}")
        for line in header:
            _say(f"harness conform: {line}")
        checks, log = conform(target, {"effort": args.effort}, strict=not args.no_strictness, upstream=upstream)
    raw = [c.result() for c in checks if not args.levels or c.level in args.levels]
    for result in raw:
        for line in result_lines(result, args.verbose, SHOWN_LINES):
            _say(line)
    tested = any(r.status == FAILED or r.status == PASSED for r in raw)
    judgement = found = None
    if expectations is not None:
        known = {rule_id(r) for r in raw}
        judgement = found = judging.judge(expectations, raw, known)
        if args.update_expectations and tested:
            removed, added = judgement.updates(judging.today())
            write_expectations(expectations.path, removed, added)
            judgement = judging.judge(expectations.changed(removed, added), raw, known)
    results = judging.reported(raw, judgement, args.strict_expectations) if judgement else raw
    for line in summary_lines(results, "checks", by_capability=False):
        _say(line)
    if found is not None:
        for line in judging.summary_lines(found, args.strict_expectations):
            _say(line)
    _say(counts_line(results))
    markdown = render_markdown("harness conform", header, results, "check", by_capability=False, every=True)
    if ci_annotations.enabled():
        for line in ci_annotations.annotations(problems(results), "failing checks"):
            _say(line)
        ci_annotations.add_step_summary(markdown)
    if args.junitxml:
        properties = [(k, v) for k, _, v in (line.partition(": ") for line in header)]
        write_junit(results, args.junitxml, JUNIT_SUITE,
                    properties=[*properties, *(judging.junit_properties(judgement) if judgement else ())])
    if args.markdown:
        Path(args.markdown).write_text(markdown, encoding="utf-8")
    if args.sarif:
        write_sarif(problems(results), args.sarif, f"harness conform --format {spec.name} --base-url "
                    f"{args.base_url}", tested=tested)
    if any(r.is_problem for r in results) or (judgement and args.strict_expectations and judgement.stale):
        return exit_codes.CONTRACTS_FAILED
    if not tested:
        answered = [e for e in log if e.reply.status is not None]
        print("harness conform: nothing was tested: " + ("the target never answered (" + log[0].reply.describe()
              + ")" if log and not answered else "no check found what it looks at"), file=sys.stderr)
        return exit_codes.NOTHING_TESTED
    return exit_codes.OK


def _upstream_provider(port: int | None):
    """The loopback provider listening on 127.0.0.1:``port`` (started), or None without a port."""
    if port is None:
        return None
    from harness.conform.upstream import STRICT_CHAT
    from harness.loopback.server import LoopbackProvider

    return LoopbackProvider(profile=STRICT_CHAT, port=port).start()


@contextmanager
def _upstream(provider) -> Iterator[tuple[object, str]]:
    """The turns the gateway's upstream streamed and where it listens (stopped after the run); nothing without one."""
    if provider is None:
        yield None, ""
        return
    from harness.conform.upstream import upstream_turns

    try:
        yield upstream_turns(provider), f"chat completions at {provider.base_url}, the other formats at {provider.origin}"
    finally:
        provider.stop()


def _expectations(args: argparse.Namespace):
    if not args.expectations:
        if args.strict_expectations or args.update_expectations:
            raise ExpectationsError("--strict-expectations and --update-expectations need --expectations FILE")
        return None
    path = Path(args.expectations)
    if args.update_expectations and not path.exists():
        return empty_expectations(path)
    return read_expectations(path)
