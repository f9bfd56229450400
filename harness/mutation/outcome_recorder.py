"""A pytest plugin that records each contract's outcome, message and duration, in a warm worker's fork.

Both executors load it (:mod:`in_memory_worker`, :mod:`copy_run`): an outcome
is one of :data:`~harness.outcomes.mutants.TestOutcome`, told from the failure's
exception by :mod:`kill_kind`; the message comes from the exception (its one
line and its notes), never from pytest's report text, so that the two
executors word a failure alike. Whether a test reached the patch is each
executor's own measure; :meth:`OutcomeRecorder.killed` is told of a red test
so that one can stop the run when that settles the verdict.

Imports only the standard library, pytest and its siblings (see :mod:`warm_fork`).
"""

from __future__ import annotations

import os
import time

import pytest

from ..outcomes.mutants import CRASH, ERROR, NOT_APPLICABLE, PASSED, TEST_OUTCOMES, TestOutcome
from . import kill_kind

MESSAGE = 4000  # characters of a failure's text kept


class OutcomeRecorder:
    """``tests``: contract id -> ``{"outcome", "message", "duration"}``; ``collection_errors`` as pytest said them."""

    def __init__(self, code_dirs: list[str], root: str) -> None:
        self.code_dirs = tuple(d.rstrip(os.sep) + os.sep for d in code_dirs)
        self.root = root
        self.tests: dict[str, dict] = {}
        self.collection_errors: list[str] = []

    def in_code(self, filename: str) -> bool:
        """Whether a file belongs to the code under test (a crash is an exception raised out of it)."""
        return filename.startswith(self.code_dirs)

    def entry(self, nodeid: str) -> dict:
        return self.tests.setdefault(nodeid, {"outcome": PASSED, "message": ""})

    def killed(self, item: pytest.Item, outcome: TestOutcome) -> None:
        """A contract went red on an assertion or a crash; an executor that can settle the verdict now overrides this."""

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.collection_errors.append(f"{report.nodeid}: {report.longreprtext[-2000:]}")

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem):
        started = time.perf_counter()
        try:
            return (yield)
        finally:
            self.entry(item.nodeid)["duration"] = time.perf_counter() - started

    # Outermost of the wrappers: the harness plugin's own marks a contract not applicable to the adapter on the
    # report, and that mark must be there when this one reads it (else it is recorded as passed).
    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo):
        report = yield
        entry = self.entry(item.nodeid)
        if getattr(report, "harness_not_applicable", False):
            entry["outcome"] = NOT_APPLICABLE
        elif report.failed and entry["outcome"] == PASSED:
            excinfo = call.excinfo
            exc = excinfo.value if excinfo else None
            outcome = kill_kind.kind(exc, self.in_code) if report.when == "call" and exc is not None else ERROR
            entry["outcome"] = outcome
            entry["message"] = self._failure_text(excinfo, outcome) if excinfo else str(report.longrepr)[-MESSAGE:]
            if outcome == ERROR:
                entry["message"] = f"{report.when}: {entry['message']}"
            else:
                self.killed(item, outcome)
        return report

    def _failure_text(self, excinfo: pytest.ExceptionInfo, outcome: TestOutcome) -> str:
        exc = excinfo.value
        text = excinfo.exconly()
        where = kill_kind.origin(exc, self.in_code, self.root) if outcome == CRASH else ""
        if where:
            text += f"\n(raised out of the code under test at {where})"
        notes = getattr(exc, "__notes__", None)
        if notes:
            text += "\n" + "\n".join(str(n) for n in notes)
        return text[:MESSAGE]


def read_tests(raw: object) -> dict[str, dict]:
    """The harness's reading of a recorder's ``tests``, checked: raises ``ValueError``, ``TypeError``,
    ``KeyError`` or ``AttributeError`` on anything a recorder would not have sent."""
    tests = {str(t): dict(e) for t, e in raw.items()}
    for entry in tests.values():
        if entry["outcome"] not in TEST_OUTCOMES:
            raise ValueError(f"unknown outcome {entry['outcome']!r}")
        entry["duration"] = float(entry.get("duration", 0.0))
        if "examples" in entry:  # a property's examples run (fork_settings.count_examples)
            entry["examples"] = int(entry["examples"])
    return tests
