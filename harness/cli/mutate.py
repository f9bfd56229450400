"""``harness mutate`` and ``harness gate``: the known-bug run end to end, with exit codes."""

from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import harness
from harness import exit_codes
from harness.mutation.catalogue import Catalogue, CatalogueError, load_catalogue
from harness.mutation.copy_executor import CommandExecutor
from harness.mutation.diff_lines import DiffError, git_diff, read_diff
from harness.mutation.diff_scope import Scope, contracts_line, scope_lines, select_contracts, select_mutants
from harness.mutation.in_memory_executor import ContractsExecutor, EngineNotReady
from harness.mutation.known_bug_run import BASELINE_TIMEOUT, BaselineRed, BaselineTimedOut, KnownBugRun
from harness.mutation.progress import MutantProgress
from harness.mutation.shard import Shard
from harness.mutation.workspace import Project
from harness.outcomes.mutants import Mutant, MutantResult, Verdict
from harness.processes import Children
from harness.report.files import REPORT_FILES
from harness.report.model import is_known_bug
from harness.report.model import mutants as report_mutants
from harness.report.publish import publish
from harness.report.stryker_json import ReportError, build_report, load_report

BUNDLED_CATALOGUE = Path(harness.__file__).resolve().parent / "mutants.toml"
PYPROJECT = Path("pyproject.toml")  # report thresholds: [tool.harness.nightly] where the command runs

INTERRUPTED = "interrupted: every process the run started was stopped and every copy removed; the working tree was never touched"


@dataclass
class Options:
    catalogue: Path | None = None
    only: list[str] | None = None
    report_dir: Path | None = None
    shard: Shard | None = None
    jobs: int | None = None
    timeout: float | None = None
    baseline_timeout: float | None = None
    adapter: str | None = None  # a team's Python adapter, module:attribute, inside the catalogue's project
    in_diff: str | None = None  # a unified diff file ("-": standard input): only the bugs and contracts it touches
    base: str | None = None  # a git ref: the same, for the working tree's diff against it


# Each verdict's exit code; which one a run ends with is the precedence of exit_codes.first.
VERDICT_CODES: dict[Verdict, int] = {
    Verdict.KILLED: exit_codes.OK,
    Verdict.STALE: exit_codes.STALE_INVALID,
    Verdict.INVALID: exit_codes.STALE_INVALID,
    Verdict.SURVIVED: exit_codes.SURVIVED,
    Verdict.UNREACHED: exit_codes.SURVIVED,
    Verdict.TIMEOUT: exit_codes.TIMEOUT,
}


def exit_code(results: list[MutantResult]) -> int:
    return exit_codes.first(VERDICT_CODES[r.verdict] for r in results)


def run_known_bugs(
    catalogue_path: Path | None,
    only: list[str] | None = None,
    report_dir: Path | None = None,
    shard: Shard | None = None,
    jobs: int | None = None,
    timeout: float | None = None,
    *,
    adapter: str | None = None,
    baseline_timeout: float | None = None,
    in_diff: str | None = None,
    base: str | None = None,
) -> int:
    options = Options(catalogue_path, only, report_dir, shard, jobs, timeout, baseline_timeout, adapter, in_diff, base)
    return _run(options)


def add_diff_options(cmd) -> None:
    """``--in-diff`` and ``--base`` on an argparse (sub)parser."""
    scope = cmd.add_mutually_exclusive_group()
    scope.add_argument("--in-diff", metavar="DIFF",
                       help="only known bugs on the lines this unified diff changes ('-': stdin), and the contracts "
                            "that ran those lines")
    scope.add_argument("--base", metavar="REF",
                       help="the same for the working tree's git diff against REF (the tree is only read)")


def _usage(message: str) -> int:
    print(message)
    return exit_codes.USAGE


def _run(o: Options) -> int:
    from harness.outcomes.score import ThresholdError, load_thresholds

    path = o.catalogue or BUNDLED_CATALOGUE
    try:
        catalogue = load_catalogue(path)
        mutants = catalogue.select(o.only)
        mutants = o.shard.select(mutants) if o.shard else mutants
        thresholds = load_thresholds(PYPROJECT)
    except CatalogueError as exc:
        return _usage(f"catalogue error: {exc}")
    except ThresholdError as exc:
        return _usage(f"configuration error: {exc}")
    if o.adapter is not None:
        module, sep, attr = o.adapter.partition(":")
        if not (module and sep and attr):
            return _usage(f"--adapter {o.adapter!r} must look like 'package.module:attribute'")
        if catalogue.runner is not None:
            return _usage(f"catalogue error: {path}: a [runner] table runs its own command; it takes no --adapter")
    elif catalogue.root is not None and catalogue.runner is None:
        return _usage(f"catalogue error: {path}: 'root' names a project to patch; give its adapter with --adapter")
    if not mutants:
        where = f"shard {o.shard} of {path}" if o.shard else str(path)
        print(f"nothing was tested: {where} selects no known bug")
        return exit_codes.NOTHING_TESTED
    jobs = o.jobs or os.cpu_count() or 1
    started = time.perf_counter()
    outcome: int | None = None
    results: list[MutantResult] = []
    with Children() as children:
        try:
            setup = _setup(catalogue, path, o, children)
        except _Usage as exc:
            return _usage(str(exc))
        project, executor, baseline_contracts = setup
        scope = None
        if o.in_diff is not None or o.base is not None:
            try:
                scope = _diff_scope(o, project, mutants)
            except DiffError as exc:
                return _usage(f"diff error: {exc}")
            for line in scope_lines(scope.as_json()):
                print(line)
            mutants = scope.mutants
            if not mutants:
                print("nothing was tested: the diff selects no known bug")
                run = {"shard": str(o.shard) if o.shard else None, "seconds": round(time.perf_counter() - started, 3),
                       "scope": scope.as_json()}
                publish(build_report([], thresholds=thresholds, run=run), thresholds, o.report_dir, root=project.root)
                return exit_codes.NOTHING_TESTED
        if len(mutants) < len(catalogue.mutants) and scope is None:
            # A selection (--only, a shard) needs only what its mutants name: baseline and collect just those.
            baseline_contracts = _named(mutants)
        root = project.root
        try:
            with KnownBugRun(
                project,
                executor,
                jobs=jobs,
                timeout=o.timeout,
                baseline_timeout=o.baseline_timeout or BASELINE_TIMEOUT,
                baseline_contracts=baseline_contracts,
            ) as run:
                outcome, results = _known_bugs(run, mutants, path, jobs, o, scope)
        except KeyboardInterrupt:
            outcome = exit_codes.INTERRUPTED
    if outcome == exit_codes.INTERRUPTED:
        print(INTERRUPTED)
        return outcome
    if outcome is not None:
        return outcome
    run = {"shard": str(o.shard) if o.shard else None, "seconds": round(time.perf_counter() - started, 3)}
    if scope is not None:
        run["scope"] = scope.as_json()
    publish(build_report(results, thresholds=thresholds, run=run), thresholds, o.report_dir, root=root)
    return exit_code(results)


class _Usage(Exception):
    pass


def _setup(catalogue: Catalogue, path: Path, o: Options, children: Children):
    """The project to patch, the executor that runs its contracts, and the contracts its baseline needs."""
    if catalogue.runner is not None:
        root = catalogue.runner.root
        try:
            project = Project.git_tracked(root)
        except (OSError, subprocess.CalledProcessError) as exc:
            raise _Usage(f"catalogue error: {path}: [runner] root {root} must be inside a git work tree: {exc}") from None
        return project, CommandExecutor(children, catalogue.runner), None
    if o.adapter is None:
        return Project.bundled(), ContractsExecutor(children), None
    if catalogue.root is None and o.adapter.startswith(f"{harness.__name__}."):
        # A bundled reference of another format (harness.reference:anthropic_adapter): its known bugs
        # patch the installed package, like the default catalogue's.
        return Project.bundled(), ContractsExecutor(children, adapter=o.adapter, bundled=True), _named(catalogue.mutants)
    root = catalogue.root or path.resolve().parent
    try:
        project = Project.git_tracked(root)
    except (OSError, subprocess.CalledProcessError) as exc:
        raise _Usage(
            f"catalogue error: {path}: the project {root} must be inside a git work tree (what git tracks is "
            f"copied): {exc}"
        ) from None
    if not project.files:
        raise _Usage(f"catalogue error: {path}: git tracks no file under {root}")
    return project, ContractsExecutor(children, adapter=o.adapter), _named(catalogue.mutants)


def _named(mutants: list[Mutant]) -> list[str]:
    """Every contract the mutants name, once each."""
    return sorted({c for m in mutants for c in m.contracts})


def _diff_scope(o: Options, project: Project, mutants: list[Mutant]) -> Scope:
    """The known bugs the diff puts in scope, with the survivors of the report directory's earlier run."""
    changes = read_diff(o.in_diff) if o.in_diff is not None else git_diff(project.root, o.base or "")
    earlier = o.report_dir / REPORT_FILES["json"] if o.report_dir else None
    survivors = {}
    if earlier is not None and earlier.is_file():
        try:
            survivors = {m["id"]: m.get("coveredBy", []) for _, m in report_mutants(load_report(earlier))
                         if is_known_bug(m) and m["status"] == "Survived"}
        except ReportError as exc:
            raise DiffError(f"the earlier report: {exc}") from None
    return select_mutants(changes, mutants, project.read, survivors)


def _known_bugs(run: KnownBugRun, mutants, path: Path, jobs: int, o: Options,
                scope: Scope | None = None) -> tuple[int | None, list[MutantResult]]:
    try:
        run.prepare()
        run.check_contracts(mutants)  # before the baseline, so a misspelt name is told with its mutant's id
        collected = run.executor.collected() if scope is not None else None
        if scope is not None:
            # Every contract was collected (the count the scope is told against); the baseline runs, and measures
            # the lines of, only those the bugs in scope name (the in-memory engine measures; a runner cannot).
            run.baseline_contracts = _named(mutants)
        reach = scope is not None and isinstance(run.executor, ContractsExecutor)
        baseline = run.baseline(reach=reach)
    except BaselineRed as exc:
        print(str(exc))
        return exit_codes.BASELINE, []
    except BaselineTimedOut as exc:
        print(str(exc))
        return exit_codes.TIMEOUT, []
    except EngineNotReady as exc:
        if exc.kind == "usage":
            return _usage(f"usage error: {exc}"), []
        print(f"baseline is red:\n  {exc}")
        return exit_codes.BASELINE, []
    except CatalogueError as exc:
        return _usage(f"catalogue error: {exc}"), []
    tests = baseline.outcome.tests
    if scope is not None:
        if reach:
            mutants = select_contracts(scope, baseline.outcome.lines, list(tests), run.project.read,
                                       total=len(collected) if collected else None)
        else:
            scope.measured = False
        print(contracts_line(scope.as_json()["contracts"]))
    applied = sum(e["outcome"] != "not applicable" for e in tests.values())
    print(
        f"baseline: {applied} contracts green in {baseline.outcome.wall:.1f}s"
        + (f" ({len(tests) - applied} not applicable)" if applied < len(tests) else "")
        + f"; {len(mutants)} known bugs from {path.name}, {jobs} jobs"
        + (f", shard {o.shard}" if o.shard else "")
    )
    try:
        with MutantProgress(len(mutants)) as progress:
            return None, run.run(mutants, baseline, progress.advance)
    except CatalogueError as exc:
        return _usage(f"catalogue error: {exc}"), []
