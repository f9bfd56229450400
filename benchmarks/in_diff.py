"""The full gate against the diff-scoped one (``harness gate --in-diff``) for a change to one reference function.

Both are the real command, end to end (workers, baseline, known bugs,
reports), run in turns so that a slow spell of the machine falls on both.
The diff is made from the function as it is, every line of it changed, so
the scoped run selects the known bugs whose patch lies in that function.

    python benchmarks/in_diff.py [--repeat 3] [--jobs N] [--function harness/reference/distill.py:distill]

Prints each run, then the medians side by side and their ratio.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness.mutation.workspace import Project


def one_function_diff(root: Path, spec: str) -> str:
    """A unified diff whose changed file is ``FILE`` as it is, every line of the function ``NAME`` changed."""
    file, _, name = spec.partition(":")
    text = (root / file).read_text(encoding="utf-8")
    node = next(n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.FunctionDef) and n.name == name)
    after = text.splitlines(True)
    before = list(after)
    before[node.lineno - 1:node.end_lineno] = ["    pass  # what stood here before\n"]
    return "".join(difflib.unified_diff(before, after, f"a/{file}", f"b/{file}"))


def gate(args: list[str], cwd: Path) -> tuple[float, int, dict]:
    """Seconds, exit code and the JSON report of one ``harness gate`` run."""
    started = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "harness", "gate", "--report-dir", "out", *args], cwd=cwd,
                         capture_output=True, text=True)
    seconds = time.perf_counter() - started
    report = json.loads((cwd / "out" / "mutation-report.json").read_text(encoding="utf-8"))
    return seconds, run.returncode, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--function", default="harness/reference/distill.py:distill", metavar="FILE:NAME")
    args = parser.parse_args()
    jobs = ["--jobs", str(args.jobs)]
    with tempfile.TemporaryDirectory(prefix="bench-in-diff-") as tmp:
        work = Path(tmp)
        (work / "change.diff").write_text(one_function_diff(Project.bundled().root, args.function), encoding="utf-8")
        full, scoped = [], []
        for n in range(args.repeat):
            seconds, code, report = gate(jobs, work)
            full.append(seconds)
            bugs = sum(len(f["mutants"]) for f in report["files"].values())
            print(f"run {n + 1}: full gate {seconds:.1f}s (exit {code}, {bugs} known bugs)", flush=True)
            seconds, code, report = gate([*jobs, "--in-diff", "change.diff"], work)
            scoped.append(seconds)
            scope = report["config"]["harness"]["runs"][0]["scope"]
            bugs, contracts = scope["known_bugs"], scope.get("contracts", {})
            print(f"run {n + 1}: --in-diff   {seconds:.1f}s (exit {code}, {bugs['selected']} of {bugs['of']} known "
                  f"bugs, {contracts.get('selected')} of {contracts.get('of')} contracts)", flush=True)
    full_median, scoped_median = statistics.median(full), statistics.median(scoped)
    print(f"\n{'':14}{'full gate':>12}{'--in-diff':>12}{'ratio':>8}")
    print(f"{'median (s)':14}{full_median:12.1f}{scoped_median:12.1f}{scoped_median / full_median:8.2f}"
          f"   ({args.repeat} runs each, {args.jobs} jobs, diff of {args.function})")


if __name__ == "__main__":
    main()
