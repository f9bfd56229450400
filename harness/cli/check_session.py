"""``harness check``'s pytest session: each contract's :class:`Result` collected, and printed as it is decided."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from harness.cli.expectations import as_expected, entry_for, unexpected_error, word
from harness.cli.expectations_file import Expectations
from harness.outcomes.results import ERROR, FAILED, NOT_APPLICABLE, PASSED, SKIPPED, Result, Status
from harness.plugin import adapter_under_test, header_lines, is_contract, level_key
from harness.plugin.other_formats import OtherFormat, count_line, other_format_key, report_lines
from harness.report.markdown_text import inline
from harness.report.results_console import INDENT, result_lines
from harness.report.sarif import rule_id


class CheckSession:
    """A pytest plugin: prints the header, then each contract's result as it is decided; keeps them.

    With ``expectations``, a failure the file expects is shown as such (``XFAIL``, ``PENDING``).
    The contracts of other formats than the adapter's are counted in one line under the header
    (listed with ``verbose``) and are no result.
    """

    def __init__(self, verbose: bool, expectations: Expectations | None = None) -> None:
        self.verbose = verbose
        self.expectations = expectations
        self.known: set[str] = set()  # the id of every contract collected, selected or deselected
        self.partial: set[str] = set()  # the ids of which some case of the adapter's format was deselected
        self.others: list[OtherFormat] = []  # the contracts deselected because they hold for other formats
        self.results: dict[str, Result] = {}
        self.seconds: dict[str, float] = {}  # setup, call and teardown together, as pytest's junitxml counts
        self.caused: set[str] = set()  # the contracts whose failure is another's (a precondition): one line each
        self.collected = 0
        self.adapter = None
        self.interrupted = False
        self.header: list[str] = []
        # Told each result as it is decided, before its line is printed (the watching process's records): a line
        # a person saw is never missing from the account of an interrupted run.
        self.decided: Callable[[Result], None] = lambda result: None

    def pytest_configure(self, config: pytest.Config) -> None:
        # The results show the contract's message, not pytest's traceback; a long one would repr every frame's
        # arguments whole (the terminal plugin, off here, owns --tb).
        config.option.tbstyle = "short"

    def pytest_keyboard_interrupt(self, excinfo) -> None:
        self.interrupted = True

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        # A case of another format could never run against this adapter: it leaves its contract whole.
        others = [item for item in items if other_format_key in item.stash]
        self.others += [item.stash[other_format_key] for item in others]
        self._know(others)
        self.partial |= self._know([item for item in items if other_format_key not in item.stash])

    def _know(self, items: list[pytest.Item]) -> set[str]:
        ids = {rule_id(contract_result(item.nodeid, SKIPPED, [], item.stash.get(level_key, "")))
               for item in items if is_contract(item)}
        self.known |= ids
        return ids

    @pytest.hookimpl(trylast=True)  # after the plugin's: it deselects the contracts of other formats
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.collected = len(session.items)
        self._know(session.items)
        if not session.items and not self.others:
            return
        self.adapter = adapter_under_test(session.config)
        self.header = header_lines(session.config)
        for line in [*self.header, *report_lines(self.others, self.verbose)]:
            say(inline(line))  # the adapter's name is the adapter's text
        if self.others:
            self.header.append(count_line(self.others))  # as the reports' header says it

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[report.nodeid] = self.seconds.get(report.nodeid, 0.0) + report.duration
        status = _status(report)
        if status is None:
            return
        previous = self.results.get(report.nodeid)
        if previous is not None and previous.status != PASSED:
            return  # a teardown error does not hide the call's failure
        lines = getattr(report, "harness_details", None) or _message(report)
        if getattr(report, "harness_caused_by", None):
            self.caused.add(report.nodeid)
        self.results[report.nodeid] = contract_result(
            report.nodeid, status, lines, getattr(report, "harness_level", ""),
            getattr(report, "harness_capability", ""), getattr(report, "harness_location", None),
            getattr(report, "harness_kind", ""),
        )

    def pytest_runtest_logfinish(self, nodeid: str, location) -> None:
        result = self.results.get(nodeid)
        if result is None:
            return
        result = self.results[nodeid] = replace(result, seconds=self.seconds.get(nodeid))
        self.decided(result)
        entry = entry_for(result, self.expectations) if self.expectations else None
        if entry is not None:
            shown = as_expected(result, entry)
            lines = result_lines(shown, self.verbose, word=word(entry))
            for line in lines if self.verbose else [*lines, INDENT + shown.message]:
                say(line)
            return
        for line in result_lines(result, self.verbose):
            say(line)
        unexpected = unexpected_error(result, self.expectations) if self.expectations else None
        if unexpected:
            say(INDENT + unexpected)
        if result.is_problem and result.level and nodeid not in self.caused:
            module = nodeid.partition(".py")[0]
            say(f"{INDENT}rule: the docstring of {module}.py (docs/rules.md#{module})")

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            result = self.results[report.nodeid] = contract_result(report.nodeid, ERROR, _message(report))
            self.decided(result)
            for line in result_lines(result):
                say(line)


def say(line: str) -> None:
    print(line, flush=True)  # flushed: a pipe sees each line as it comes


def contract_result(nodeid: str, status: Status, lines: list[str], level: str = "", capability: str = "",
                    location: tuple[str, int] | None = None, kind: str = "") -> Result:
    """A contract's result; its JUnit suite and name as pytest's junitxml would give them.

    ``kind``: the exception's type (``AssertionError``), which a mutation runner reading the JUnit
    file matches to tell a failed assertion from an error.
    """
    path, *inner = nodeid.split("::")
    suite = ".".join([path.removesuffix(".py").replace("/", "."), *inner[:-1]])
    return Result(
        name=nodeid, suite=suite, status=status, level=level, capability=capability,
        message=lines[0] if lines else "", details=tuple(lines[1:]), location=location, kind=kind,
        case=inner[-1] if inner else path,
    )


def _status(report: pytest.TestReport) -> Status | None:
    if getattr(report, "harness_not_applicable", False):
        return NOT_APPLICABLE
    if getattr(report, "harness_adapter_error", False):
        return ERROR  # the contract could not run: the adapter faulted, or its process broke the protocol
    if report.failed:
        return FAILED if report.when == "call" else ERROR
    if report.passed and report.when == "call":
        return PASSED
    if report.skipped:
        return SKIPPED
    return None


def _message(report) -> list[str]:
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        return crash.message.splitlines()
    if isinstance(report.longrepr, tuple):
        return str(report.longrepr[2]).splitlines()
    return str(report.longrepr or "").splitlines()[-20:]
