"""``harness nightly`` and ``harness report merge``: the deep run, its reports, its exit status.

Exit codes (when several apply, the first listed wins):

- 2  usage: bad arguments, a malformed catalogue or thresholds, an exemption pragma without its kind, mutants and reason
  or naming a mutant mutmut does not make on its line,
  an unreadable report
- 6  baseline red: the reference fails its contracts (nightly profile, or the known-bug baseline)
- 7  mutmut could not run, or tested the unmutated code (the shadow guard)
- 5, 3, 4  a known bug stale or invalid, survived or unreached, timed out (as ``harness gate``)
- 8  the mutation score is below the break threshold
- 0  otherwise
- 130 interrupted
"""

from __future__ import annotations

import os
import random
import signal
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from harness import exit_codes
from harness.cli.mutate import (
    BUNDLED_CATALOGUE,
    INTERRUPTED,
    exit_code,
)
from harness.mutation.catalogue import Catalogue, CatalogueError, load_catalogue
from harness.mutation.in_memory_executor import ContractsExecutor
from harness.mutation.known_bug_run import BaselineRed, BaselineTimedOut, KnownBugRun
from harness.mutation.progress import MutantProgress
from harness.mutation.shard import Shard
from harness.mutation.workspace import Project
from harness.nightly.equivalents import ExemptionError, load_exemptions
from harness.nightly.mutmut_run import MutmutFailed, MutmutRun, check_exemptions, run_mutmut
from harness.nightly.shadow_guard import ShadowedRun
from harness.outcomes.mutants import MutantResult
from harness.outcomes.score import ThresholdError, Thresholds, load_thresholds
from harness.processes import Children
from harness.report.merge import merge_reports
from harness.report.publish import publish
from harness.report.stryker_json import ReportError, build_report, load_report

PYPROJECT = Path("pyproject.toml")  # thresholds come from the directory the command runs in


class _Interrupts:
    """SIGINT and SIGTERM: remembered, then raised as KeyboardInterrupt.

    Remembered because pytest, run in this process for the contracts, catches
    the KeyboardInterrupt and returns as if the run had just ended.
    """

    def __init__(self) -> None:
        self.seen = False
        signal.signal(signal.SIGINT, self)
        signal.signal(signal.SIGTERM, self)

    def __call__(self, signum, frame) -> None:
        self.seen = True
        raise KeyboardInterrupt

    def check(self) -> None:
        if self.seen:
            raise KeyboardInterrupt


def _contracts(seed: int) -> tuple[bool, str]:
    """The contracts under the ``nightly`` profile with ``seed``: (green, one-line tally)."""
    from harness.cli.check import CheckOptions, run_check

    with tempfile.TemporaryDirectory(prefix="harness-nightly-") as tmp:
        junit = Path(tmp) / "contracts.xml"
        code = run_check(CheckOptions(profile="nightly", junitxml=str(junit), seed=seed))
        if not junit.exists():
            return False, f"the contracts did not run (exit {code})"
        suite = ET.parse(junit).getroot().find("testsuite")
    counts = {k: int(suite.get(k, 0)) for k in ("tests", "failures", "errors")}
    tally = f"{counts['tests']} run, {counts['failures']} failed, {counts['errors']} errors"
    return code == 0, tally


def _known_bugs(catalogue: Catalogue, children: Children, jobs: int, shard: Shard | None) -> list[MutantResult]:
    mutants = shard.select(catalogue.select(None)) if shard else catalogue.select(None)
    # The workers stay warm for this phase only: the block ends them before mutmut starts.
    with KnownBugRun(Project.bundled(), ContractsExecutor(children), jobs=jobs) as run:
        baseline = run.baseline()
        print(f"known bugs: baseline green ({len(baseline.outcome.tests)} contracts); {len(mutants)} known bugs")
        with MutantProgress(len(mutants)) as progress:
            return run.run(mutants, baseline, progress.advance)


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
    interrupts = _Interrupts()
    print(f"nightly: hypothesis seed {seed} (replay with: harness nightly --hypothesis-seed {seed})")
    known: list[MutantResult] = []
    mutmut: MutmutRun | None = None
    codes: list[int] = []
    tally = "not run"
    # Signals stay with _Interrupts (pytest runs in this process and would swallow them);
    # the block still stops every child process, however the run ends.
    with Children(handle_signals=False) as children:
        try:
            green, tally = _contracts(seed)
            interrupts.check()
            print(f"contracts (nightly profile, seed {seed}): {tally}")
            if not green:
                codes.append(exit_codes.BASELINE)
            known = _known_bugs(catalogue, children, jobs, shard)
            codes.append(exit_code(known))
            mutmut = run_mutmut(Project.bundled(), children, jobs, shard)
        except (BaselineRed, BaselineTimedOut) as exc:
            print(str(exc))
            codes.append(exit_codes.BASELINE if isinstance(exc, BaselineRed) else exit_codes.TIMEOUT)
        except (ShadowedRun, MutmutFailed) as exc:
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
