"""``harness mutate`` and ``harness gate``: the known-bug run end to end, with exit codes."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path

import harness
from harness import exit_codes
from harness.adapter import DEFAULT_FORMAT, DEFAULT_SPEC
from harness.formats import SPECS
from harness.mutation.catalogue import Catalogue, CatalogueError, file_outside, load_catalogue
from harness.mutation.copy_executor import CommandExecutor
from harness.mutation.diff_lines import Changes, DiffError, git_diff, mismatch, read_diff
from harness.mutation.diff_scope import (
    Scope,
    contract_module,
    contracts_line,
    scope_lines,
    select_contracts,
    select_mutants,
)
from harness.mutation import gate_plan
from harness.mutation.in_memory_executor import ContractsExecutor, EngineNotReady
from harness.mutation.incremental import PartReuse, part_reuse
from harness.mutation.known_bug_run import BASELINE_TIMEOUT, BaselineRed, BaselineTimedOut, KnownBugRun
from harness.mutation.progress import MutantProgress
from harness.mutation.shard import Shard
from harness.mutation.verdict_store import DEFAULT_PATH as DEFAULT_STORE
from harness.mutation.verdict_store import VerdictStore
from harness.mutation.workspace import Project
from harness.nightly.generic_run import plan_generic, run_generic
from harness.nightly.mutmut_run import REFERENCE_FILES, Generated, MutmutFailed, MutmutRun, generate_mutants
from harness.outcomes.mutants import Mutant, MutantResult, Verdict
from harness.processes import Children
from harness.report.files import REPORT_FILES
from harness.report.model import is_known_bug
from harness.report.model import mutants as report_mutants
from harness.report.publish import publish
from harness.report.stryker_json import ReportError, build_report, load_report

BUNDLED_CATALOGUE = Path(harness.__file__).resolve().parent / "mutants.toml"
PYPROJECT = Path("pyproject.toml")  # report thresholds: [tool.harness.nightly] where the command runs

MUTMUT_SEED = 0  # a diff-scoped run retries a mutmut survivor with the same examples each time: repeatable
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
    mutmut: bool = False  # with a diff: also mutmut's mutants on the changed lines of the bundled reference
    formats: list[str] | None = None  # the gate: every format's row, or these ([]: all); None: one catalogue (mutate)
    store: Path | None = None  # the verdict store an incremental run reuses and updates; None: a full run
    profile: str = "ci"  # the gate's Hypothesis profile (harness.config.hypothesis_profiles)


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
    mutmut: bool = False,
    store: Path | None = None,
) -> int:
    """One catalogue's known bugs; ``store``: reuse and update that verdict store (None: a full run)."""
    options = Options(catalogue_path, only, report_dir, shard, jobs, timeout, baseline_timeout, adapter, in_diff, base,
                      mutmut, store=store)
    return _run(options)


def run_gate(
    formats: list[str],
    report_dir: Path | None = None,
    shard: Shard | None = None,
    jobs: int | None = None,
    timeout: float | None = None,
    *,
    baseline_timeout: float | None = None,
    in_diff: str | None = None,
    base: str | None = None,
    mutmut: bool = False,
    store: Path | None = None,
    profile: str = "ci",
) -> int:
    """Every format's row (``formats``: only these; empty: all) under its own reference, in one report;
    ``store``: reuse and update that verdict store (None: a full run); ``profile``: the contracts' Hypothesis
    profile (``pinned``: the pinned examples alone)."""
    return _run(Options(report_dir=report_dir, shard=shard, jobs=jobs, timeout=timeout,
                        baseline_timeout=baseline_timeout, in_diff=in_diff, base=base, mutmut=mutmut,
                        formats=list(formats), store=store, profile=profile))


def add_diff_options(cmd) -> None:
    """``--in-diff`` and ``--base`` on an argparse (sub)parser."""
    scope = cmd.add_mutually_exclusive_group()
    scope.add_argument("--in-diff", metavar="DIFF",
                       help="only known bugs on the lines this unified diff changes ('-': stdin), and the contracts "
                            "that ran those lines")
    scope.add_argument("--base", metavar="REF",
                       help="the same for the working tree's git diff against REF (the tree is only read)")
    cmd.add_argument("--mutmut", action="store_true",
                     help="with --in-diff or --base: also mutmut's mutants on the changed lines of the bundled "
                          "reference (the baseline then measures every contract)")


def add_incremental_options(cmd) -> None:
    """``--verdict-store`` and ``--no-incremental`` on an argparse (sub)parser."""
    cmd.add_argument("--verdict-store", type=Path, default=DEFAULT_STORE, metavar="PATH",
                     help="reuse the known-bug verdicts (gate, mutate: and the baseline's contracts) stored here "
                          f"whose key is unchanged, and store this run's (default: {DEFAULT_STORE}; cache it in CI)")
    cmd.add_argument("--no-incremental", dest="verdict_store", action="store_const", const=None,
                     help="run every known bug and the whole baseline; the store is neither read nor written")


def _usage(message: str) -> int:
    print(message)
    return exit_codes.USAGE


def _run(o: Options) -> int:
    from harness.outcomes.score import ThresholdError, load_thresholds

    try:
        thresholds = load_thresholds(PYPROJECT)
        parts = _gate_parts(o) if o.formats is not None else [_mutate_part(o)]
    except CatalogueError as exc:
        return _usage(f"catalogue error: {exc}")
    except ThresholdError as exc:
        return _usage(f"configuration error: {exc}")
    except _Usage as exc:
        return _usage(str(exc))
    if o.shard:
        # One slice of every part's bugs together, so a shard of the gate spreads over the formats.
        chosen = {id(m) for m in o.shard.select([m for part in parts for m in part.mutants])}
        for part in parts:
            part.mutants = [m for m in part.mutants if id(m) in chosen]
    if not any(part.mutants for part in parts):
        where = ", ".join(part.label for part in parts)
        print(f"nothing was tested: {f'shard {o.shard} of ' if o.shard else ''}{where} selects no known bug")
        return exit_codes.NOTHING_TESTED
    jobs = o.jobs or os.cpu_count() or 1
    started = time.perf_counter()
    outcomes: list[int] = []
    results: list[MutantResult] = []
    mutmut: MutmutRun | None = None
    with Children() as children:
        try:
            setups = [part.setup(children) for part in parts]
        except _Usage as exc:
            return _usage(str(exc))
        for part, (part_project, *_) in zip(parts, setups):
            outside = file_outside(part.mutants, part_project.root)
            if outside is not None:
                return _usage(f"catalogue error: {outside}")
        project = setups[0][0]  # a mutate run has one part; the gate's all patch the bundled package
        scope, generated = None, None
        if o.in_diff is not None or o.base is not None:
            everything = [m for part in parts for m in part.mutants]
            try:
                known, others = _earlier_survivors(o.report_dir)
                scope = select_mutants(_changes(o, project), everything, project.read, known)
                generated = _mutmut_in_scope(scope, others, children, o.jobs or os.cpu_count() or 1) if o.mutmut \
                    else None
            except DiffError as exc:
                return _usage(f"diff error: {exc}")
            except MutmutFailed as exc:
                print(f"mutmut: {exc}")
                return exit_codes.MUTMUT
            for line in scope_lines(scope.as_json()):
                print(line)
            in_scope = {id(m) for m in scope.mutants}
            for part in parts:
                part.mutants = [m for m in part.mutants if id(m) in in_scope]
            if not scope.mutants and not (generated and generated.mutants):
                print("nothing was tested: the diff selects no known bug"
                      + (" and no mutmut mutant" if o.mutmut else ""))
                run = {"shard": str(o.shard) if o.shard else None, "seconds": round(time.perf_counter() - started, 3),
                       "scope": scope.as_json()}
                publish(build_report([], thresholds=thresholds, run=run), thresholds, o.report_dir, root=project.root)
                return exit_codes.NOTHING_TESTED
        # mutmut's mutants are of the bundled reference's shared code: the default format's part runs them.
        host = next((p for p in parts if p.format in ("", DEFAULT_FORMAT)), parts[0])
        ran: set[str] = set()
        outcome: int | None = None
        store = VerdictStore.load(o.store) if o.store is not None else None
        reused: list[dict] = []
        for part, (part_project, executor, baseline_contracts) in zip(parts, setups):
            extra = generated if part is host else None
            if not part.mutants and not (extra and extra.mutants):
                continue
            if len(part.mutants) < part.size and scope is None:
                # A selection (--only, a shard) needs only what its mutants name: baseline and collect just those.
                baseline_contracts = _named(part.mutants)
            try:
                with KnownBugRun(
                    part_project,
                    executor,
                    jobs=jobs,
                    timeout=o.timeout,
                    baseline_timeout=o.baseline_timeout or BASELINE_TIMEOUT,
                    baseline_contracts=baseline_contracts,
                ) as run:
                    reuse = _reuse(store, part, run, o, narrow=not part.shared and scope is None)
                    outcome, found, generic = _known_bugs(run, part, jobs, o, scope, extra, reuse)
                    if reuse is not None and outcome is None:
                        reuse.keep()
                        reused.append(reuse.counts.as_json())
            except KeyboardInterrupt:
                outcome = exit_codes.INTERRUPTED
            if outcome in (exit_codes.USAGE, exit_codes.INTERRUPTED):
                break
            if outcome is not None:
                outcomes.append(outcome)
            for result in found:
                result.format = part.format
                ran.add(part.shared.get(result.mutant.id, result.mutant.id))
            results += found
            mutmut = generic or mutmut
    if outcome == exit_codes.INTERRUPTED:  # told once every process it started is stopped and every copy gone
        print(INTERRUPTED)
        return outcome
    if outcome == exit_codes.USAGE:
        return outcome
    if not results and mutmut is None:
        return exit_codes.first(outcomes)
    if o.formats == [] and o.shard is None and scope is None and not outcomes:
        # The whole gate: a bug of a shared catalogue that no format ran names no contract of any of them.
        unrun = sorted({base for part in parts for base in part.shared.values()} - ran)
        if unrun:
            return _usage(f"catalogue error: {', '.join(map(repr, unrun))} names no contract of any format whose "
                          "row names its catalogue: no format ran it")
    if reused:
        note = store.save()
        if note:
            print(note)
    run = {"shard": str(o.shard) if o.shard else None, "seconds": round(time.perf_counter() - started, 3)}
    if reused:
        run["reused"] = {"store": str(store.path), **{k: sum(r[k] for r in reused) for k in reused[0]}}
    if scope is not None:
        run["scope"] = scope.as_json()
    if mutmut is not None:
        run.update(seed=MUTMUT_SEED, mutmut_mutants=mutmut.total)
    summary = publish(build_report(results, mutmut, thresholds=thresholds, run=run), thresholds, o.report_dir,
                      root=project.root)
    below = mutmut is not None and summary.below_break
    return exit_codes.first([*outcomes, exit_code(results), *([exit_codes.BELOW_THRESHOLD] if below else [])])


@dataclass
class _Part:
    """A reference (or a team's adapter) with the known bugs it runs: a whole ``mutate`` run, or one format's
    share of the gate."""

    format: str  # the row's name; "" for a project's own run
    label: str  # where its bugs come from, as the console says it
    mutants: list[Mutant]
    size: int  # its bugs before any selection
    setup: Callable[[Children], tuple]  # the project, the executor, the contracts its baseline needs (None: all)
    shared: dict[str, str] = field(default_factory=dict)  # a shared catalogue's bugs: qualified id -> catalogue id


def _mutate_part(o: Options) -> _Part:
    """``harness mutate``: one catalogue, one adapter (the bundled reference by default)."""
    path = o.catalogue or BUNDLED_CATALOGUE
    catalogue = load_catalogue(path)
    mutants = catalogue.select(o.only)
    if o.adapter is not None:
        module, sep, attr = o.adapter.partition(":")
        if not (module and sep and attr):
            raise _Usage(f"--adapter {o.adapter!r} must look like 'package.module:attribute'")
        if catalogue.runner is not None:
            raise _Usage(f"catalogue error: {path}: a [runner] table runs its own command; it takes no --adapter")
    elif catalogue.root is not None and catalogue.runner is None:
        raise _Usage(f"catalogue error: {path}: 'root' names a project to patch; give its adapter with --adapter")
    if o.mutmut and o.in_diff is None and o.base is None:
        raise _Usage("--mutmut scopes mutmut's mutants to a change: give --in-diff or --base")
    if o.mutmut and (o.adapter is not None or catalogue.runner is not None):
        raise _Usage("--mutmut makes mutmut's mutants of the bundled reference only: no --adapter, no [runner]")
    # A bundled reference's bugs are judged by its format's contracts: the report names the format.
    reference = (o.adapter or DEFAULT_SPEC) if catalogue.runner is None else None
    name = next((spec.name for spec in SPECS.values() if spec.reference == reference), "")
    return _Part(name, path.name, mutants, len(catalogue.mutants),
                 lambda children: _setup(catalogue, path, o, children))


def _gate_parts(o: Options) -> list[_Part]:
    """``harness gate``: every format's row (or those ``--format`` names), each under its own reference."""
    if o.mutmut and o.in_diff is None and o.base is None:
        raise _Usage("--mutmut scopes mutmut's mutants to a change: give --in-diff or --base")
    rows = [SPECS[name] for name in dict.fromkeys(o.formats)] if o.formats else list(SPECS.values())
    return [
        _Part(part.format, f"{part.format}: {', '.join(p.name for p in part.catalogues)}", list(part.mutants),
              len(part.mutants), _row_setup(SPECS[part.format], part, o.profile), dict(part.shared))
        for part in gate_plan.plan(rows, SPECS.values())
    ]


def _row_setup(spec, part: gate_plan.FormatPart, profile: str) -> Callable[[Children], tuple]:
    """How one row's share of the gate starts (:func:`harness.mutation.gate_plan.setup`); its baseline: every
    contract of its format."""

    def start(children: Children) -> tuple:
        try:
            return (*gate_plan.setup(spec, part, children, profile), None)
        except CatalogueError as exc:
            raise _Usage(f"catalogue error: {exc}") from None

    return start


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
    try:
        project = gate_plan.tracked_project(catalogue.root or path.resolve().parent, path)
    except CatalogueError as exc:
        raise _Usage(f"catalogue error: {exc}") from None
    return project, ContractsExecutor(children, adapter=o.adapter), _named(catalogue.mutants)


def _named(mutants: list[Mutant]) -> list[str]:
    """Every contract the mutants name, once each."""
    return sorted({c for m in mutants for c in m.contracts})


def _changes(o: Options, project: Project) -> Changes:
    """The change that scopes the run; refused unless it is a change of the tree the run tests."""
    changes = read_diff(o.in_diff) if o.in_diff is not None else git_diff(project.root, o.base or "")
    wrong = mismatch(changes, project.read)
    if wrong is not None:
        raise DiffError(f"{changes.source} is not a change of the tree under test, {project.root}: {wrong}; "
                        "the run tests that tree (an installed copy? install the checkout with pip install -e .)")
    return changes


def _earlier_survivors(report_dir: Path | None) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The survivors of the report directory's earlier run with the contracts that covered them: the known
    bugs by id, mutmut's mutants by name."""
    earlier = report_dir / REPORT_FILES["json"] if report_dir else None
    if earlier is None or not earlier.is_file():
        return {}, {}
    try:
        located = report_mutants(load_report(earlier))
    except ReportError as exc:
        raise DiffError(f"the earlier report: {exc}") from None
    survived = [m for _, m in located if m["status"] == "Survived"]
    return ({m["id"]: m.get("coveredBy", []) for m in survived if is_known_bug(m)},
            {m["id"]: m.get("coveredBy", []) for m in survived if not is_known_bug(m)})


def _mutmut_in_scope(scope: Scope, survivors: dict[str, list[str]], children: Children, jobs: int) -> Generated:
    """mutmut's mutants of the changed reference files on changed lines, and earlier survivors whose covering
    contracts changed; ``scope.mutmut`` says how many of how many."""
    rerun = {name for name, covered in survivors.items()
             if any(contract_module(c) in scope.changed_contracts for c in covered)}
    changes = scope.changes
    files = {path for path, f in changes.files.items() if not f.removed and path.endswith(".py")
             and any(fnmatch(path, p) for p in REFERENCE_FILES)}
    files |= {_module_file(name) for name in rerun}
    if not files:
        generated = Generated([], 0, {}, ())
    else:
        generated = generate_mutants(Project.bundled(), children, None, jobs, only=tuple(sorted(files)))
    kept = [m for m in generated.mutants if m.name in rerun or (
        m.change is not None and changes.touches(m.file, m.change.start.line, m.change.end.line))]
    scope.mutmut = {"selected": len(kept), "of": len(generated.mutants), "files": sorted(files),
                    "rerun": sorted(rerun & {m.name for m in kept})}
    return Generated(kept, len(kept), {f: generated.sources[f] for f in sorted({m.file for m in kept})},
                     generated.exemptions)


def _module_file(name: str) -> str:
    """``harness.reference.sse.x_decode__mutmut_3`` -> ``harness/reference/sse.py``."""
    return "/".join(name.split(".")[:-1]) + ".py"


def _reuse(store: VerdictStore | None, part: _Part, run: KnownBugRun, o: Options, narrow: bool) -> PartReuse | None:
    """The store's share of ``part`` (:func:`part_reuse`); a [runner] command's run is a full one, told."""
    if store is not None and not isinstance(run.executor, ContractsExecutor):
        print(f"incremental: {part.label}: a [runner] command's reach is not measured, so every known bug runs")
    name = gate_plan.store_part(part.format) if o.formats is not None \
        else f"mutate:{o.catalogue or 'bundled'}:{o.adapter or ''}"
    catalogues = [*gate_plan.catalogue_paths(SPECS.values()), *([o.catalogue] if o.catalogue else [])]
    return part_reuse(store, name, run, catalogues, narrow)


def _known_bugs(run: KnownBugRun, part: _Part, jobs: int, o: Options, scope: Scope | None = None,
                generated: Generated | None = None,
                reuse: PartReuse | None = None) -> tuple[int | None, list[MutantResult], MutmutRun | None]:
    mutants = part.mutants
    lead = f"{part.format}: " if o.formats is not None else ""
    # Said before the baseline, which takes a minute or more: a run is never silent from its start.
    print(f"{lead}starting: the contracts on the unpatched code (the baseline), then the known bugs from "
          f"{part.label.removeprefix(lead)}", flush=True)
    if reuse is not None and reuse.store.note:
        print(reuse.store.note)
        reuse.store.note = ""  # said once a run, after the run's first line
    try:
        if reuse is not None:
            reuse.check_contracts(mutants)
            collected = reuse.known()[0]
        else:
            run.prepare()
            run.check_contracts(mutants)  # before the baseline, so a misspelt name is told with its mutant's id
            collected = run.executor.collected()
        if scope is not None and not (generated and generated.mutants):
            # Every contract was collected (the count the scope is told against); the baseline runs, and measures
            # the lines of, only those the bugs in scope name (the in-memory engine measures; a runner cannot).
            # mutmut's mutants name no contract: for them it measures every one.
            run.baseline_contracts = _named(mutants)
        reach = scope is not None and isinstance(run.executor, ContractsExecutor)
        baseline = reuse.baseline(run.baseline_contracts) if reuse is not None else run.baseline(reach=reach)
    except BaselineRed as exc:
        print(str(exc))
        return exit_codes.BASELINE, [], None
    except BaselineTimedOut as exc:
        print(str(exc))
        return exit_codes.TIMEOUT, [], None
    except EngineNotReady as exc:
        if exc.kind == "usage":
            return _usage(f"usage error: {exc}"), [], None
        print(f"baseline is red:\n  {exc}")
        return exit_codes.BASELINE, [], None
    except CatalogueError as exc:
        return _usage(f"catalogue error: {exc}"), [], None
    tests = baseline.outcome.tests
    if part.shared:
        # A shared bug runs the contracts it names that held for this format; one naming none of them is another's.
        narrowed = [gate_plan.of_format(m, tests) if m.id in part.shared else m for m in mutants]
        others = [m.id for m, n in zip(mutants, narrowed) if n is None]
        mutants = [n for n in narrowed if n is not None]
        if others:
            print(f"{part.format}: not run under this format (they name none of its contracts): {', '.join(others)}")
    if scope is not None:
        if reach:
            mutants = select_contracts(scope, baseline.outcome.lines, list(tests), run.project.read,
                                       total=len(collected) if collected else None, mutants=mutants)
        else:
            scope.measured = False
        print(contracts_line(scope.as_json()["contracts"]))
    applied = sum(e["outcome"] != "not applicable" for e in tests.values())
    print(
        f"{lead}baseline: {applied} contracts green in {baseline.outcome.wall:.1f}s"
        + (f" ({len(tests) - applied} not applicable)" if applied < len(tests) else "")
        + (f", {reuse.counts.contracts} of {len(tests)} reused from the verdict store" if reuse is not None else "")
        + f"; {len(mutants)} known bugs from {part.label.removeprefix(lead)}, {jobs} jobs"
        + (f", shard {o.shard}" if o.shard else "")
    )
    try:
        def run_all(todo: list[Mutant]) -> list[MutantResult]:
            if reuse is not None:
                print(f"{lead}{reuse.counts.bugs} of {len(mutants)} known-bug verdicts reused from the verdict "
                      f"store; {len(todo)} run")
            if not todo:
                return []
            with MutantProgress(len(todo)) as progress:
                return run.run(todo, baseline, progress.advance)

        results = reuse.run_mutants(mutants, baseline, run_all) if reuse is not None else run_all(mutants)
    except CatalogueError as exc:
        return _usage(f"catalogue error: {exc}"), [], None
    if not generated:
        return None, results, None
    plan = plan_generic(generated, baseline)
    run.prepare()  # every known bug may have been reused from the verdict store: mutmut's mutants run here
    with MutantProgress(len(plan.runnable), label="mutmut mutants", misses_only=True) as progress:
        return None, results, run_generic(run, baseline, plan, MUTMUT_SEED, progress.advance)
