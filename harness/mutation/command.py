"""``harness mutate`` and ``harness gate``: the known-bug run end to end, with exit codes."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path

import harness
from harness import exit_codes
from harness.mutation.catalogue import CatalogueError, load_catalogue
from harness.mutation.executor import Children, CommandExecutor, ContractsExecutor
from harness.mutation.outcome import MutantResult, Verdict
from harness.mutation.progress import MutantProgress
from harness.mutation.reports import write_reports
from harness.mutation.runner import BaselineRed, KnownBugRun, shard
from harness.mutation.workspace import Project

BUNDLED_CATALOGUE = Path(harness.__file__).resolve().parent / "mutants.toml"

INTERRUPTED = "interrupted: every mutant copy was removed; the working tree was never touched"


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def exit_code(results: list[MutantResult]) -> int:
    verdicts = {r.verdict for r in results}
    if verdicts & {Verdict.STALE, Verdict.INVALID}:
        return exit_codes.STALE_INVALID
    if verdicts & {Verdict.SURVIVED, Verdict.UNREACHED}:
        return exit_codes.SURVIVED
    if Verdict.TIMEOUT in verdicts:
        return exit_codes.TIMEOUT
    return exit_codes.OK


def run_known_bugs(
    catalogue_path: Path | None,
    only: list[str] | None,
    report_dir: Path | None,
    shard_spec: str | None,
    jobs: int | None,
    timeout: float | None,
) -> int:
    path = catalogue_path or BUNDLED_CATALOGUE
    try:
        catalogue = load_catalogue(path)
        mutants = shard(catalogue.select(only), shard_spec)
    except CatalogueError as exc:
        print(f"catalogue error: {exc}")
        return exit_codes.USAGE
    if not mutants:
        where = f"shard {shard_spec} of {path}" if shard_spec else str(path)
        print(f"nothing was tested: {where} selects no known bug")
        return exit_codes.NOTHING_TESTED
    jobs = jobs or os.cpu_count() or 1
    children = Children()
    if catalogue.runner is None:
        project, executor = Project.bundled(), ContractsExecutor(children)
    else:
        try:
            project = Project.git_tracked(catalogue.runner.root)
        except (OSError, subprocess.CalledProcessError) as exc:
            print(f"catalogue error: {path}: [runner] root {catalogue.runner.root} must be inside a git work tree: {exc}")
            return exit_codes.USAGE
        executor = CommandExecutor(children, catalogue.runner)
    with KnownBugRun(project, executor, jobs=jobs, timeout=timeout) as run:
        started = time.perf_counter()
        signal.signal(signal.SIGTERM, _interrupt)
        try:
            baseline = run.baseline()
        except BaselineRed as exc:
            print(str(exc))
            return exit_codes.BASELINE
        except KeyboardInterrupt:
            print(INTERRUPTED)
            return exit_codes.INTERRUPTED
        print(
            f"baseline: {len(baseline.outcome.tests)} contracts green in {baseline.outcome.wall:.1f}s; "
            f"{len(mutants)} known bugs from {path.name}, {jobs} jobs" + (f", shard {shard_spec}" if shard_spec else "")
        )
        try:
            with MutantProgress(len(mutants)) as progress:
                results = run.run(mutants, baseline, progress.advance)
        except CatalogueError as exc:
            print(f"catalogue error: {exc}")
            return exit_codes.USAGE
        except KeyboardInterrupt:
            print(INTERRUPTED)
            return exit_codes.INTERRUPTED
    elapsed = time.perf_counter() - started
    _print_summary(results, elapsed)
    if report_dir is not None:
        written = write_reports(results, report_dir)
        print("reports: " + ", ".join(str(p) for p in written.values()))
    return exit_code(results)


def _print_summary(results: list[MutantResult], elapsed: float) -> None:
    for r in results:
        if r.verdict is not Verdict.KILLED:
            print(f"{r.verdict.value.upper()}: {r.mutant.id} ({r.mutant.file}): {r.reason}")
            for line in r.message.splitlines()[:12]:
                print(f"    {line}")
    counts = Counter(r.verdict for r in results)
    detail = ", ".join(f"{counts[v]} {v.value}" for v in Verdict if counts[v])
    print(f"{counts[Verdict.KILLED]}/{len(results)} known bugs killed ({detail or 'none run'}) in {elapsed:.1f}s")
