"""Running the contracts of one workspace: the bundled ones, or a foreign project's command."""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import harness.contracts
from harness.adapter import DEFAULT_SPEC, ENV_VAR
from harness.mutation.children import Children, run_child
from harness.mutation.forkserver import ZygoteDied, ZygotePool
from harness.mutation.coverage_files import CoverageFileError, read_line_coverage
from harness.mutation.junit_read import read_junit
from harness.mutation.reach import ALL_TESTS
from harness.mutation.runner_config import RunnerConfig
from harness.mutation.workspace import Workspace

CONTRACTS_SUBDIR = Path(harness.contracts.__file__).resolve().parent.relative_to(
    Path(harness.contracts.__file__).resolve().parents[2]
)

HYPOTHESIS_CACHE = Path(tempfile.gettempdir()) / "harness-hypothesis-cache"


@dataclass
class RunOutcome:
    tests: dict[str, dict] = field(default_factory=dict)
    collection_errors: list[str] = field(default_factory=list)
    timed_out: bool = False
    wall: float = 0.0
    output_tail: str = ""
    statements: set[int] = field(default_factory=set)  # executable lines of the target file
    executed: dict[int, set[str]] = field(default_factory=dict)  # line -> contexts that ran it


def matches(test_id: str, contract: str) -> bool:
    """A contract id names a test, a module of tests, or a test by its bare name."""
    return test_id == contract or test_id.startswith((contract + "::", contract + "[")) or test_id.endswith(
        "::" + contract
    )


class ContractsExecutor:
    """Runs named contracts of the bundled package against its (patched) reference."""

    def __init__(self, children: Children, hypothesis_profile: str = "ci") -> None:
        self.children = children
        self.profile = hypothesis_profile
        env = {
            **os.environ,
            ENV_VAR: DEFAULT_SPEC,
            "PYTHONDONTWRITEBYTECODE": "1",
            # Hypothesis caches its unicode tables here; building them costs
            # seconds, so every copy shares one cache outside any work tree.
            "HYPOTHESIS_STORAGE_DIRECTORY": str(HYPOTHESIS_CACHE),
        }
        env.pop("PYTHONPATH", None)
        self.pool = ZygotePool(children, env)

    def close(self) -> None:
        self.pool.close()

    def contracts_dir(self, workspace: Workspace) -> Path:
        return workspace.root / CONTRACTS_SUBDIR

    def run(
        self,
        workspace: Workspace,
        contracts: list[str] | None,
        target: str | None,
        lines: tuple[int, int] | None,
        timeout: float | None,
    ) -> RunOutcome:
        contracts_dir = self.contracts_dir(workspace)
        targets = [str(contracts_dir / c) for c in contracts] if contracts else [str(contracts_dir)]
        out = workspace.root / ".harness-probe.json"
        spec = {
            "root": str(workspace.root),
            "out": str(out),
            "target": str(workspace.root / target) if target else None,
            "first_line": lines[0] if lines else 0,
            "last_line": lines[1] if lines else 0,
            "pytest_args": [
                *targets,
                "--rootdir",
                str(contracts_dir),
                "-p",
                "no:cacheprovider",
                "--harness-profile",
                self.profile,
                # A hang the mutant causes is the mutant's timeout, judged by its own budget.
                "--adapter-timeout",
                "0",
                "-q",
                "--no-header",
                "--color=no",
                "-p",
                "no:randomly",
            ],
        }
        spec_path = workspace.root / ".harness-probe-spec.json"
        spec_path.write_text(json.dumps(spec))
        log = workspace.root / ".harness-probe.log"
        started = time.perf_counter()
        try:
            timed_out = self.pool.run(spec_path, workspace.root, log, timeout)
        except ZygoteDied:
            if self.children.stopping:
                raise KeyboardInterrupt from None
            raise
        tail = log.read_text(errors="replace")[-4000:] if log.exists() else ""
        outcome = RunOutcome(timed_out=timed_out, wall=time.perf_counter() - started, output_tail=tail)
        if not timed_out:
            if out.exists():
                data = json.loads(out.read_text())
                outcome.tests = data["tests"]
                outcome.collection_errors = data["collection_errors"]
                outcome.statements = set(data["statements"])
                outcome.executed = {int(n): set(c) for n, c in data["executed"].items()}
            else:
                outcome.collection_errors = [f"the contract run died before reporting:\n{tail}"]
        return outcome


class CommandExecutor:
    """Runs a foreign project's own test command; reads its JUnit and coverage files.

    Configured by the catalogue's ``[runner]`` table. The coverage file has no
    per-test data, so reach is credited to the whole run: name a narrow
    command if the distinction matters.
    """

    def __init__(self, children: Children, runner: RunnerConfig) -> None:
        self.children = children
        self.config = runner

    def close(self) -> None:
        """Nothing stays warm between runs of a foreign command."""

    def run(
        self,
        workspace: Workspace,
        contracts: list[str] | None,
        target: str | None,
        lines: tuple[int, int] | None,
        timeout: float | None,
    ) -> RunOutcome:
        env = {**os.environ, "CI": "true"}
        timed_out, tail, wall = run_child(
            self.children, ["/bin/sh", "-c", self.config.command], workspace.root, env, timeout
        )
        outcome = RunOutcome(timed_out=timed_out, wall=wall, output_tail=tail)
        if timed_out:
            return outcome
        junit = workspace.root / self.config.junit
        if not junit.exists():
            outcome.collection_errors = [f"the test command wrote no JUnit file {self.config.junit}:\n{tail}"]
            return outcome
        tests = read_junit(junit, self.config.assertion_pattern)
        if contracts:
            tests = {t: e for t, e in tests.items() if any(matches(t, c) for c in contracts)}
        outcome.tests = tests
        if target:
            try:
                statements, executed = read_line_coverage(
                    workspace.root / self.config.coverage,
                    self.config.coverage_format,
                    workspace.root / target,
                    workspace.root,
                )
            except CoverageFileError as exc:
                outcome.collection_errors = [str(exc)]
                return outcome
            outcome.statements = statements
            outcome.executed = {n: {ALL_TESTS} for n in executed}
        return outcome
