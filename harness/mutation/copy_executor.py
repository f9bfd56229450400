"""Executing a patched project in a copy of its own: a foreign project's command, and the in-memory fallback.

:class:`CopyExecutor` is the path every Python mutant took before the
in-memory executor (:mod:`harness.mutation.in_memory_executor`): the project
copied to a temporary directory, the patch written there, a fresh pytest
session with per-test coverage (:mod:`harness.mutation.copy_run`, forked from
a warm worker of a :mod:`~harness.mutation.warm_pool`). The in-memory executor
falls back to it when neither in-memory way holds, and the benchmarks run it
side by side with that one. :class:`CommandExecutor` runs a foreign project's
own test command.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from harness import CONTRACTS_DIR
from harness.adapter import DEFAULT_SPEC, ENV_VAR
from harness.mutation.coverage_files import CoverageFileError, read_line_coverage
from harness.mutation.junit_read import JUnitError, read_junit
from harness.mutation.outcome_recorder import read_tests
from harness.mutation.patch import AppliedPatch
from harness.mutation.reach import ALL_TESTS
from harness.mutation.runner_table import RunnerConfig
from harness.mutation.warm_pool import Reply, WorkerDied, WorkerNotReady, WorkerPool
from harness.mutation.workspace import Project, Workspace
from harness.outcomes.mutants import Mutant, RunOutcome, matches
from harness.processes import Children, exit_text, run_child

INSTALLED_CONTRACTS = CONTRACTS_DIR
CONTRACTS_SUBDIR = INSTALLED_CONTRACTS.relative_to(INSTALLED_CONTRACTS.parents[1])

HYPOTHESIS_CACHE = Path(tempfile.gettempdir()) / "harness-hypothesis-cache"


def contract_env(adapter: str | None) -> dict:
    env = {
        **os.environ,
        ENV_VAR: adapter or DEFAULT_SPEC,
        "PYTHONDONTWRITEBYTECODE": "1",
        # Hypothesis caches its unicode tables here; building them costs
        # seconds, so every run shares one cache outside any work tree.
        "HYPOTHESIS_STORAGE_DIRECTORY": str(HYPOTHESIS_CACHE),
    }
    env.pop("PYTHONPATH", None)
    return env


def contract_args(profile: str, adapter: str | None) -> list[str]:
    """pytest options every mutant run of the contracts shares."""
    return [
        "-p",
        "no:cacheprovider",
        "--harness-profile",
        profile,
        # A hang the mutant causes is the mutant's timeout, judged by its own budget.
        "--adapter-timeout",
        "0",
        "-q",
        "--no-header",
        "--color=no",
        "-p",
        "no:randomly",
        # Contracts state their own messages; rewriting their asserts is only import cost in every worker.
        "--assert=plain",
        *(["--adapter", adapter] if adapter else []),
    ]


@dataclass(frozen=True)
class Selection:
    """What one run in a copy covers: the contracts (None: all) and, for a mutant, the patched file and lines."""

    contracts: list[str] | None
    target: str | None = None
    lines: tuple[int, int] | None = None


class PerCopyExecutor:
    """A fresh copy of the project for the baseline and for every mutant."""

    children: Children
    project: Project | None = None

    def prepare(self, project: Project, jobs: int, contracts: list[str] | None = None) -> None:
        """Nothing is collected ahead: each run in a copy names its own contracts (``contracts`` is not needed)."""
        self.project = project

    def collected(self) -> list[str] | None:
        """Every contract id the executor knows before the baseline; None: only the baseline will tell."""
        return None

    def other_formats(self) -> list[str]:
        """A project's own test command has no formats: nothing is left out for one."""
        return []

    def baseline(self, contracts: list[str] | None, budget: float | None) -> RunOutcome:
        with Workspace(self.project, "baseline") as ws:
            return self.run(ws, Selection(contracts), budget)

    def mutant(self, mutant: Mutant, patch: AppliedPatch, budget: float | None) -> RunOutcome:
        with Workspace(self.project, mutant.id) as ws:
            ws.write(mutant.file, patch.text)
            selection = Selection(list(mutant.contracts), mutant.file, (patch.first_line, patch.last_line))
            return self.run(ws, selection, budget)

    def run(self, workspace: Workspace, selection: Selection, timeout: float | None) -> RunOutcome:
        raise NotImplementedError

    def close(self) -> None:
        """Nothing stays warm between runs."""


class CopyExecutor(PerCopyExecutor):
    """Named contracts against a patched copy: a fresh pytest session per mutant, reach from coverage."""

    def __init__(self, children: Children, hypothesis_profile: str = "ci", adapter: str | None = None,
                 code_dirs: list[str] | None = None, preload: list[str] | None = None) -> None:
        self.children = children
        self.profile = hypothesis_profile
        self.adapter = adapter
        self.code_dirs = code_dirs  # relative to the copy: where an exception counts as raised by the code under test
        self.preload = preload  # packages imported before collection, so their import-time lines count for every test
        self.run_dir = Path(tempfile.mkdtemp(prefix="harness-copies-"))  # the warm workers' logs and forks
        # One worker per job slot that asks; a slot finds an idle one or starts one.
        self.pool = WorkerPool(children, "copy_worker", [], self.run_dir, contract_env(adapter), self.run_dir, 1)

    def close(self) -> None:
        self.pool.close()
        shutil.rmtree(self.run_dir, ignore_errors=True)

    def contracts_dir(self, workspace: Workspace) -> Path:
        if self.adapter is None:  # the bundled project: its contracts are in the copy
            return workspace.root / CONTRACTS_SUBDIR
        return INSTALLED_CONTRACTS

    def run(self, workspace: Workspace, selection: Selection, timeout: float | None) -> RunOutcome:
        contracts_dir = self.contracts_dir(workspace)
        contracts, target, lines = selection.contracts, selection.target, selection.lines
        targets = [str(contracts_dir / c) for c in contracts] if contracts else [str(contracts_dir)]
        spec = {
            "root": str(workspace.root),
            "target": str(workspace.root / target) if target else None,
            "first_line": lines[0] if lines else 0,
            "last_line": lines[1] if lines else 0,
            "code_dirs": [str(workspace.root / d) for d in (self.code_dirs or ["harness/reference"])],
            "preload": self.preload if self.preload is not None else ["harness.reference"],
            "check_harness": self.adapter is None,
            "pytest_args": [*targets, "--rootdir", str(contracts_dir), *contract_args(self.profile, self.adapter)],
        }
        spec_path = workspace.root / ".harness-copy-run.json"
        spec_path.write_text(json.dumps(spec))
        started = time.perf_counter()
        try:
            reply = self.pool.ask({"label": workspace.label, "spec": str(spec_path), "cwd": str(workspace.root)},
                                  timeout)
        except (WorkerDied, WorkerNotReady) as exc:
            if self.children.stopping:
                raise KeyboardInterrupt from None
            return RunOutcome(collection_errors=[str(exc)], wall=time.perf_counter() - started)
        outcome = RunOutcome(timed_out=reply.timed_out, wall=time.perf_counter() - started, output_tail=reply.tail)
        if not reply.timed_out:
            read_copy_result(reply, outcome)
        return outcome


def read_copy_result(reply: Reply, outcome: RunOutcome) -> None:
    """Fill ``outcome`` from a copy run's result; a missing or malformed one is an error of this run, not a crash."""
    status = exit_text(reply.exit)
    if reply.result is None:
        outcome.collection_errors = [f"the contract run died before reporting ({status})" + _ends(reply.tail)]
        return
    try:
        data = reply.result
        tests = read_tests(data["tests"])
        errors = [str(e) for e in data["collection_errors"]]
        statements = {int(n) for n in data["statements"]}
        executed = {int(n): {str(c) for c in contexts} for n, contexts in data["executed"].items()}
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        outcome.collection_errors = [
            f"the contract run sent malformed results ({type(exc).__name__}: {exc}; {status})" + _ends(reply.tail)
        ]
        return
    outcome.tests, outcome.collection_errors = tests, errors
    outcome.statements, outcome.executed = statements, executed


def _ends(tail: str) -> str:
    tail = tail.strip()
    return f"; its output ends:\n{tail}" if tail else "; it printed nothing"


class CommandExecutor(PerCopyExecutor):
    """Runs a foreign project's own test command; reads its JUnit and coverage files.

    Configured by the catalogue's ``[runner]`` table. The coverage file has no
    per-test data, so reach is credited to the whole run: name a narrow
    command if the distinction matters.
    """

    def __init__(self, children: Children, runner: RunnerConfig) -> None:
        self.children = children
        self.config = runner

    def run(self, workspace: Workspace, selection: Selection, timeout: float | None) -> RunOutcome:
        env = {**os.environ, "CI": "true"}
        timed_out, tail, wall, status = run_child(
            self.children, ["/bin/sh", "-c", self.config.command], workspace.root, env, timeout
        )
        outcome = RunOutcome(timed_out=timed_out, wall=wall, output_tail=tail)
        if timed_out:
            return outcome
        junit = workspace.root / self.config.junit
        if not junit.exists():
            outcome.collection_errors = [f"the test command ({status}) wrote no JUnit file {self.config.junit}" + _ends(tail)]
            return outcome
        try:
            tests = read_junit(junit, self.config.assertion_pattern)
        except JUnitError as exc:
            outcome.collection_errors = [f"{exc} (the test command ended with {status})" + _ends(tail)]
            return outcome
        if selection.contracts:
            tests = {t: e for t, e in tests.items() if any(matches(t, c) for c in selection.contracts)}
        outcome.tests = tests
        if selection.target:
            try:
                statements, executed = read_line_coverage(
                    workspace.root / self.config.coverage,
                    self.config.coverage_format,
                    workspace.root / selection.target,
                    workspace.root,
                )
            except CoverageFileError as exc:
                outcome.collection_errors = [str(exc)]
                return outcome
            outcome.statements = statements
            outcome.executed = {n: {ALL_TESTS} for n in executed}
        return outcome
