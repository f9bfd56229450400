"""Running the contracts in a workspace as a child process, with a time budget.

The child gets its own process group, so a hung mutant is stopped with
everything it started; every running child is registered so an interrupted
run can stop them all before it exits.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import harness.contracts
from harness.adapter import DEFAULT_SPEC, ENV_VAR
from harness.mutation import probe
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


class Children:
    """The child processes in flight, so an interrupt can stop every one."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._procs: set[subprocess.Popen] = set()
        self.stopping = False

    def start(self, args: list[str], **kwargs) -> subprocess.Popen:
        with self._lock:
            if self.stopping:
                raise KeyboardInterrupt
            proc = subprocess.Popen(args, start_new_session=True, **kwargs)
            self._procs.add(proc)
            return proc

    def done(self, proc: subprocess.Popen) -> None:
        with self._lock:
            self._procs.discard(proc)

    def stop_all(self) -> None:
        with self._lock:
            self.stopping = True
            for proc in self._procs:
                kill_group(proc)


def kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run_child(children: Children, args: list[str], cwd: Path, env: dict, timeout: float | None) -> tuple[bool, str, float]:
    """Run to completion or budget; returns (timed_out, output tail, wall seconds)."""
    started = time.perf_counter()
    proc = children.start(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        try:
            output, _ = proc.communicate(timeout=timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            kill_group(proc)
            output, _ = proc.communicate()
            timed_out = True
        except BaseException:
            # Interrupted: the child sits in its own session and never saw the signal.
            kill_group(proc)
            proc.wait()
            raise
    finally:
        children.done(proc)
    return timed_out, output.decode("utf-8", "replace")[-4000:], time.perf_counter() - started


class ContractsExecutor:
    """Runs named contracts of the bundled package against its (patched) reference."""

    def __init__(self, children: Children, hypothesis_profile: str = "ci") -> None:
        self.children = children
        self.profile = hypothesis_profile

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
                "--hypothesis-profile",
                self.profile,
                "-q",
                "--no-header",
                "--color=no",
                "-p",
                "no:randomly",
            ],
        }
        spec_path = workspace.root / ".harness-probe-spec.json"
        spec_path.write_text(json.dumps(spec))
        env = {
            **os.environ,
            ENV_VAR: DEFAULT_SPEC,
            "PYTHONDONTWRITEBYTECODE": "1",
            # Hypothesis caches its unicode tables here; building them costs
            # seconds, so every copy shares one cache outside any work tree.
            "HYPOTHESIS_STORAGE_DIRECTORY": str(HYPOTHESIS_CACHE),
        }
        env.pop("PYTHONPATH", None)
        timed_out, tail, wall = run_child(
            self.children, [sys.executable, probe.__file__, str(spec_path)], workspace.root, env, timeout
        )
        outcome = RunOutcome(timed_out=timed_out, wall=wall, output_tail=tail)
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
