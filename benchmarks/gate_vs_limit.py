"""The gate's wall time against the limits it is measured by.

Two limits, both for the same known bugs and jobs:

- strict: the baseline durations of each mutant's named contracts (test time
  only, as measured inside the baseline run), summed, divided by the jobs:
  each known bug's named contracts run once, unpatched;
- per-process: each mutant's named contracts run on the UNPATCHED reference
  in a fresh copy and a fresh (forked, warm) probe process, as the copy path
  runs a patched copy, summed and divided by the jobs (the warm engine
  needs neither the copy nor the fresh session, so it can beat this one).

The gate's wall time is split in two: starting its workers and the baseline
run, then the known bugs. The strict limit has no setup at all, so two ratios
are printed, each saying what it compares:

- whole gate / strict limit: the gate with its setup against a limit with
  none, the number the goal (at most 1.3) is set for;
- known bugs / strict limit: like with like, neither side's setup counted.

The per-process limit pays a copy and a process per known bug, so it is
compared with the whole gate.

    python benchmarks/gate_vs_limit.py [--repeat 3] [--jobs N]

Prints each run and the medians.
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


def gate_seconds(project: Project, executor: ContractsExecutor, mutants, jobs: int) -> tuple[float, float, float]:
    """The gate's setup (its workers' start and the baseline) and known-bug phase, and the strict limit."""
    started = time.perf_counter()
    with KnownBugRun(project, executor, jobs=jobs) as run:
        baseline = run.baseline()
        baselined = time.perf_counter()
        results = run.run(mutants, baseline, lambda r: None)
        finished = time.perf_counter()
    missed = [r.mutant.id for r in results if r.verdict.value != "killed"]
    if missed:
        raise SystemExit(f"the gate is not green ({missed}); benchmark a green gate")
    tests = baseline.outcome.tests
    strict = sum(tests[t]["duration"] for m in mutants for c in m.contracts for t in baseline.matching(c))
    return baselined - started, finished - baselined, strict / jobs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    project = Project.bundled()
    mutants = list(load_catalogue(BUNDLED_CATALOGUE).mutants)
    limits, stricts, setups, bugs = [], [], [], []
    for n in range(args.repeat):
        with Children() as children:
            copies = CopyExecutor(children)
            try:
                limits.append(limit_seconds(project, copies, mutants, args.jobs))
            finally:
                copies.close()
            setup, bug_phase, strict = gate_seconds(project, ContractsExecutor(children), mutants, args.jobs)
        setups.append(setup)
        bugs.append(bug_phase)
        stricts.append(strict)
        print(
            f"run {n + 1}: gate {setup + bug_phase:.1f}s (setup {setup:.1f}s + known bugs {bug_phase:.1f}s)  "
            f"per-process limit {limits[-1]:.1f}s  strict limit {strict:.1f}s",
            flush=True,
        )
    limit, strict = statistics.median(limits), statistics.median(stricts)
    setup, bug_phase = statistics.median(setups), statistics.median(bugs)
    gate = statistics.median([a + b for a, b in zip(setups, bugs)])
    print(f"{len(mutants)} known bugs, {args.jobs} jobs, median of {args.repeat}:")
    print(f"  gate, whole (workers' start + baseline + every known bug): {gate:.1f}s")
    print(f"    of which workers' start + baseline:                      {setup:.1f}s")
    print(f"    of which the known bugs:                                 {bug_phase:.1f}s")
    print(f"  strict limit (named contracts once, unpatched, / jobs):    {strict:.1f}s")
    print(f"  per-process limit (a copy and a process per known bug):    {limit:.1f}s")
    print(f"  whole gate / strict limit (setup on the gate's side only): {gate / strict:.2f}  goal <= 1.3")
    print(f"  known bugs / strict limit (like with like, no setup):      {bug_phase / strict:.2f}")
    print(f"  whole gate / per-process limit (setup on both sides):      {gate / limit:.2f}")


if __name__ == "__main__":
    main()
