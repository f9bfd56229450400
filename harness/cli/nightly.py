"""``harness nightly`` and ``harness report merge``: the deep run, its reports, its exit status.

Exit codes (when several apply, the first listed wins):

- 2  usage: bad arguments, a malformed catalogue or thresholds, an exemption pragma without its kind, mutants and reason
  or naming a mutant mutmut does not make on its line,
  an unreadable report
- 6  baseline red: the reference fails its contracts (nightly profile, or the known-bug baseline)
- 7  mutmut could not make its mutants
- 5, 3, 4  a known bug stale or invalid, survived or unreached, timed out (as ``harness gate``)
- 8  the mutation score is below the break threshold
- 0  otherwise
- 130 interrupted
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

from harness import exit_codes
from harness.clip import clip
from harness.config.hypothesis_profiles import registered_name
from harness.cli.mutate import (
    BUNDLED_CATALOGUE,
    INTERRUPTED,
    exit_code,
)
from harness.mutation.catalogue import Catalogue, CatalogueError, load_catalogue
from harness.mutation.in_memory_executor import ContractsExecutor
from harness.mutation.known_bug_run import Baseline, BaselineRed, BaselineTimedOut, KnownBugRun
from harness.mutation.progress import MutantProgress
from harness.mutation.shard import Shard
from harness.mutation.workspace import Project
from harness.nightly.equivalents import ExemptionError, load_exemptions
from harness.nightly.generic_run import plan_generic, run_generic
from harness.nightly.mutmut_run import MutmutFailed, MutmutRun, check_exemptions, generate_mutants
from harness.outcomes.mutants import RED, MutantResult
from harness.outcomes.score import ThresholdError, Thresholds, load_thresholds
from harness.processes import Children
from harness.report.merge import merge_reports
from harness.report.publish import publish
from harness.report.stryker_json import ReportError, build_report, load_report

PYPROJECT = Path("pyproject.toml")  # thresholds come from the directory the command runs in


def _explore(run: KnownBugRun, seed: int) -> tuple[bool, str]:
    """Every property contract under the nightly profile and ``seed``, over every job: (green, tally)."""
    outcome = run.explore(registered_name("nightly"), seed)
    red = {t: e for t, e in outcome.tests.items() if e["outcome"] in RED}
    tally = f"{len(outcome.tests)} properties run, {len(red)} red" + (", timed out" if outcome.timed_out else "")
    for test, entry in sorted(red.items()):
        print(f"  {entry['outcome'].upper()} {test}: {clip(entry['message'], 2000)}")
    for error in outcome.collection_errors:
        print(f"  ERROR {clip(error, 2000)}")
    green = not red and not outcome.collection_errors and not outcome.timed_out and bool(outcome.tests)
    return green, tally


def _known_bugs(run: KnownBugRun, baseline: Baseline, catalogue: Catalogue, shard: Shard | None) -> list[MutantResult]:
    mutants = shard.select(catalogue.select(None)) if shard else catalogue.select(None)
    print(f"known bugs: {len(mutants)}")
    with MutantProgress(len(mutants)) as progress:
        return run.run(mutants, baseline, progress.advance)


def _generic(run: KnownBugRun, baseline: Baseline, children: Children, shard: Shard | None, seed: int) -> MutmutRun:
    started = time.perf_counter()
    generated = generate_mutants(Project.bundled(), children, shard, run.jobs)
    plan = plan_generic(generated, baseline)
    print(f"mutmut mutants: {len(generated.mutants)} of {generated.total} made in "
          f"{time.perf_counter() - started:.0f}s; {len(plan.runnable)} run ({len(plan.records)} settled unrun)")
    with MutantProgress(len(plan.runnable), label="mutmut mutants", misses_only=True) as progress:
        result = run_generic(run, baseline, plan, seed, progress.advance)
    print(f"mutmut mutants: done in {time.perf_counter() - started:.0f}s")
    return result


def run_nightly(report_dir: Path | None, shard: Shard | None, jobs: int | None, seed: int | None) -> int:
    try:
        thresholds = load_thresholds(PYPROJECT)
        catalogue = load_catalogue(BUNDLED_CATALOGUE)
        check_exemptions(load_exemptions())
    except (ThresholdError, ExemptionError, CatalogueError) as exc:
        print(f"configuration error: {exc}")
        return exit_codes.USAGE
    except MutmutFailed as exc:
        print(f"exemptions: {exc}")
        return exit_codes.MUTMUT
    jobs = jobs or os.cpu_count() or 1
    seed = random.SystemRandom().getrandbits(32) if seed is None else seed
    started = time.perf_counter()
    print(f"nightly: hypothesis seed {seed} (replay with: harness nightly --hypothesis-seed {seed})")
    known: list[MutantResult] = []
    mutmut: MutmutRun | None = None
    codes: list[int] = []
    tally = "not run"
    # One set of warm workers serves every phase: the exploration, the baseline, the known bugs, mutmut's mutants;
    # the block stops every child process, however the run ends (SIGINT and SIGTERM raise KeyboardInterrupt).
    with Children() as children:
        try:
            with KnownBugRun(Project.bundled(), ContractsExecutor(children), jobs=jobs) as run:
                phase = time.perf_counter()
                green, tally = _explore(run, seed)
                print(f"exploration (nightly profile, seed {seed}): {tally} in {time.perf_counter() - phase:.0f}s "
                      "(workers started)")
                if not green:
                    codes.append(exit_codes.BASELINE)
                phase = time.perf_counter()
                baseline = run.baseline(reach=True)
                print(f"baseline green ({len(baseline.outcome.tests)} contracts, the lines each ran measured) in "
                      f"{time.perf_counter() - phase:.0f}s")
                phase = time.perf_counter()
                known = _known_bugs(run, baseline, catalogue, shard)
                print(f"known bugs: done in {time.perf_counter() - phase:.0f}s")
                codes.append(exit_code(known))
                mutmut = _generic(run, baseline, children, shard, seed)
        except (BaselineRed, BaselineTimedOut) as exc:
            print(str(exc))
            codes.append(exit_codes.BASELINE if isinstance(exc, BaselineRed) else exit_codes.TIMEOUT)
        except MutmutFailed as exc:
            print(f"mutmut: {exc}")
            codes.append(exit_codes.MUTMUT)
        except KeyboardInterrupt:
            children.stop_all()
            print(INTERRUPTED)
            return exit_codes.INTERRUPTED
    run_info = {
        "shard": str(shard) if shard else None,
        "seed": seed,
        "contracts": tally,
        "mutmut_mutants": mutmut.total if mutmut else None,
        "seconds": round(time.perf_counter() - started),
    }
    report = build_report(known, mutmut, thresholds=thresholds, run=run_info)
    summary = publish(report, thresholds, report_dir, root=Project.bundled().root)
    if summary.below_break and mutmut is not None:
        codes.append(exit_codes.BELOW_THRESHOLD)
    return exit_codes.first(codes)


def run_merge(inputs: list[Path], output: Path) -> int:
    """Join shard reports into one report directory; exit by the threshold."""
    try:
        thresholds: Thresholds = load_thresholds(PYPROJECT)
        report = merge_reports([load_report(path) for path in inputs], [str(p) for p in inputs], thresholds)
    except (ThresholdError, ReportError) as exc:
        print(f"error: {exc}")
        return exit_codes.USAGE
    # The shards annotated their own mutants under GitHub Actions; the merge only writes and judges.
    summary = publish(report, thresholds, output, annotate=False)
    return exit_codes.BELOW_THRESHOLD if summary.below_break else exit_codes.OK
