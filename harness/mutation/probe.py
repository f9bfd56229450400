"""Runs inside the isolated copy: pytest with per-test coverage of the patched lines.

Started as a script (``python probe.py SPEC_JSON``) with the copy as the
working directory, so ``import harness`` resolves to the patched copy. Coverage
starts before anything from the copy is imported. It only measures: for every
contract the outcome (passed, assertion, error, not applicable), the failure
text and the duration; for the target file its statements and which contexts
ran each line. The parent process decides reach and verdicts.

Only the standard library, coverage and pytest are imported at module level:
this file must not pull the unpatched package in ahead of the copy.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import pkgutil
import sys
import time
from pathlib import Path

import coverage
import pytest


def _failure_text(excinfo: pytest.ExceptionInfo) -> str:
    exc = excinfo.value
    text = excinfo.exconly()
    notes = getattr(exc, "__notes__", None)
    if notes:
        text += "\n" + "\n".join(str(n) for n in notes)
    return text[:4000]


def _sibling(name: str):
    """A module of this script's own package, by its path: importing ``harness`` here would load the copy."""
    spec = importlib.util.spec_from_file_location(f"_harness_{name}", Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_KILL_KIND = _sibling("kill_kind")


class ProbePlugin:
    """Records outcomes; with a target, stops at the first contract that kills the mutant.

    Once one named contract has failed on an assertion after executing the
    patched lines the verdict is settled, and the rest (each possibly
    shrinking a Hypothesis failure) would only cost time.
    """

    def __init__(
        self, cov: coverage.Coverage | None, target: str | None, lines: tuple[int, int], code_dirs: list[str]
    ) -> None:
        self.code_dirs = [d.rstrip("/") + "/" for d in code_dirs]
        self.root = os.getcwd()  # the copy: the probe runs in it
        self.cov = cov
        self.target = target
        self.lines = lines
        self.tests: dict[str, dict] = {}
        self.collection_errors: list[str] = []
        self._reach = _sibling("reach") if cov is not None else None

    def _in_code(self, filename: str) -> bool:
        return filename.startswith(tuple(self.code_dirs))

    def _reached(self, nodeid: str) -> bool:
        try:
            statements = set(self.cov.analysis2(self.target)[1])
        except coverage.CoverageException:
            return False
        executed = {n: set(c) for n, c in self.cov.get_data().contexts_by_lineno(self.target).items()}
        entry = {nodeid: {}}
        self._reach.mark_reached(entry, statements, executed, *self.lines)
        return entry[nodeid]["reached"]

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem):
        if self.cov is not None:
            self.cov.switch_context(item.nodeid)
        started = time.perf_counter()
        try:
            return (yield)
        finally:
            if self.cov is not None:
                self.cov.switch_context("")
            self.tests.setdefault(item.nodeid, {"outcome": "passed", "message": ""})
            self.tests[item.nodeid]["duration"] = time.perf_counter() - started

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo):
        report = yield
        entry = self.tests.setdefault(item.nodeid, {"outcome": "passed", "message": ""})
        if getattr(report, "harness_not_applicable", False):
            entry["outcome"] = "not applicable"
        elif report.failed and entry["outcome"] == "passed":
            exc = call.excinfo.value if call.excinfo else None
            kind = _KILL_KIND.kind(exc, self._in_code) if report.when == "call" and exc is not None else "error"
            entry["outcome"] = kind
            entry["message"] = _failure_text(call.excinfo) if call.excinfo else str(report.longrepr)
            if kind == "crash":
                where = _KILL_KIND.origin(exc, self._in_code, self.root)
                entry["message"] += f"\n(raised out of the code under test at {where})" if where else ""
            if kind == "error":
                entry["message"] = f"{report.when}: {entry['message']}"
            elif self.cov is not None and self._reached(item.nodeid):
                item.session.shouldstop = f"{item.nodeid} killed the mutant"
        return report

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.collection_errors.append(f"{report.nodeid}: {report.longreprtext[-2000:]}")


def main(spec_path: str) -> int:
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
            module = importlib.import_module(package)
            for info in pkgutil.walk_packages(getattr(module, "__path__", []), package + "."):
                importlib.import_module(info.name)
        except Exception as exc:  # reported like a collection error: the mutant broke the import
            preload_errors.append(f"importing {package} failed: {type(exc).__name__}: {exc}")
    plugin = ProbePlugin(cov, target, (spec["first_line"], spec["last_line"]), spec.get("code_dirs", []))
    plugin.collection_errors += preload_errors
    exit_code = pytest.main(spec["pytest_args"], plugins=[plugin])
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
        plugin.collection_errors.append(
            f"the contracts imported harness from {imported.parent}, not from the patched copy: "
            "an installed copy shadows it"
        )
    Path(spec["out"]).write_text(
        json.dumps(
            {
                "exit_code": int(exit_code),
                "tests": plugin.tests,
                "collection_errors": plugin.collection_errors,
                "statements": statements,
                "executed": executed,
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
