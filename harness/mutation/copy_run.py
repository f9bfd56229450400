"""One run of the contracts in a patched copy of the project, with per-test coverage of the patched lines.

Runs in a fork of the copy executor's warm worker (:mod:`copy_worker`), in the
copy, so ``import harness`` resolves to the patched copy. Coverage starts
before anything from the copy is imported. It only measures: for every
contract its outcome, failure text and duration (:mod:`outcome_recorder`),
and for the target file its statements and which contexts ran each line. The
harness decides reach and verdicts.

Only the standard library, coverage, pytest and this folder's worker-side
modules are imported at module level: nothing may pull the unpatched package
in ahead of the copy.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import coverage
import pytest

from . import reach
from .outcome_recorder import OutcomeRecorder
from .preload import import_tree
from ..outcomes.mutants import TestOutcome


class CoverageRecorder(OutcomeRecorder):
    """Records outcomes; with a target, stops at the first contract that kills the mutant.

    Once one named contract has failed on an assertion or a crash after
    executing the patched lines the verdict is settled, and the rest (each
    possibly shrinking a Hypothesis failure) would only cost time.
    """

    def __init__(self, cov: coverage.Coverage | None, target: str | None, lines: tuple[int, int],
                 code_dirs: list[str], root: str) -> None:
        super().__init__(code_dirs, root)
        self.cov = cov
        self.target = target
        self.lines = lines

    def _reached(self, nodeid: str) -> bool:
        try:
            statements = set(self.cov.analysis2(self.target)[1])
        except coverage.CoverageException:
            return False
        executed = {n: set(c) for n, c in self.cov.get_data().contexts_by_lineno(self.target).items()}
        entry = {nodeid: {}}
        reach.mark_reached(entry, statements, executed, *self.lines)
        return entry[nodeid]["reached"]

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem):
        if self.cov is not None:
            self.cov.switch_context(item.nodeid)
        try:
            return (yield from super().pytest_runtest_protocol(item, nextitem))  # the recorder times it
        finally:
            if self.cov is not None:
                self.cov.switch_context("")

    def killed(self, item: pytest.Item, outcome: TestOutcome) -> None:
        if self.cov is not None and self._reached(item.nodeid):
            item.session.shouldstop = f"{item.nodeid} killed the mutant"


def main(spec_path: str) -> dict:
    """Run the contracts the spec names; the result is what :func:`~harness.mutation.copy_executor.read_copy_result` reads."""
    spec = json.loads(Path(spec_path).read_text())
    sys.path[0] = spec["root"]  # the copy, not the directory this script sits in
    target = spec.get("target")
    # The baseline has no target and runs untraced.
    cov = coverage.Coverage(data_file=None, include=[target], config_file=False) if target else None
    if cov is not None:
        cov.start()
    # The code under test is imported before any contract runs, so what its modules run
    # at import counts for every contract, whatever order they come in.
    preload_errors = []
    for package in spec.get("preload", []):
        try:
            import_tree(package)
        except Exception as exc:  # reported like a collection error: the mutant broke the import
            preload_errors.append(f"importing {package} failed: {type(exc).__name__}: {exc}")
    recorder = CoverageRecorder(cov, target, (spec["first_line"], spec["last_line"]), spec.get("code_dirs", []),
                                spec["root"])
    recorder.collection_errors += preload_errors
    exit_code = pytest.main(spec["pytest_args"], plugins=[recorder])
    statements: list[int] = []
    executed: dict[int, list[str]] = {}
    if cov is not None:
        cov.stop()
        try:
            statements = sorted(cov.analysis2(target)[1])
        except coverage.CoverageException:
            pass  # never imported: nothing of it ran
        executed = {n: sorted(c) for n, c in cov.get_data().contexts_by_lineno(target).items()}
    imported = Path(getattr(sys.modules.get("harness"), "__file__", "") or "").resolve()
    if spec.get("check_harness", True) and imported != Path() and Path(spec["root"]).resolve() not in imported.parents:
        recorder.collection_errors.append(
            f"the contracts imported harness from {imported.parent}, not from the patched copy: "
            "an installed copy shadows it"
        )
    return {
        "exit_code": int(exit_code),
        "tests": recorder.tests,
        "collection_errors": recorder.collection_errors,
        "statements": statements,
        "executed": executed,
    }
