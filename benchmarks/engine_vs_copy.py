"""The warm in-memory engine against the copy-per-mutant path, side by side.

Every repeat runs, one after the other on the same machine, on the bundled
reference and catalogue:

1. the gate, new path: ``KnownBugRun`` with the warm engine (workers started,
   baseline, every known bug), wall time, ``--jobs`` jobs;
2. the gate, old path: the same with a copy of the package and a fresh pytest
   session per mutant (``CopyExecutor``), wall time, same jobs;
3. engine overhead per mutant, one job, mutants one at a time: a mutant's
   round trip less the time its contracts themselves took, for the in-memory
   path (code swap; the bugs it cannot swap go by re-import), for the
   re-import fallback forced on every bug, and for the copy path (every
   ``--copy-sample``-th bug);
4. per-mutant cost, contracts included, one job: the known bugs through the
   warm engine (wall / bugs, workers already warm).

The engine against plain mutmut, both with their setup, is
``benchmarks/nightly_vs_mutmut.py``.

    python benchmarks/engine_vs_copy.py [--repeat 3] [--jobs 2]

Prints every run, then medians and the ratios the engine is held to: gate
wall time old/new >= 3.5; median overhead <= 20 ms in memory and <= 350 ms on
the fallback. Machines
here are noisy: quote the ratios, and medians of several repeats.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from harness.mutation.catalogue import load_catalogue
from harness.mutation.copy_executor import CopyExecutor
from harness.mutation.in_memory_executor import ContractsExecutor
from harness.mutation.in_memory_patch import SWAP
from harness.mutation.known_bug_run import KnownBugRun
from harness.mutation.patch import apply_patch
from harness.mutation.workspace import Project
from harness.processes import Children


def gate_wall(project: Project, executor, mutants, jobs: int) -> float:
    started = time.perf_counter()
    with KnownBugRun(project, executor, jobs=jobs) as run:
        results = run.run(mutants, run.baseline(), lambda r: None)
    wall = time.perf_counter() - started
    missed = [f"{r.mutant.id}: {r.status_line}" for r in results if r.verdict.value != "killed"]
    if missed:
        raise SystemExit("the gate is not green; benchmark a green gate:\n" + "\n".join(missed))
    return wall


def overheads(project: Project, executor, mutants) -> tuple[dict[str, float], dict[str, str], float]:
    """Per mutant: engine overhead (s) and how it was patched; and the wall per mutant, contracts included."""
    with KnownBugRun(project, executor, jobs=1) as run:
        baseline = run.baseline()
        spent, engines = {}, {}
        started = time.perf_counter()
        for mutant in mutants:
            patch = apply_patch(project.read(mutant.file), mutant.find, mutant.replace)
            outcome = executor.mutant(mutant, patch, baseline.budget(list(mutant.contracts)))
            spent[mutant.id] = max(0.0, outcome.wall - sum(e.get("duration", 0.0) for e in outcome.tests.values()))
            engines[mutant.id] = outcome.engine
        per_mutant = (time.perf_counter() - started) / len(mutants)
    return spent, engines, per_mutant


def say(line: str) -> None:
    print(f"  [{time.strftime('%H:%M:%S')}] {line}", flush=True)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--copy-sample", type=int, default=3, metavar="N",
                        help="the copy path's overhead on every N-th bug only (it costs seconds a bug)")
    args = parser.parse_args()
    # One snapshot of the package for every run: the same code on both paths, whatever changes meanwhile.
    snapshot = Path(tempfile.mkdtemp(prefix="harness-bench-"))
    bundled = Project.bundled()
    for relative in bundled.files:
        (snapshot / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(bundled.root / relative, snapshot / relative)
    project = Project(root=snapshot, files=bundled.files)
    try:
        _compare(project, args)
    finally:
        shutil.rmtree(snapshot, ignore_errors=True)


def _compare(project: Project, args: argparse.Namespace) -> None:
    mutants = list(load_catalogue(project.root / "harness" / "mutants.toml").mutants)
    rows: dict[str, list[float]] = {k: [] for k in (
        "new", "old", "swap", "fallback-auto", "reimport", "copy", "engine-per-mutant")}
    for n in range(1, args.repeat + 1):
        with Children() as children:
            rows["new"].append(gate_wall(project, ContractsExecutor(children), mutants, args.jobs))
            say(f"run {n}: gate, new path: {rows['new'][-1]:.1f}s")
            rows["old"].append(gate_wall(project, CopyExecutor(children), mutants, args.jobs))
            say(f"run {n}: gate, old path: {rows['old'][-1]:.1f}s")
            auto, engines, per_mutant = overheads(project, ContractsExecutor(children), mutants)
            say(f"run {n}: in-memory overheads measured")
            forced, _, _ = overheads(project, ContractsExecutor(children, mode="reimport"), mutants)
            say(f"run {n}: re-import overheads measured")
            copied, _, _ = overheads(project, CopyExecutor(children), mutants[:: args.copy_sample])
            say(f"run {n}: copy overheads measured")
        swapped = [auto[m] for m in auto if engines[m] == SWAP]
        others = [auto[m] for m in auto if engines[m] != SWAP]
        rows["swap"].append(statistics.median(swapped))
        if others:
            rows["fallback-auto"].append(statistics.median(others))
        rows["reimport"].append(statistics.median(forced.values()))
        rows["copy"].append(statistics.median(copied.values()))
        rows["engine-per-mutant"].append(per_mutant)
        line = (
            f"run {n}: gate {rows['new'][-1]:.1f}s new, {rows['old'][-1]:.1f}s old ({len(mutants)} bugs, "
            f"{args.jobs} jobs); overhead median {ms(rows['swap'][-1])} code swap ({len(swapped)} bugs)"
            + (f", {ms(rows['fallback-auto'][-1])} the {len(others)} it re-imported" if others else "")
            + f", {ms(rows['reimport'][-1])} re-import forced on all, {ms(rows['copy'][-1])} copy; "
            f"{per_mutant:.3f} s per bug (1 job, contracts included)"
        )
        print(line, flush=True)
    med = {k: statistics.median(v) for k, v in rows.items() if v}
    print(f"\nmedians of {args.repeat} runs, {len(mutants)} known bugs:")
    print(f"  gate wall time, {args.jobs} jobs: old {med['old']:.1f}s, new {med['new']:.1f}s, "
          f"ratio old/new {med['old'] / med['new']:.2f} (goal >= 3.5)")
    print(f"  engine overhead per mutant: code swap {ms(med['swap'])} (goal <= 20 ms); fallback (re-import on "
          f"every bug) {ms(med['reimport'])} (goal <= 350 ms); copy path {ms(med['copy'])}")

if __name__ == "__main__":
    main()
