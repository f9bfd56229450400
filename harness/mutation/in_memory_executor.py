"""Executing a patched Python project in memory: warm workers that patch each mutant in a fork, with a fallback.

:class:`ContractsExecutor` copies the project once per run (what git tracks,
or the bundled package), starts one warm worker per job
(:mod:`harness.mutation.in_memory_worker`, in a :mod:`~harness.mutation.warm_pool`)
that collects the contracts once, and runs the baseline and every mutant in
forks of those workers, the patch applied in memory
(:mod:`harness.mutation.in_memory_patch`). A mutant neither in-memory way can
hold runs in a copy of its own (:class:`~harness.mutation.copy_executor.CopyExecutor`),
and its report says so.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from harness.mutation.copy_executor import (
    HYPOTHESIS_CACHE,
    INSTALLED_CONTRACTS,
    CommandExecutor,
    CopyExecutor,
    contract_args,
    contract_env,
)
from harness.mutation.in_memory_patch import COPY
from harness.mutation.outcome_recorder import read_tests
from harness.mutation.patch import AppliedPatch
from harness.mutation.warm_pool import Reply, WorkerDied, WorkerNotReady, WorkerPool
from harness.mutation.workspace import Project
from harness.outcomes.mutants import Mutant, RunOutcome, matches
from harness.processes import Children, exit_text

__all__ = ["HYPOTHESIS_CACHE", "Children", "CommandExecutor", "ContractsExecutor", "CopyExecutor", "RunOutcome",
           "matches"]

MODES = ("auto", "reimport", "copy")  # how mutants are applied: auto tries a code swap first


def collection_targets(contracts_dir: Path, contracts: list[str] | None) -> list[str]:
    """The module files that hold ``contracts``, or the whole folder when any of them names no module file.

    A bare test name could live in any module, and a misspelt module must still be
    told apart from the real ones by name (the run checks every name against what was
    collected), so either one collects everything.
    """
    if contracts:
        modules = {contracts_dir / c.split("::")[0] for c in contracts}
        inside = contracts_dir.resolve()
        if all(m.suffix == ".py" and m.is_file() and m.resolve().is_relative_to(inside) for m in modules):
            return sorted(map(str, modules))
    return [str(contracts_dir)]


class EngineNotReady(Exception):
    """The warm workers could not start: ``kind`` is ``usage`` (adapter spec, shadowing) or ``collection``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class ContractsExecutor:
    """The contracts against the bundled reference, or against a team's Python adapter in its own project.

    ``adapter`` None: the project is the bundled package and the adapter its
    reference. Otherwise ``adapter`` is a ``module:attribute`` spec inside the
    project, and the contracts are the installed harness's; with ``bundled``,
    it is a reference of another format inside the bundled package, which is
    the project, as for the default reference.
    """

    def __init__(
        self,
        children: Children,
        hypothesis_profile: str = "ci",
        adapter: str | None = None,
        mode: str = "auto",
        shrink: bool = False,
        bundled: bool = False,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        self.children = children
        self.profile = hypothesis_profile
        self.adapter = adapter
        self.bundled = bundled or adapter is None  # the project is the bundled package
        self.mode = mode
        self.shrink = shrink  # False: mutant runs skip Hypothesis's shrinking (the verdict needs no minimal example)
        self.project: Project | None = None
        self.run_dir: Path | None = None
        self.copy_root: Path | None = None
        self.pool: WorkerPool | None = None
        self._copy: CopyExecutor | None = None
        self._copy_lock = threading.Lock()
        self._items: list[str] = []
        self._others: list[str] = []  # the contracts of other formats than the adapter's: collected, not run
        self._properties: list[str] = []
        self._durations: dict[str, float] = {}  # each contract's baseline time: cheap ones run first

    # ------------------------------------------------------------ set-up, once per run

    def code_dirs(self) -> list[str]:
        """The folders of the code under test (relative to the project): the ones the line reach measures."""
        return ["harness/reference"] if self.bundled else ["."]

    def _preload(self) -> list[str]:
        if self.bundled:
            return ["harness.reference"]
        return [self.adapter.partition(":")[0].split(".")[0]]

    def prepare(self, project: Project, jobs: int, contracts: list[str] | None = None) -> None:
        """Copy the project once and start ``jobs`` warm workers on the copy; wait until they collected.

        ``contracts`` (None: all) names what the run needs: the workers collect only those modules.
        """
        self.project = project
        self.run_dir = Path(tempfile.mkdtemp(prefix="harness-run-"))
        self.copy_root = self.run_dir / "project"
        for relative in project.files:
            destination = self.copy_root / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(project.root / relative, destination)
        contracts_dir = self.copy_root / "harness" / "contracts" if self.bundled else INSTALLED_CONTRACTS
        spec = {
            "root": str(self.copy_root),
            "run_dir": str(self.run_dir),
            "code_dirs": [str((self.copy_root / d).resolve()) for d in self.code_dirs()],
            "preload": self._preload(),
            "shrink": self.shrink,
            "shadow_check": {"harness": "the bundled package"} if self.bundled
            else {self.adapter.partition(":")[0]: "the team's project"},
            "pytest_args": [*collection_targets(contracts_dir, contracts), "--rootdir", str(contracts_dir), "-s",
                            *contract_args(self.profile, self.adapter)],
        }
        spec_path = self.run_dir / "worker-spec.json"
        spec_path.write_text(json.dumps(spec))
        env = contract_env(self.adapter)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # the copy is the run's own: its bytecode speeds up every worker
        self.pool = WorkerPool(self.children, "in_memory_worker", [str(spec_path)], self.copy_root, env, self.run_dir,
                               max(1, jobs))
        try:
            workers = self.pool.start_all()
        except WorkerNotReady as exc:
            raise EngineNotReady(exc.kind, str(exc)) from None
        except WorkerDied as exc:
            if self.children.stopping:
                raise KeyboardInterrupt from None
            raise EngineNotReady("collection", str(exc)) from None
        self._items = list(workers[0].ready["items"])
        self._others = list(workers[0].ready.get("others", []))
        self._properties = list(workers[0].ready.get("properties", []))

    def collected(self) -> list[str]:
        return list(self._items)

    def other_formats(self) -> list[str]:
        """The contracts the collection left out because they hold for other formats than the adapter's."""
        return list(self._others)

    def properties(self) -> list[str]:
        """The collected contracts that are Hypothesis properties (the only ones more examples can change)."""
        return list(self._properties)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
        if self._copy is not None:
            self._copy.close()
        if self.run_dir is not None:
            shutil.rmtree(self.run_dir, ignore_errors=True)
            self.run_dir = None

    # ------------------------------------------------------------ runs

    def _ask(self, request: dict, budget: float | None) -> tuple[Reply, str]:
        """One request on a warm worker; a worker that dies is replaced and the request retried once."""
        notes = []
        for attempt in (1, 2):
            try:
                reply = self.pool.ask(request, budget)
            except (WorkerDied, WorkerNotReady) as exc:
                if self.children.stopping:
                    raise KeyboardInterrupt from None
                notes.append(str(exc))
                if attempt == 2:
                    raise WorkerDied(f"{notes[0]}\nretried once on a fresh worker: {notes[1]}") from None
                continue
            note = f"its first worker died and it was retried on a fresh one ({notes[0].splitlines()[0]})" if notes else ""
            return reply, note
        raise AssertionError("unreachable")

    def baseline(self, contracts: list[str] | None, budget: float | None, *, reach: bool = False,
                 explore: dict | None = None) -> RunOutcome:
        """Every collected contract (or those matching ``contracts``), split over the workers by module.

        ``reach``: also measure the lines of the code under test each contract ran (``outcome.lines``);
        ``explore`` (``{"profile", "seed"}``, optionally ``"examples"``: contract id -> its max_examples, and
        ``"costs"``: contract id -> the seconds it is expected to take): the properties run under that profile
        and seed, split over the workers by those costs.
        """
        items = [t for t in self._items if not contracts or any(matches(t, c) for c in contracts)]
        costs = (explore or {}).get("costs")
        shares = _by_cost(items, costs, self.pool.size) if costs else _by_module(items, self.pool.size)
        started = time.perf_counter()
        deadline = None if budget is None else time.monotonic() + budget

        def run_share(share: list[str]) -> RunOutcome:
            remaining = None if deadline is None else max(0.1, deadline - time.monotonic())
            request = {"kind": "baseline", "label": "baseline", "items": share, "reach": reach, "explore": explore}
            return self._outcome(*self._try(request, remaining))

        if len(shares) == 1:
            parts = [run_share(shares[0])]
        else:
            threads = ThreadPoolExecutor(max_workers=len(shares))
            try:
                parts = [future.result() for future in [threads.submit(run_share, s) for s in shares]]
            except BaseException:
                # Interrupted: the threads wait on forks that may never end; stop them before waiting.
                self.children.stop_all()
                threads.shutdown(wait=True, cancel_futures=True)
                raise
            threads.shutdown()
        outcome = RunOutcome(wall=time.perf_counter() - started, reach_measured=True)
        for part in parts:
            outcome.tests.update(part.tests)
            outcome.collection_errors += part.collection_errors
            outcome.timed_out = outcome.timed_out or part.timed_out
            outcome.output_tail = outcome.output_tail or part.output_tail
            for file, measured in part.lines.items():
                _merge_lines(outcome.lines.setdefault(file, {"statements": [], "executed": {}}), measured)
        if explore is None:  # an exploration's times are its profile's, not what a mutant run costs
            self.remember_durations(outcome.tests)
        return outcome

    def remember_durations(self, tests: dict[str, dict]) -> None:
        """Each contract's baseline time, which orders a mutant's contracts cheap first (a baseline partly
        reused from the verdict store tells it here)."""
        self._durations = {t: e.get("duration", 0.0) for t, e in tests.items()}

    def _try(self, request: dict, budget: float | None):
        try:
            return self._ask(request, budget)
        except WorkerDied as exc:
            return None, str(exc)

    def mutant(self, mutant: Mutant, patch: AppliedPatch, budget: float | None, *, any_kill: bool = False,
               explore: dict | None = None) -> RunOutcome:
        """One mutant; ``any_kill`` and ``explore`` as :func:`in_memory_mutant.run` takes them."""
        if self.mode == "copy":
            return self._in_copy(mutant, patch, budget, "asked for")
        request = {
            "kind": "mutant",
            "label": mutant.id,
            "file": str(self.copy_root / mutant.file),
            "patched": patch.text,
            "first": patch.first_line,
            "last": patch.last_line,
            "contracts": list(mutant.contracts),
            "durations": {t: d for t, d in self._durations.items() if any(matches(t, c) for c in mutant.contracts)},
            "mode": "reimport" if self.mode == "reimport" else None,
            "any_kill": any_kill,
            "explore": explore,
        }
        reply, note = self._try(request, budget)
        if reply is not None and isinstance(reply.result, dict) and "fallback" in reply.result:
            return self._in_copy(mutant, patch, budget, str(reply.result["fallback"]))
        outcome = self._outcome(reply, note)
        return outcome

    def _in_copy(self, mutant: Mutant, patch: AppliedPatch, budget: float | None, why: str) -> RunOutcome:
        with self._copy_lock:
            if self._copy is None:
                self._copy = CopyExecutor(
                    self.children, self.profile, self.adapter, code_dirs=self.code_dirs(), preload=self._preload()
                )
                self._copy.prepare(self.project, 1)
        outcome = self._copy.mutant(mutant, patch, budget)
        outcome.engine = f"{COPY} ({why})"
        return outcome

    def _relative(self, filename: str) -> str:
        """A file of the copy as the project names it (``harness/reference/x.py``)."""
        path = Path(filename)
        return path.relative_to(self.copy_root).as_posix() if path.is_relative_to(self.copy_root) else filename

    def _outcome(self, reply: Reply | None, note: str) -> RunOutcome:
        """A worker's reply as a run outcome; anything malformed or missing is an error of the run, never a crash."""
        if reply is None:  # the worker died twice
            return RunOutcome(collection_errors=[note], reach_measured=True)
        outcome = RunOutcome(timed_out=reply.timed_out, wall=reply.wall, reach_measured=True, engine=note)
        if reply.timed_out:
            return outcome
        result = reply.result
        if result is None:
            tail = reply.tail.strip()
            outcome.collection_errors = [
                f"the contract run died before reporting ({exit_text(reply.exit)})"
                + (f"; its output ends:\n{tail}" if tail else "; it printed nothing")
            ]
            return outcome
        try:
            tests = read_tests(result["tests"])
            for entry in tests.values():
                entry["reached"] = bool(entry.get("reached", False))
            errors = [str(e) for e in result["errors"]]
            engine = str(result.get("engine", ""))
            engine_note = str(result.get("engine_note", ""))
            lines = {self._relative(str(f)): {"statements": [int(n) for n in m["statements"]],
                              "executed": {str(n): [str(c) for c in cs] for n, cs in m["executed"].items()}}
                     for f, m in result.get("lines", {}).items()}
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            outcome.collection_errors = [
                f"the contract run sent malformed results ({type(exc).__name__}: {exc}; {exit_text(reply.exit)})"
            ]
            return outcome
        outcome.tests, outcome.collection_errors, outcome.lines = tests, errors, lines
        outcome.engine = "; ".join(p for p in (engine + (f" ({engine_note})" if engine_note else ""), note) if p)
        # The engine's own time: the whole round trip less what the contracts themselves took.
        outcome.overhead = max(0.0, reply.wall - sum(e["duration"] for e in tests.values()))
        return outcome


def _by_module(items: list[str], n: int) -> list[list[str]]:
    """``items`` in up to ``n`` shares, a module's contracts together (they share its fixtures), about equal counts."""
    shares: list[list[str]] = [[] for _ in range(n)]
    modules: dict[str, list[str]] = {}
    for t in items:
        modules.setdefault(t.split("::")[0], []).append(t)
    for group in sorted(modules.values(), key=len, reverse=True):
        min(shares, key=len).extend(group)
    return [s for s in shares if s]


def _by_cost(items: list[str], costs: dict[str, float], n: int) -> list[list[str]]:
    """``items`` in up to ``n`` shares of about equal expected seconds: the costliest first, each to the share
    with the least so far (a property's cost dwarfs what a module's fixtures save)."""
    shares: list[list[str]] = [[] for _ in range(n)]
    loads = [0.0] * n
    for t in sorted(items, key=lambda t: (-costs.get(t, 0.0), t)):
        least = loads.index(min(loads))
        shares[least].append(t)
        loads[least] += costs.get(t, 0.0)
    return [s for s in shares if s]


def _merge_lines(into: dict, measured: dict) -> None:
    """One worker's line reach added to the run's: forks of one worker measured different contracts."""
    into["statements"] = sorted(set(into["statements"]) | set(measured["statements"]))
    for line, contracts in measured["executed"].items():
        into["executed"][line] = sorted(set(into["executed"].get(line, [])) | set(contracts))
