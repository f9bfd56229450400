"""The known-bug run: baseline first, then every mutant in its own copy."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Callable

from harness.mutation.catalogue import CatalogueError
from harness.mutation.executor import CommandExecutor, ContractsExecutor, RunOutcome, matches
from harness.mutation.outcome import Mutant, MutantResult, Verdict
from harness.mutation.patch import StalePatch, apply_patch
from harness.mutation.reach import mark_reached
from harness.mutation.verdict import decide
from harness.mutation.workspace import Project, Workspace

MIN_TIMEOUT = 30.0
TIMEOUT_FACTOR = 5.0


class BaselineRed(Exception):
    """The unpatched code fails its own contracts; no mutant verdict would mean anything."""

    def __init__(self, outcome: RunOutcome) -> None:
        self.outcome = outcome
        red = {t: e for t, e in outcome.tests.items() if e["outcome"] in ("assertion", "error")}
        lines = [f"{t}: {e['message'].splitlines()[0] if e['message'] else e['outcome']}" for t, e in red.items()]
        lines += outcome.collection_errors
        if outcome.timed_out:
            lines.append("the baseline run timed out")
        super().__init__("baseline is red:\n  " + "\n  ".join(lines or [outcome.output_tail]))


@dataclass
class Baseline:
    outcome: RunOutcome

    @property
    def startup(self) -> float:
        """Process start and collection: the part of a run no contract accounts for."""
        return max(0.0, self.outcome.wall - sum(e.get("duration", 0.0) for e in self.outcome.tests.values()))

    def matching(self, contract: str) -> list[str]:
        return [t for t in self.outcome.tests if matches(t, contract)]

    def budget(self, contracts: list[str]) -> float:
        seconds = sum(self.outcome.tests[t].get("duration", 0.0) for c in contracts for t in self.matching(c))
        return max(MIN_TIMEOUT, TIMEOUT_FACTOR * (seconds + self.startup))


def shard(mutants: list[Mutant], spec: str | None) -> list[Mutant]:
    """``k/n``: every n-th mutant starting at the k-th, in catalogue order."""
    if not spec:
        return mutants
    k, n = (int(x) for x in spec.split("/"))
    return [m for i, m in enumerate(mutants) if i % n == k - 1]


def parse_shard(spec: str) -> str:
    try:
        k, n = (int(x) for x in spec.split("/"))
    except ValueError:
        raise ValueError(f"--shard {spec!r}: expected k/n, e.g. 1/4") from None
    if not 1 <= k <= n:
        raise ValueError(f"--shard {spec!r}: k must be between 1 and n")
    return spec


class KnownBugRun:
    def __init__(
        self,
        project: Project,
        executor: ContractsExecutor | CommandExecutor,
        jobs: int,
        timeout: float | None = None,
    ) -> None:
        self.project = project
        self.executor = executor
        self.jobs = max(1, jobs)
        self.timeout = timeout

    def __enter__(self) -> KnownBugRun:
        return self

    def __exit__(self, *exc_info) -> None:
        self.executor.close()

    def baseline(self) -> Baseline:
        with Workspace(self.project, "baseline") as ws:
            outcome = self.executor.run(ws, None, None, None, self.timeout)
        red = outcome.timed_out or outcome.collection_errors or any(
            e["outcome"] in ("assertion", "error") for e in outcome.tests.values()
        )
        if red or not outcome.tests:
            raise BaselineRed(outcome)
        return Baseline(outcome)

    def check_contracts(self, mutants: list[Mutant], baseline: Baseline) -> None:
        for m in mutants:
            for contract in m.contracts:
                if not baseline.matching(contract):
                    raise CatalogueError(
                        f"mutant {m.id!r}: field 'contracts' names {contract!r}, which matches no contract "
                        f"(known: {', '.join(sorted({t.split('::')[0] for t in baseline.outcome.tests}))})"
                    )

    def run(
        self, mutants: list[Mutant], baseline: Baseline, on_result: Callable[[MutantResult], None]
    ) -> list[MutantResult]:
        self.check_contracts(mutants, baseline)
        results: dict[str, MutantResult] = {}
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            futures = {pool.submit(self.run_one, m, baseline): m for m in mutants}
            try:
                for future in as_completed(futures):
                    result = future.result()
                    results[result.mutant.id] = result
                    on_result(result)
            except BaseException:
                self.executor.children.stop_all()
                pool.shutdown(wait=True, cancel_futures=True)
                raise
        return [results[m.id] for m in mutants]

    def run_one(self, mutant: Mutant, baseline: Baseline) -> MutantResult:
        source = self.project.read(mutant.file)
        if source is None:
            return MutantResult(mutant, Verdict.STALE, f"{mutant.file} is not in the project")
        try:
            patch = apply_patch(source, mutant.find, mutant.replace)
        except StalePatch as exc:
            return MutantResult(mutant, Verdict.STALE, f"{mutant.file}: {exc}", source=source)
        budget = self.timeout or baseline.budget(list(mutant.contracts))
        with Workspace(self.project, mutant.id) as ws:
            ws.write(mutant.file, patch.text)
            outcome = self.executor.run(
                ws, list(mutant.contracts), mutant.file, (patch.first_line, patch.last_line), budget
            )
        result = MutantResult(
            mutant,
            Verdict.TIMEOUT,
            f"ran past its budget of {budget:.1f}s",
            start=patch.start,
            end=patch.end,
            tests=sorted(outcome.tests),
            duration=outcome.wall,
            source=source,
        )
        if not outcome.timed_out:
            mark_reached(outcome.tests, outcome.statements, outcome.executed, patch.first_line, patch.last_line)
            decision = decide(outcome.tests, outcome.collection_errors)
            result.verdict = decision.verdict
            result.reason = decision.reason
            result.message = decision.message
            result.covered_by = decision.covered_by
            result.killed_by = decision.killed_by
        return result
