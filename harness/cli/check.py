"""``harness check``: run the contracts against one adapter and say how each went.

The header (what is under test) comes first, each contract's line as soon as
it is decided, then a summary by rule level and capability with every failing
contract on one line. Exit codes: :mod:`harness.exit_codes`.
"""

from __future__ import annotations

import inspect
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from harness import exit_codes
from harness.report import annotations as ci_annotations
from harness.rules import levels
from harness.report import markdown_text as markdown
from harness.adapter import known_capabilities, public_methods
from harness.processes import Children
from harness import CONTRACTS_DIR
from harness.plugin import ADAPTER_ERROR, adapter_under_test, header_lines
from harness.under_test.guard import NOT_APPLICABLE

_STATUS_ORDER = ("failed", "error", "passed", NOT_APPLICABLE, "skipped")


@dataclass
class CheckOptions:
    """Everything ``harness check`` passes on to the contracts' pytest session."""

    adapter: str | None = None
    adapter_cmd: str | None = None
    adapter_timeout: float | None = None
    profile: str = "dev"
    junitxml: str | None = None
    verbose: bool = False
    keyword: str | None = None
    levels: tuple[str, ...] = ()
    policies: list[str] = field(default_factory=list)
    era: str | None = None
    seed: int | None = None
    require: list[str] = field(default_factory=list)
    select: list[str] = field(default_factory=list)  # contract modules; empty: all
    markdown: str | None = None  # write the summary as Markdown here (a CI job summary)

    def pytest_args(self) -> list[str]:
        targets = [str(CONTRACTS_DIR / s) for s in self.select] or [str(CONTRACTS_DIR)]
        args = [*targets, "--rootdir", str(CONTRACTS_DIR), "-p", "no:cacheprovider", "--harness-profile", self.profile]
        for flag, value in (
            ("--adapter", self.adapter),
            ("--adapter-cmd", self.adapter_cmd),
            ("--adapter-timeout", self.adapter_timeout),
            ("--junitxml", self.junitxml),
            ("-k", self.keyword),
            ("--deepseek-era", self.era),
            ("--hypothesis-seed", self.seed),
        ):
            if value is not None:
                args += [flag, str(value)]
        if self.levels:
            args += ["-m", levels.marker_expression(self.levels)]
        for policy in self.policies:
            args += ["--policy", policy]
        for capability in self.require:
            args += ["--require-capability", capability]
        return args


@dataclass
class ContractResult:
    nodeid: str
    status: str  # passed | failed | error | not applicable | skipped
    level: str
    capability: str
    lines: list[str]
    location: tuple[str, int] | None = None  # where in the adapter's own code it raised


class _Console:
    """Prints the header, then each contract's result as it is decided; keeps them for the summary."""

    def __init__(self, verbose: bool) -> None:
        self.verbose = verbose
        self.results: dict[str, ContractResult] = {}
        self.collected = 0
        self.adapter = None
        self.interrupted = False
        self.header: list[str] = []

    def pytest_keyboard_interrupt(self, excinfo) -> None:
        self.interrupted = True

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.collected = len(session.items)
        if not session.items:
            return
        self.adapter = adapter_under_test(session.config)
        self.header = header_lines(session.config)
        for line in self.header:
            _say(line)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        status = _status(report)
        if status is None:
            return
        previous = self.results.get(report.nodeid)
        if previous is not None and previous.status != "passed":
            return  # a teardown error does not hide the call's failure
        lines = getattr(report, "harness_details", None) or _message(report)
        self.results[report.nodeid] = ContractResult(
            report.nodeid, status, getattr(report, "harness_level", ""), getattr(report, "harness_capability", ""),
            lines, getattr(report, "harness_location", None),
        )

    def pytest_runtest_logfinish(self, nodeid: str, location) -> None:
        result = self.results.get(nodeid)
        if result is None:
            return
        _say(f"{result.status.upper():>15}  [{result.level}] {nodeid}")
        if result.status in ("failed", "error") or (self.verbose and result.lines):
            for line in result.lines:
                _say(f"{'':>17}{line}")
        if result.status in ("failed", "error") and result.level:
            module = nodeid.partition(".py")[0]
            _say(f"{'':>17}rule: the docstring of {module}.py (docs/rules.md#{module})")

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.results[report.nodeid] = ContractResult(report.nodeid, "error", "", "", _message(report))
            _say(f"{'ERROR':>15}  {report.nodeid}")
            for line in _message(report):
                _say(f"{'':>17}{line}")


def _say(line: str) -> None:
    print(line, flush=True)  # flushed: a pipe sees each line as it comes


def _status(report: pytest.TestReport) -> str | None:
    if getattr(report, "harness_not_applicable", False):
        return NOT_APPLICABLE
    if getattr(report, "harness_adapter_error", False):
        return ADAPTER_ERROR
    if report.failed:
        return "failed" if report.when == "call" else "error"
    if report.passed and report.when == "call":
        return "passed"
    if report.skipped:
        return "skipped"
    return None


def _message(report) -> list[str]:
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        return crash.message.splitlines()
    if isinstance(report.longrepr, tuple):
        return str(report.longrepr[2]).splitlines()
    return str(report.longrepr or "").splitlines()[-20:]


def _counts(results) -> str:
    counts = Counter(r.status for r in results)
    text = f"{counts['passed']} passed, {counts['failed']} failed"
    for extra in ("error", NOT_APPLICABLE, "skipped"):
        if counts[extra]:
            text += f", {counts[extra]} {extra}"
    return text


def _groups(results: list[ContractResult]) -> list[tuple[str, str, list[ContractResult]]]:
    """Results by (level, capability), levels in their documented order."""
    groups: dict[tuple[str, str], list[ContractResult]] = {}
    for result in results:
        groups.setdefault((result.level, result.capability), []).append(result)
    order = {level: n for n, level in enumerate(levels.LEVELS)}
    return [(lv, cap, members) for (lv, cap), members in sorted(groups.items(), key=lambda kv: (order.get(kv[0][0], 99), kv[0][1]))]


def _failing(results: list[ContractResult]) -> list[ContractResult]:
    order = {level: n for n, level in enumerate(levels.LEVELS)}
    bad = [r for r in results if r.status in ("failed", "error")]
    return sorted(bad, key=lambda r: (order.get(r.level, 99), r.capability, r.nodeid))


def _summary(results: list[ContractResult]) -> None:
    _say("")
    _say("by rule level and capability:")
    for level, capability, members in _groups(results):
        _say(f"  {level or '-':<9} {capability or '-':<18} {_counts(members)}")
    bad = _failing(results)
    if bad:
        _say("")
        _say("failing contracts:")
        for result in bad:
            first = result.lines[0] if result.lines else ""
            _say(f"  {result.status.upper():<6} [{result.level}, {result.capability}] {result.nodeid}: {first[:160]}")


def _markdown(results: list[ContractResult], header: list[str]) -> str:
    lines = ["# harness check", "", *(f"- {line}" for line in header), ""]
    columns = ("passed", "failed", "error", NOT_APPLICABLE)
    counted = ((level, capability, Counter(r.status for r in members)) for level, capability, members in _groups(results))
    lines += markdown.table(
        ("level", "capability", "passed", "failed", "error", "not applicable"),
        ((level, capability, *(str(counts[c]) for c in columns)) for level, capability, counts in counted),
    )
    bad = _failing(results)
    if bad:
        rows = ((r.status, r.level, r.capability, markdown.code(r.nodeid), markdown.cell((r.lines or [""])[0][:200]))
                for r in bad)
        lines += ["", *markdown.table(("status", "level", "capability", "contract", "message"), rows)]
    return "\n".join(lines) + "\n"


def _adapter_source(adapter) -> tuple[str, int] | None:
    """The file and line where the adapter's class is defined (none for an adapter in another process)."""
    try:
        lines, first = inspect.getsourcelines(type(adapter.obj))
        return inspect.getsourcefile(type(adapter.obj)) or "", first
    except (TypeError, OSError):
        return None


def _annotate(results: list[ContractResult], adapter) -> None:
    """Each failing contract as a GitHub Actions error on the adapter's line that raised, or its class."""
    fallback = _adapter_source(adapter) if adapter is not None else None
    for result in _failing(results):
        where = result.location or fallback
        message = "\n".join(result.lines[:12])
        _say(ci_annotations.error(
            message, ci_annotations.relative(where[0]) if where else None, where[1] if where else None,
            f"{result.status} [{result.level}, {result.capability}] {result.nodeid}",
        ))


def _nothing_tested(console: _Console) -> None:
    adapter = console.adapter
    if adapter is None:
        _say("nothing was tested: no contract was selected")
        return
    methods = public_methods(adapter.obj)
    _say(
        f"nothing was tested: no contract applied to adapter {adapter.name}, which offers "
        f"{', '.join(sorted(adapter.capabilities)) or 'no capability'}"
    )
    _say(f"  its public methods: {', '.join(methods) or 'none'}")
    _say(f"  the contracts look for: {known_capabilities()}")


def _cache_dir() -> Path:
    """Where Hypothesis keeps its files during ``harness check``: a cache folder, never the user's current one."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "agent-contract-harness" / "hypothesis"


def run_check(options: CheckOptions) -> int:
    from hypothesis.configuration import set_hypothesis_home_dir

    set_hypothesis_home_dir(_cache_dir())
    console = _Console(options.verbose)
    # The owner of a bridge adapter's process: SIGINT and SIGTERM stop it (and all it started) at once,
    # and nothing it started outlives the check, however pytest ends.
    with Children():
        code = pytest.main([*options.pytest_args(), "-p", "no:terminal"], plugins=[console])
    if code == pytest.ExitCode.USAGE_ERROR:
        return exit_codes.USAGE
    if code == pytest.ExitCode.INTERNAL_ERROR:
        return exit_codes.INTERNAL
    results = list(console.results.values())
    if console.interrupted:
        _say(_counts(results))
        _say(f"interrupted: {max(console.collected - len(results), 0)} of {console.collected} contracts did not run")
        return exit_codes.INTERRUPTED
    _summary(results)
    if ci_annotations.enabled():
        _annotate(results, console.adapter)
        ci_annotations.add_step_summary(_markdown(results, console.header))
    _say(_counts(results))
    if options.markdown:
        Path(options.markdown).write_text(_markdown(results, console.header))
    if any(r.status in ("failed", "error") for r in results):
        return exit_codes.CONTRACTS_FAILED
    if not any(r.status == "passed" for r in results):
        _nothing_tested(console)
        return exit_codes.NOTHING_TESTED
    return exit_codes.OK
