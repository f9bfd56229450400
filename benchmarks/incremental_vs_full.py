"""An incremental gate after a one-line change to the reference, against a full gate, side by side.

Every repeat runs, one after the other on the same machine, ``harness gate --format F`` (default: chat, the
largest catalogue) as a user runs it:

1. the first incremental run, the store empty (it measures every contract's reach): wall and CPU;
2. the one-line change to the reference (``--edit``; the default rewrites a line of a function body of the
   chat reference's trimming, behaviour unchanged), kept until the repeat ends, then put back;
3. the full gate on the changed tree (``--no-incremental``): wall and CPU;
4. the incremental gate on the changed tree, with the store of 1: wall and CPU, and how much it reused.

The verdicts of 3 and 4 must be the same, bug by bug (the run stops otherwise). Prints every run, then the
medians and the ratio incremental/full (the issue holds it to <= 0.2x).

    python benchmarks/incremental_vs_full.py [--format chat] [--repeat 3] [--jobs 1]

The edit is made in the tree the installed harness runs from (an editable install): the file is restored
however the run ends. Machines here are noisy and shared: quote the load beside the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import harness
from harness.report.model import runs

PACKAGE = Path(harness.__file__).resolve().parent
EDIT = ("reference/trimming.py",
        "    return sum(len(json.dumps(message, ensure_ascii=False)) for message in messages)\n",
        "    return sum(len(json.dumps(m, ensure_ascii=False)) for m in messages)\n")


def gate(fmt: str, jobs: int, report: Path, store: Path | None) -> tuple[float, float, dict]:
    """One ``harness gate``: wall seconds, CPU seconds of the processes it started, and its JSON report."""
    args = [sys.executable, "-m", "harness", "gate", "--format", fmt, "--jobs", str(jobs), "--report-dir", str(report)]
    args += ["--verdict-store", str(store)] if store else ["--no-incremental"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args[2:])} exited {proc.returncode}; benchmark a green gate:\n{proc.stdout[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, json.loads((report / "mutation-report.json").read_text())


def verdicts(report: dict) -> dict[str, str]:
    return {m["id"]: m["status"] for f in report["files"].values() for m in f["mutants"]}


def reused(report: dict) -> str:
    r = next((run["reused"] for run in runs(report) if run.get("reused")), None)
    return "" if not r else f"reused {r['known_bugs']}/{r['of_known_bugs']} bugs, {r['contracts']}/{r['of_contracts']} contracts"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", default="chat")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--edit", nargs=3, metavar=("FILE", "OLD", "NEW"), default=EDIT,
                        help="the one-line change: a file of the package, a line of it, its replacement")
    o = parser.parse_args()
    target = PACKAGE / o.edit[0]
    original = target.read_text()
    if original.count(o.edit[1]) != 1:
        raise SystemExit(f"{target}: the line to change must occur once: {o.edit[1]!r}")
    print(f"harness gate --format {o.format} --jobs {o.jobs}; {os.cpu_count()} cores; load {os.getloadavg()}; "
          f"change: {o.edit[0]}: {o.edit[1].strip()!r} -> {o.edit[2].strip()!r}")
    runs: dict[str, list[tuple[float, float]]] = {"first incremental": [], "full": [], "incremental": []}
    scratch = Path(tempfile.mkdtemp(prefix="harness-incremental-bench-"))
    try:
        for n in range(o.repeat):
            store = scratch / f"store-{n}.json"
            wall, cpu, first = gate(o.format, o.jobs, scratch / f"first-{n}", store)
            runs["first incremental"].append((wall, cpu))
            print(f"  repeat {n + 1}: first incremental {wall:7.1f}s wall {cpu:7.1f}s CPU ({reused(first)})")
            target.write_text(original.replace(o.edit[1], o.edit[2]))
            try:
                wall, cpu, full = gate(o.format, o.jobs, scratch / f"full-{n}", None)
                runs["full"].append((wall, cpu))
                print(f"  repeat {n + 1}: full              {wall:7.1f}s wall {cpu:7.1f}s CPU")
                wall, cpu, incremental = gate(o.format, o.jobs, scratch / f"incremental-{n}", store)
                runs["incremental"].append((wall, cpu))
                print(f"  repeat {n + 1}: incremental       {wall:7.1f}s wall {cpu:7.1f}s CPU ({reused(incremental)})")
            finally:
                target.write_text(original)
            differ = {i: (v, verdicts(incremental).get(i)) for i, v in verdicts(full).items()
                      if verdicts(incremental).get(i) != v}
            if differ or len(verdicts(full)) != len(verdicts(incremental)):
                raise SystemExit(f"the incremental verdicts differ from the full run's: {differ}")
            print(f"  repeat {n + 1}: the same verdict for each of the {len(verdicts(full))} known bugs")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    median = {name: (statistics.median(w for w, _ in r), statistics.median(c for _, c in r)) for name, r in runs.items()}
    for name, (wall, cpu) in median.items():
        print(f"median {name:<17} {wall:7.1f}s wall {cpu:7.1f}s CPU")
    print(f"incremental / full: {median['incremental'][0] / median['full'][0]:.3f}x wall, "
          f"{median['incremental'][1] / median['full'][1]:.3f}x CPU (acceptance: <= 0.2x); load {os.getloadavg()}")


if __name__ == "__main__":
    main()
