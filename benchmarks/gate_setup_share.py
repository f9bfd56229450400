"""The gate's setup as a share of its wall time, per format's row and for the whole gate.

Every repeat runs each row of the gate as ``harness gate`` does (its
reference, its catalogues, shared bugs narrowed to its contracts) and splits
its wall time three ways:

- start: copying the project and starting the warm workers, each importing
  pytest, the plugins and the code under test and collecting the contracts;
- baseline: every contract of the row on the unpatched reference;
- known bugs: every known bug of the row, each in a fork of a warm worker.

Setup is start + baseline; its share of the wall is held to at most 25 % on
a quiet machine (issue 36). The load average is printed with each run: on a
busy machine quote the CPU seconds beside the wall (this process and every
process under it, the live warm workers read from ``/proc``: Linux only), and
the medians of several repeats.

    python benchmarks/gate_setup_share.py [--repeat 3] [--jobs N] [--format F ...]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from harness.formats import SPECS
from harness.mutation import gate_plan
from harness.mutation.known_bug_run import KnownBugRun
from harness.processes import Children

PHASES = ("start", "baseline", "known bugs")
GOAL = 0.25


@dataclass
class Split:
    wall: dict[str, float]  # seconds per phase
    cpu: dict[str, float]  # CPU seconds per phase, this process and every process under it

    @property
    def setup_share(self) -> float:
        return (self.wall["start"] + self.wall["baseline"]) / sum(self.wall.values())


def _cpu() -> float:
    """CPU seconds of this process, the children it waited for, and every live process under it (with theirs)."""
    own, waited = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    total = own.ru_utime + own.ru_stime + waited.ru_utime + waited.ru_stime
    parents, ticks = {}, {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except (OSError, ValueError):  # not a process, or one that just ended
            continue
        parents[int(entry.name)] = int(fields[1])
        ticks[int(entry.name)] = sum(int(f) for f in fields[11:15])  # utime, stime, and its waited children's
    under, frontier = set(), {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - under
        under |= frontier
    return total + sum(ticks[pid] for pid in under) / os.sysconf("SC_CLK_TCK")


def run_row(spec, part: gate_plan.FormatPart, jobs: int) -> Split:
    """One row of the gate, timed phase by phase; the gate must be green (every known bug killed)."""
    marks = [(time.perf_counter(), _cpu())]
    with Children() as children:
        project, executor = gate_plan.setup(spec, part, children)
        with KnownBugRun(project, executor, jobs=jobs) as run:
            run.prepare()
            marks.append((time.perf_counter(), _cpu()))
            baseline = run.baseline()
            marks.append((time.perf_counter(), _cpu()))
            tests = baseline.outcome.tests
            narrowed = [gate_plan.of_format(m, tests) if m.id in part.shared else m for m in part.mutants]
            results = run.run([m for m in narrowed if m is not None], baseline, lambda r: None)
    marks.append((time.perf_counter(), _cpu()))  # the workers are stopped: their CPU is counted
    missed = [f"{r.mutant.id}: {r.status_line}" for r in results if r.verdict.value != "killed"]
    if missed:
        raise SystemExit(f"the {part.format} gate is not green; benchmark a green gate:\n" + "\n".join(missed))
    return Split(wall={p: marks[k + 1][0] - marks[k][0] for k, p in enumerate(PHASES)},
                 cpu={p: marks[k + 1][1] - marks[k][1] for k, p in enumerate(PHASES)})


def _line(name: str, split: Split) -> str:
    phases = "  ".join(f"{p} {split.wall[p]:6.1f}s ({split.cpu[p]:6.1f} CPU s)" for p in PHASES)
    return f"  {name:<18} {phases}  setup share {split.setup_share:5.1%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--format", action="append", choices=sorted(SPECS), help="only these rows (default: all)")
    args = parser.parse_args()
    rows = [SPECS[name] for name in args.format] if args.format else list(SPECS.values())
    parts = gate_plan.plan(rows, SPECS.values())
    print(f"{args.jobs} jobs, {os.cpu_count()} cores; rows: {', '.join(p.format for p in parts)}", flush=True)
    wholes: list[Split] = []
    by_row: dict[str, list[Split]] = {p.format: [] for p in parts}
    for n in range(args.repeat):
        load = os.getloadavg()[0]
        splits = {p.format: run_row(SPECS[p.format], p, args.jobs) for p in parts}
        whole = Split(wall={p: sum(s.wall[p] for s in splits.values()) for p in PHASES},
                      cpu={p: sum(s.cpu[p] for s in splits.values()) for p in PHASES})
        print(f"run {n + 1} (load {load:.1f} at its start, {os.getloadavg()[0]:.1f} at its end):", flush=True)
        for name, split in splits.items():
            by_row[name].append(split)
            print(_line(name, split), flush=True)
        print(_line("whole gate", whole), flush=True)
        wholes.append(whole)
    print(f"median of {args.repeat}:")
    for name, splits in by_row.items():
        print(f"  {name:<18} setup share {statistics.median(s.setup_share for s in splits):5.1%}")
    share = statistics.median(s.setup_share for s in wholes)
    cpu_share = statistics.median((s.cpu["start"] + s.cpu["baseline"]) / sum(s.cpu.values()) for s in wholes)
    print(f"  whole gate: setup share of the wall {share:.1%} (of the CPU {cpu_share:.1%})  goal <= {GOAL:.0%}")


if __name__ == "__main__":
    main()
