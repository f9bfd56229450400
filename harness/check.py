"""``harness check``: run the contracts against one adapter and say how each went."""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

import harness.contracts
from harness.plugin import BRIDGE_ERROR, NOT_APPLICABLE, adapter_under_test

CONTRACTS_DIR = Path(harness.contracts.__file__).parent


@dataclass
class ContractResult:
    nodeid: str
    status: str  # passed | failed | error | not applicable
    message: str = ""


class _Collector:
    """Keeps one status per contract from pytest's reports."""

    def __init__(self) -> None:
        self.results: dict[str, ContractResult] = {}
        self.header = ""

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.header = adapter_under_test(session.config).describe()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if getattr(report, "harness_not_applicable", False):
            status = NOT_APPLICABLE
        elif getattr(report, "harness_bridge_error", False):
            status = BRIDGE_ERROR
        elif report.failed:
            status = "failed" if report.when == "call" else "error"
        elif report.passed and report.when == "call":
            status = "passed"
        elif report.skipped:
            status = "skipped"
        else:
            return
        previous = self.results.get(report.nodeid)
        if previous is None or previous.status == "passed":
            self.results[report.nodeid] = ContractResult(report.nodeid, status, _message(report))

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.results[report.nodeid] = ContractResult(report.nodeid, "error", _message(report))


def _message(report) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        return crash.message
    if isinstance(report.longrepr, tuple):
        return report.longrepr[2]
    return str(report.longrepr or "")


def pytest_args(
    adapter: str | None,
    profile: str,
    junitxml: str | None = None,
    select: list[str] | None = None,
    adapter_cmd: str | None = None,
    adapter_timeout: float | None = None,
) -> list[str]:
    targets = [str(CONTRACTS_DIR / s) for s in select] if select else [str(CONTRACTS_DIR)]
    args = [*targets, "--rootdir", str(CONTRACTS_DIR), "-p", "no:cacheprovider", "--hypothesis-profile", profile]
    if adapter:
        args += ["--adapter", adapter]
    if adapter_cmd:
        args += ["--adapter-cmd", adapter_cmd]
    if adapter_timeout is not None:
        args += ["--adapter-timeout", str(adapter_timeout)]
    if junitxml:
        args += ["--junitxml", junitxml]
    return args


def run_check(
    adapter: str | None,
    profile: str,
    junitxml: str | None,
    verbose: bool = False,
    adapter_cmd: str | None = None,
    adapter_timeout: float | None = None,
) -> int:
    collector = _Collector()
    args = pytest_args(adapter, profile, junitxml, adapter_cmd=adapter_cmd, adapter_timeout=adapter_timeout)
    args += ["-p", "no:terminal"]
    code = pytest.main(args, plugins=[collector])
    if code in (pytest.ExitCode.USAGE_ERROR, pytest.ExitCode.INTERNAL_ERROR):
        return int(code)
    print(f"adapter under test: {collector.header}")
    for result in collector.results.values():
        print(f"{result.status.upper():>15}  {result.nodeid}")
        if result.status in ("failed", "error") or (verbose and result.message):
            for line in result.message.splitlines():
                print(f"{'':>17}{line}")
    counts = Counter(r.status for r in collector.results.values())
    summary = f"{counts['passed']} passed, {counts['failed']} failed"
    for extra in ("error", NOT_APPLICABLE, "skipped"):
        if counts[extra]:
            summary += f", {counts[extra]} {extra}"
    print(summary)
    sys.stdout.flush()
    return 1 if counts["failed"] or counts["error"] or not collector.results else 0
