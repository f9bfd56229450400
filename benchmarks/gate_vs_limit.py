"""The gate's wall time against the limit it cannot beat.

The limit: for each known bug, the time to run its named contracts on the
UNPATCHED reference (a separate pytest process each, as the gate runs them),
summed and divided by the jobs used. The gate adds the baseline, coverage
tracing and the failing examples' shrinking on top of that.

    python benchmarks/gate_vs_limit.py [--repeat 3] [--jobs N]

Prints each run and the medians; the goal is a ratio of at most 1.5.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

from harness.mutation.catalogue import load_catalogue
from harness.mutation.command import BUNDLED_CATALOGUE
from harness.mutation.executor import Children, ContractsExecutor
from harness.mutation.runner import KnownBugRun
from harness.mutation.workspace import Project, Workspace


def limit_seconds(project: Project, executor: ContractsExecutor, mutants, jobs: int) -> float:
    def unpatched(mutant) -> float:
        with Workspace(project, f"limit-{mutant.id}") as ws:
            return executor.run(ws, list(mutant.contracts), None, None, None).wall

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return sum(pool.map(unpatched, mutants)) / jobs


def gate_seconds(project: Project, executor: ContractsExecutor, mutants, jobs: int) -> float:
    run = KnownBugRun(project, executor, jobs=jobs)
    started = time.perf_counter()
    results = run.run(mutants, run.baseline(), lambda r: None)
    elapsed = time.perf_counter() - started
    missed = [r.mutant.id for r in results if r.verdict.value != "killed"]
    if missed:
        raise SystemExit(f"the gate is not green ({missed}); benchmark a green gate")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    project, executor = Project.bundled(), ContractsExecutor(Children())
    mutants = list(load_catalogue(BUNDLED_CATALOGUE).mutants)
    limits, gates = [], []
    for n in range(args.repeat):
        limits.append(limit_seconds(project, executor, mutants, args.jobs))
        gates.append(gate_seconds(project, executor, mutants, args.jobs))
        print(f"run {n + 1}: limit {limits[-1]:.1f}s  gate {gates[-1]:.1f}s  ratio {gates[-1] / limits[-1]:.2f}")
    limit, gate = statistics.median(limits), statistics.median(gates)
    print(f"{len(mutants)} known bugs, {args.jobs} jobs, median of {args.repeat}:")
    print(f"  limit (unpatched contracts per mutant / jobs): {limit:.1f}s")
    print(f"  gate (baseline + every mutant):               {gate:.1f}s")
    print(f"  ratio gate/limit: {gate / limit:.2f} (goal <= 1.5)")


if __name__ == "__main__":
    main()
