"""The gate's wall time against the limit it cannot beat.

Two limits, both for the same known bugs and jobs:

- strict: the baseline durations of each mutant's named contracts (test time
  only, as measured inside the baseline run), summed, divided by the jobs;
- per-process: each mutant's named contracts run on the UNPATCHED reference
  in a fresh copy and a fresh (forked, warm) probe process, as the copy path
  runs a patched copy, summed and divided by the jobs (the warm engine
  needs neither the copy nor the fresh session, so it can beat this one).

The gate adds starting its workers and the baseline run on top.

    python benchmarks/gate_vs_limit.py [--repeat 3] [--jobs N]

Prints each run and the medians; the goal is a ratio of at most 1.5.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

from harness.cli.mutate import BUNDLED_CATALOGUE
from harness.mutation.catalogue import load_catalogue
from harness.mutation.copy_executor import CopyExecutor, Selection
from harness.mutation.in_memory_executor import ContractsExecutor
from harness.mutation.known_bug_run import KnownBugRun
from harness.mutation.workspace import Project, Workspace
from harness.processes import Children


def limit_seconds(project: Project, executor: CopyExecutor, mutants, jobs: int) -> float:
    def unpatched(mutant) -> float:
        with Workspace(project, f"limit-{mutant.id}") as ws:
            return executor.run(ws, Selection(list(mutant.contracts)), None).wall

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return sum(pool.map(unpatched, mutants)) / jobs


def gate_seconds(project: Project, executor: ContractsExecutor, mutants, jobs: int) -> tuple[float, float]:
    """The gate's wall time, and the strict limit from its own baseline."""
    started = time.perf_counter()
    with KnownBugRun(project, executor, jobs=jobs) as run:
        baseline = run.baseline()
        results = run.run(mutants, baseline, lambda r: None)
    elapsed = time.perf_counter() - started
    missed = [r.mutant.id for r in results if r.verdict.value != "killed"]
    if missed:
        raise SystemExit(f"the gate is not green ({missed}); benchmark a green gate")
    tests = baseline.outcome.tests
    strict = sum(tests[t]["duration"] for m in mutants for c in m.contracts for t in baseline.matching(c))
    return elapsed, strict / jobs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    project = Project.bundled()
    mutants = list(load_catalogue(BUNDLED_CATALOGUE).mutants)
    limits, stricts, gates = [], [], []
    for n in range(args.repeat):
        with Children() as children:
            copies = CopyExecutor(children)
            try:
                limits.append(limit_seconds(project, copies, mutants, args.jobs))
            finally:
                copies.close()
            gate, strict = gate_seconds(project, ContractsExecutor(children), mutants, args.jobs)
        gates.append(gate)
        stricts.append(strict)
        print(
            f"run {n + 1}: gate {gate:.1f}s  per-process limit {limits[-1]:.1f}s  strict limit {strict:.1f}s",
            flush=True,
        )
    limit, strict, gate = statistics.median(limits), statistics.median(stricts), statistics.median(gates)
    print(f"{len(mutants)} known bugs, {args.jobs} jobs, median of {args.repeat}:")
    print(f"  gate (baseline + every mutant):                   {gate:.1f}s")
    print(f"  per-process limit (unpatched, one process each):  {limit:.1f}s  ratio {gate / limit:.2f}")
    print(f"  strict limit (baseline test time only):           {strict:.1f}s  ratio {gate / strict:.2f}")
    print("  goal: ratio <= 1.5")


if __name__ == "__main__":
    main()
