"""``harness check``: run the contracts against one adapter and say how each went.

The header (what is under test) comes first, each contract's line as soon as
it is decided (:mod:`harness.cli.check_session`), then a summary by rule level
and capability with every failing contract on one line, and the files asked
for. With ``--expectations`` every report shows the run as the file judges it
(:mod:`harness.cli.expectations`). Exit codes: :mod:`harness.exit_codes`.

The contracts of other wire formats than the adapter's are not run
(:mod:`harness.plugin.other_formats`): every report counts them in one line (the
console and Markdown header, a JUnit suite property) and none shows them as a
result, so no level table or JUnit ``skipped`` count takes them for a missing
capability.
"""

from __future__ import annotations

import inspect
import os
import signal
from dataclasses import replace
from pathlib import Path

import pytest

from harness import exit_codes
from harness.adapter import known_capabilities, public_methods
from harness.cli import expectations as judging
from harness.cli.check_options import CheckOptions
from harness.cli.check_records import RecordWriter
from harness.cli.check_session import CheckSession, say
from harness.cli.check_watch import watch
from harness.cli.expectations_file import (
    Expectations,
    ExpectationsError,
    empty_expectations,
    read_expectations,
    write_expectations,
)
from harness.outcomes.results import FAILED, PASSED, Result
from harness.plugin.other_formats import count_line
from harness.processes import Children, exit_text
from harness.report import annotations as ci_annotations
from harness.report.junit import write_junit
from harness.report.markdown_text import inline
from harness.report.ordering import problems
from harness.report.results_console import counts_line, summary_lines
from harness.report.results_markdown import render_markdown
from harness.report.sarif import program_source, write_sarif

__all__ = ["CheckOptions", "run_check", "run_contracts"]
JUNIT_SUITE = "pytest"  # the name pytest's junitxml gave the suite, which CI dashboards may key on


def _adapter_source(adapter) -> tuple[str, int] | None:
    """The file and line where the adapter's class is defined (none for an adapter in another process)."""
    try:
        lines, first = inspect.getsourcelines(type(adapter.obj))
        return inspect.getsourcefile(type(adapter.obj)) or "", first
    except (TypeError, OSError):
        return None


def _annotated(results: list[Result], adapter, options: CheckOptions) -> list[Result]:
    """The failing contracts, each on the adapter's line that raised or else on its class (a bridge: its program)."""
    if options.adapter_cmd:
        fallback = program_source(options.adapter_cmd)
    else:
        fallback = _adapter_source(adapter) if adapter is not None else None
    placed = []
    for result in problems(results):
        where = result.location or fallback
        placed.append(replace(result, location=(ci_annotations.relative(where[0]), where[1]) if where else None))
    return placed


def _command(options: CheckOptions) -> str:
    """The command line of this run, as SARIF's invocation names it."""
    target = f"--adapter-cmd {options.adapter_cmd!r}" if options.adapter_cmd else f"--adapter {options.adapter or 'reference'}"
    return f"harness check {target}"


def _markdown(results: list[Result], header: list[str]) -> str:
    return render_markdown("harness check", header, results, "contract", by_capability=True)


def _nothing_tested(session: CheckSession) -> None:
    adapter = session.adapter
    if adapter is None:
        say("nothing was tested: no contract was selected")
        return
    if not session.collected:
        say(f"nothing was tested: adapter {inline(adapter.name)} speaks {adapter.format}, and every contract selected "
            "holds for other formats")
        return
    methods = public_methods(adapter.obj)
    say(
        f"nothing was tested: no contract applied to adapter {inline(adapter.name)}, which offers "
        f"{', '.join(sorted(adapter.capabilities)) or 'no capability'}"
    )
    say(f"  its public methods: {', '.join(methods) or 'none'}")
    say(f"  the contracts look for: {known_capabilities()}")


def _cache_dir() -> Path:
    """Where Hypothesis keeps its files during ``harness check``: a cache folder, never the user's current one."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "agent-contract-harness" / "hypothesis"


def _expectations(options: CheckOptions) -> Expectations | None:
    if not options.expectations:
        if options.strict_expectations or options.update_expectations:
            raise ExpectationsError("--strict-expectations and --update-expectations need --expectations FILE")
        return None
    path = Path(options.expectations)
    if options.update_expectations and not path.exists():
        return empty_expectations(path)  # the run writes it
    return read_expectations(path)


def _update(judgement: judging.Judgement, results: list[Result], known: set[str],
            partial: set[str]) -> tuple[judging.Judgement, str]:
    """Write the file from the run; the run is then judged by what was written. Also: what changed, in words."""
    expectations = judgement.expectations
    removed, added = judgement.updates(judging.today())
    write_expectations(expectations.path, removed, added)
    said = f"wrote {expectations.path}: {len(added)} entries added, {len(removed)} removed"
    return judging.judge(expectations.changed(removed, added), results, known, partial), said


def run_check(options: CheckOptions) -> int:
    """Run the contracts in a child process this one watches; report what ran if it is stopped or dies."""
    try:
        _expectations(options)  # a usage error is told before anything starts
    except ExpectationsError as exc:
        say(f"expectations error: {exc}")
        return exit_codes.USAGE
    watched = watch(options)
    records = watched.records
    if records.done and watched.signum is None:
        return watched.returncode  # the child reported everything itself
    results = list(records.results.values())
    if options.junitxml:
        write_junit(results, options.junitxml, JUNIT_SUITE)
    say(counts_line(results))
    where = f"while running {records.running}" if records.running else (
        "before any contract started" if not records.results else "between contracts")
    not_run = f"{max(records.collected - len(results), 0)} of {records.collected} contracts did not run"
    if watched.signum is not None:
        say(f"interrupted: {not_run} ({signal.Signals(watched.signum).name} {where})")
        return exit_codes.interrupted_by(watched.signum)
    say(f"the contracts' process ended {where} ({exit_text(watched.returncode)}) without finishing: "
        f"{not_run if records.collected else 'no contract was collected'}; an adapter ends a call by returning or "
        "raising, never by ending the process")
    return exit_codes.CONTRACTS_FAILED


def run_contracts(options: CheckOptions, records: RecordWriter | None = None) -> int:
    """Run the contracts in this process and report them; ``records``: also tell the watching process."""
    from hypothesis.configuration import set_hypothesis_home_dir

    try:
        expectations = _expectations(options)
    except ExpectationsError as exc:
        say(f"expectations error: {exc}")
        return exit_codes.USAGE
    set_hypothesis_home_dir(_cache_dir())
    session = CheckSession(options.verbose, expectations)
    plugins: list[object] = [session]
    if records is not None:
        session.decided = records.decided
        plugins.append(records)
    # The owner of a bridge adapter's process: nothing it started outlives the check, however pytest ends.
    with Children(handle_signals=False):
        code = pytest.main([*options.pytest_args(), "-p", "no:terminal"], plugins=plugins)
    if code == pytest.ExitCode.USAGE_ERROR:
        return exit_codes.USAGE
    if code == pytest.ExitCode.INTERNAL_ERROR:
        return exit_codes.INTERNAL
    raw = list(session.results.values())
    tested = any(r.status in (PASSED, FAILED) for r in raw)  # a contract ran to a verdict, expected or not
    found = judgement = judging.judge(expectations, raw, session.known, session.partial) if expectations else None
    updated = ""
    if judgement is not None and options.update_expectations and not session.interrupted:
        if tested:
            judgement, updated = _update(judgement, raw, session.known, session.partial)
        else:
            updated = f"{judgement.expectations.path} left as it was: nothing was tested"
    results = judging.reported(raw, judgement, options.strict_expectations) if judgement else raw
    if options.junitxml:
        others = [("other formats", count_line(session.others))] if session.others else []
        write_junit(results, options.junitxml, JUNIT_SUITE,
                    properties=[*(judging.junit_properties(judgement) if judgement else ()), *others])
    if session.interrupted:
        say(counts_line(results))
        say(f"interrupted: {max(session.collected - len(results), 0)} of {session.collected} contracts did not run")
        return exit_codes.INTERRUPTED
    for line in summary_lines(results, "contracts", by_capability=True):
        say(line)
    if found is not None:  # what the run found against the file as it was read
        for line in [*judging.summary_lines(found, options.strict_expectations), *([updated] if updated else [])]:
            say(line)
    if ci_annotations.enabled():
        for line in ci_annotations.annotations(_annotated(results, session.adapter, options), "failing contracts"):
            say(line)
        ci_annotations.add_step_summary(_markdown(results, session.header))
    expected = sum(a.is_problem and not b.is_problem for a, b in zip(raw, results))
    say(counts_line(results) + (f" ({expected} of them expected failures or pending)" if expected else ""))
    if options.markdown:
        Path(options.markdown).write_text(_markdown(results, session.header), encoding="utf-8")
    if options.sarif:
        write_sarif(_annotated(results, session.adapter, options), options.sarif, _command(options), tested=tested)
    if any(r.is_problem for r in results) or (judgement and options.strict_expectations and judgement.stale):
        return exit_codes.CONTRACTS_FAILED
    if not tested:
        _nothing_tested(session)
        return exit_codes.NOTHING_TESTED
    return exit_codes.OK
