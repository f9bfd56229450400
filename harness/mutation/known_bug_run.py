"""The known-bug run: baseline first, then every mutant, each judged by the verdict rule.

How a patched project is executed is the executor's business
(:mod:`in_memory_executor`, :mod:`copy_executor`); this module owns the order,
the budgets and the verdicts.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Callable, TypeVar

from harness.clip import clip
from harness.mutation.catalogue import CatalogueError
from harness.mutation.copy_executor import PerCopyExecutor
from harness.mutation.in_memory_executor import ContractsExecutor
from harness.mutation.patch import AppliedPatch, StalePatch, apply_patch
from harness.mutation.reach import mark_reached
from harness.mutation.verdict import decide
from harness.mutation.workspace import Project
from harness.outcomes.mutants import RED, Mutant, MutantResult, RunOutcome, Verdict, matches

T = TypeVar("T")

MIN_TIMEOUT = 30.0
TIMEOUT_FACTOR = 5.0
BASELINE_TIMEOUT = 900.0  # seconds the unpatched run may take (``--baseline-timeout``)


class BaselineRed(Exception):
    """The unpatched code fails its own contracts; no mutant verdict would mean anything."""

    def __init__(self, outcome: RunOutcome) -> None:
        self.outcome = outcome
        red = {t: e for t, e in outcome.tests.items() if e["outcome"] in RED}
        lines = [f"{t}: {clip(e['message'].splitlines()[0]) if e['message'] else e['outcome']}" for t, e in red.items()]
        lines += outcome.collection_errors
        super().__init__("baseline is red:\n  " + "\n  ".join(lines or [outcome.output_tail or "no contract ran"]))


class BaselineTimedOut(Exception):
    """The unpatched run did not finish within its own budget: nothing is known about the code yet."""

    def __init__(self, outcome: RunOutcome, budget: float) -> None:
        self.outcome = outcome
        finished = len(outcome.tests)
        super().__init__(
            f"the baseline ran past its budget of {budget:g}s (--baseline-timeout) with {finished} contract(s) "
            "finished; no verdict is given. This says nothing against the code under test: raise the budget, or "
            "look for a contract that hangs on the unpatched code"
        )


@dataclass
class Baseline:
    outcome: RunOutcome

    @property
    def startup(self) -> float:
        """What a run costs beyond its contracts: process start, collection, the engine's own work."""
        return max(0.0, self.outcome.wall - sum(e.get("duration", 0.0) for e in self.outcome.tests.values()))

    def matching(self, contract: str) -> list[str]:
        return [t for t in self.outcome.tests if matches(t, contract)]

    def budget(self, contracts: list[str]) -> float:
        seconds = sum(self.outcome.tests[t].get("duration", 0.0) for c in contracts for t in self.matching(c))
        return max(MIN_TIMEOUT, TIMEOUT_FACTOR * (seconds + self.startup))


class KnownBugRun:
    """Use with ``with``: the executor's workers and copies live exactly as long as the block.

    ``timeout`` is the per-mutant budget (default: from the baseline);
    ``baseline_timeout`` the budget of the unpatched run, its own.
    ``baseline_contracts`` limits the baseline, and what the executor collects, to
    the contracts the mutants name (a team's adapter need not pass contracts its
    catalogue does not use; a selection of mutants need not wait for the others').
    """

    def __init__(
        self,
        project: Project,
        executor: ContractsExecutor | PerCopyExecutor,
        jobs: int,
        timeout: float | None = None,
        baseline_timeout: float | None = BASELINE_TIMEOUT,
        baseline_contracts: list[str] | None = None,
    ) -> None:
        self.project = project
        self.executor = executor
        self.jobs = max(1, jobs)
        self.timeout = timeout
        self.baseline_timeout = baseline_timeout
        self.baseline_contracts = baseline_contracts
        self._prepared = False

    def __enter__(self) -> KnownBugRun:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None:
            self.executor.children.stop_all()  # interrupted or failed: nothing it started may keep running
        self.executor.close()

    def prepare(self, contracts: list[str] | None = None) -> None:
        """Start the executor; it collects ``contracts`` (default: the baseline's, None: every one)."""
        if not self._prepared:
            self.executor.prepare(self.project, self.jobs, contracts or self.baseline_contracts)
            self._prepared = True

    def baseline(self, reach: bool = False) -> Baseline:
        """The unpatched run; ``reach``: it also measures the lines each contract ran (``outcome.lines``)."""
        self.prepare()
        known = self.executor.collected()
        if known is not None and self.baseline_contracts:
            self.check_names(self.baseline_contracts, [*known, *self.executor.other_formats()])
        options = {"reach": True} if reach else {}
        outcome = self.executor.baseline(self.baseline_contracts, self.baseline_timeout, **options)
        if outcome.timed_out:
            raise BaselineTimedOut(outcome, self.baseline_timeout)
        red = outcome.collection_errors or any(
            e["outcome"] in RED for e in outcome.tests.values()
        )
        if red or not outcome.tests:
            raise BaselineRed(outcome)
        return Baseline(outcome)

    def explore(self, profile: str, seed: int, examples: dict[str, int] | None = None,
                costs: dict[str, float] | None = None) -> RunOutcome:
        """The properties among the baseline's contracts under ``profile`` with ``seed``, over every job; red is
        the caller's to judge. ``examples``: each property's own max_examples; ``costs``: the seconds each is
        expected to take, by which the jobs share them."""
        self.prepare()
        explore = {"profile": profile, "seed": seed, **({"examples": examples} if examples else {}),
                   **({"costs": costs} if costs else {})}
        return self.executor.baseline(self.baseline_contracts, None, explore=explore)

    @staticmethod
    def check_names(contracts: list[str], known: list[str], owner: str = "") -> None:
        for contract in contracts:
            if not any(matches(t, contract) for t in known):
                modules = ", ".join(sorted({t.split("::")[0] for t in known}))
                raise CatalogueError(
                    f"{owner}field 'contracts' names {contract!r}, which matches no contract (known: {modules})"
                )

    def check_contracts(self, mutants: list[Mutant], baseline: Baseline | None = None) -> None:
        """Every contract each mutant names must match one collected (or, without a collection, in ``baseline``);
        one of another format than the adapter's counts (a shared bug names each format's), and does not run."""
        known = self.executor.collected() or (list(baseline.outcome.tests) if baseline else None)
        if known is None:
            return  # nothing is known before the baseline: the check after it tells
        known = [*known, *self.executor.other_formats()]
        for m in mutants:
            self.check_names(list(m.contracts), known, f"mutant {m.id!r}: ")

    def run(
        self, mutants: list[Mutant], baseline: Baseline, on_result: Callable[[MutantResult], None]
    ) -> list[MutantResult]:
        self.check_contracts(mutants, baseline)
        return self.map(mutants, lambda m: self.run_one(m, baseline), on_result)

    def map(self, items: list[T], one: Callable[[T], MutantResult],
            on_result: Callable[[MutantResult], None]) -> list[MutantResult]:
        """``one`` over ``items``, ``jobs`` at a time, results in the order of ``items``; an interrupt stops every run."""
        results: dict[int, MutantResult] = {}
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            futures = {pool.submit(one, item): n for n, item in enumerate(items)}
            try:
                for future in as_completed(futures):
                    result = future.result()
                    results[futures[future]] = result
                    on_result(result)
            except BaseException:
                self.executor.children.stop_all()
                pool.shutdown(wait=True, cancel_futures=True)
                raise
        return [results[n] for n in range(len(items))]

    def run_one(self, mutant: Mutant, baseline: Baseline) -> MutantResult:
        source = self.project.read(mutant.file)
        if source is None:
            return MutantResult(mutant, Verdict.STALE, f"{mutant.file} is not in the project")
        try:
            patch = apply_patch(source, mutant.find, mutant.replace, python=mutant.file.endswith(".py"))
        except StalePatch as exc:
            return MutantResult(mutant, Verdict.STALE, f"{mutant.file}: {exc}", source=source)
        return self.run_patched(mutant, patch, source, baseline)

    def run_patched(self, mutant: Mutant, patch: AppliedPatch, source: str, baseline: Baseline, *,
                    any_kill: bool = False, explore: dict | None = None, budget: float | None = None) -> MutantResult:
        """One mutant already applied to ``source``, judged by the verdict rule.

        ``any_kill``: ``mutant.contracts`` are exact contract ids and the first kill by any settles it
        (a generic mutant); ``explore``: its properties run under that profile and seed (a retry);
        ``budget``: its own time bound instead of the run's.
        """
        budget = budget or self.timeout or baseline.budget(list(mutant.contracts))
        options = {"any_kill": True} if any_kill else {}
        options.update({"explore": explore} if explore else {})
        outcome = self.executor.mutant(mutant, patch, budget, **options)
        result = MutantResult(
            mutant,
            Verdict.TIMEOUT,
            f"ran past its budget of {budget:.1f}s",
            start=patch.start,
            end=patch.end,
            tests=list(outcome.tests),
            duration=outcome.wall,
            source=source,
            engine=outcome.engine,
        )
        if not outcome.timed_out:
            if not outcome.reach_measured:
                mark_reached(outcome.tests, outcome.statements, outcome.executed, patch.first_line, patch.last_line)
            decision = decide(outcome.tests, outcome.collection_errors)
            result.verdict = decision.verdict
            result.reason = decision.reason
            result.message = decision.message
            result.covered_by = decision.covered_by
            result.killed_by = decision.killed_by
            result.kind = decision.kind
        return result
