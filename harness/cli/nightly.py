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
from dataclasses import dataclass, field
from pathlib import Path

from harness import exit_codes
from harness.clip import clip
from harness.config.hypothesis_profiles import registered_name
from harness.cli.mutate import INTERRUPTED, exit_code
from harness.formats import SPECS, FormatSpec
from harness.mutation import gate_plan
from harness.mutation.catalogue import CatalogueError
from harness.mutation.incremental import PartReuse, part_reuse
from harness.mutation.known_bug_run import Baseline, BaselineRed, BaselineTimedOut, KnownBugRun
from harness.mutation.progress import MutantProgress
from harness.mutation.shard import Shard
from harness.mutation.verdict_store import VerdictStore
from harness.mutation.workspace import Project
from harness.nightly.equivalents import ExemptionError, load_exemptions
from harness.nightly.explore_budget import DEFAULT_BUDGET, ExploreBudget, Plan
from harness.nightly.formats_run import AcrossFormats
from harness.nightly.generation_cache import GenerationCache, default_dir
from harness.nightly.mutant_reuse import MutantReuse
from harness.nightly.mutmut_run import Generated, MutmutFailed, check_exemptions, generate_mutants
from harness.outcomes.mutants import RED, Mutant, MutantResult
from harness.outcomes.score import ThresholdError, Thresholds, load_thresholds
from harness.processes import Children
from harness.report.format_scores import FORMATS_KEY, MODULES_KEY, format_score_lines
from harness.report.merge import merge_reports
from harness.report.publish import publish
from harness.report.stryker_json import ReportError, build_report, load_report

PYPROJECT = Path("pyproject.toml")  # thresholds come from the directory the command runs in


def _properties(run: KnownBugRun, reuse: MutantReuse | None) -> list[str]:
    """The baseline's property contracts: from the verdict store while its collection holds, else the workers'."""
    return reuse.part.properties() if reuse is not None else run.executor.properties()


def _explore(run: KnownBugRun, baseline: Baseline, budget: ExploreBudget, name: str, seed: int,
             reuse: MutantReuse | None = None) -> tuple[bool, str]:
    """The property contracts under the nightly profile and ``seed``, each with the examples ``name``'s part of
    the budget buys it at the cost its baseline measured, the jobs sharing them by that cost: (green, tally).
    With ``reuse``, a green exploration stored under the same seed, examples and contracts stands instead."""
    started = time.perf_counter()
    plan = budget.plan(name, baseline.outcome.tests, _properties(run, reuse), run.jobs)
    if not plan.examples or budget.seconds <= 0:
        budget.spend(0.0)
        return True, "no property to explore" if not plan.examples else "exploration not run (--explore-budget 0)"
    profile = registered_name("nightly")
    key = reuse.exploration_key(profile, plan.examples) if reuse else ""
    stored = reuse.stored_exploration(key) if reuse else None
    if stored is not None:
        # It spends what it took when it ran, so the later formats' parts (and their stored plans) stay the same.
        budget.spend(stored["wall"])
        budget.ran[name] = dict(sorted(stored["ran"].items()))
        reuse.keep_exploration(key, stored["ran"], stored["wall"])
        return True, (f"{len(stored['ran'])} properties, {sum(stored['ran'].values())} examples, green: reused from "
                      f"the verdict store (the same seed, examples and contracts)")
    print(f"{name}: exploration (nightly profile, seed {seed}): {plan.tally()}")
    outcome = run.explore(profile, seed, plan.examples, plan.expected())
    wall = time.perf_counter() - started
    budget.spend(wall)
    red = {t: e for t, e in outcome.tests.items() if e["outcome"] in RED}
    ran = {t: e.get("examples", 0) for t, e in outcome.tests.items()}
    thinnest = min(ran, key=lambda t: (ran[t], t)) if ran else ""
    tally = (f"{len(outcome.tests)} properties run, {len(red)} red, {sum(ran.values())} examples"
             + (f" (fewest {ran[thinnest]}: {thinnest})" if ran else "")
             + f", {wall:.0f}s of a {plan.seconds:.0f}s part" + (", timed out" if outcome.timed_out else ""))
    for test, entry in sorted(red.items()):
        print(f"  {entry['outcome'].upper()} {test}: {clip(entry['message'], 2000)}")
    for error in outcome.collection_errors:
        print(f"  ERROR {clip(error, 2000)}")
    budget.ran[name] = dict(sorted(ran.items()))
    green = not red and not outcome.collection_errors and not outcome.timed_out and bool(outcome.tests)
    if green and reuse is not None:
        reuse.keep_exploration(key, ran, wall)
    return green, tally


def _known_bugs(run: KnownBugRun, baseline: Baseline, part: gate_plan.FormatPart, shard: Shard | None,
                name: str, reuse: PartReuse | None) -> list[MutantResult]:
    # A bug of a shared catalogue runs here with the contracts it names of this format, as in the gate.
    tests = baseline.outcome.tests
    narrowed = [gate_plan.of_format(m, tests) if m.id in part.shared else m for m in part.mutants]
    mutants = [m for m in narrowed if m is not None]
    mutants = shard.select(mutants) if shard else mutants
    print(f"{name}: known bugs: {len(mutants)}")

    def run_rest(todo: list[Mutant]) -> list[MutantResult]:
        if reuse is not None:
            print(f"{name}: {reuse.counts.bugs} of {len(mutants)} known-bug verdicts reused from the verdict store; "
                  f"{len(todo)} run")
        if not todo:
            return []
        with MutantProgress(len(todo)) as progress:
            return run.run(todo, baseline, progress.advance)

    # The verdict store's hook (README, "Incremental runs"): bugs under an unchanged key are reused.
    results = reuse.run_mutants(mutants, baseline, run_rest) if reuse is not None else run_rest(mutants)
    for result in results:
        result.format = name
    return results


def _generate(children: Children, shard: Shard | None, jobs: int) -> Generated:
    started = time.perf_counter()
    generated = generate_mutants(Project.bundled(), children, shard, jobs, cache=GenerationCache(default_dir()))
    print(f"mutmut mutants: {len(generated.mutants)} of {generated.total} in {time.perf_counter() - started:.0f}s "
          f"({generated.kept} files' mutants kept from an earlier run, unchanged)")
    return generated


def _mutmut(name: str, run: KnownBugRun, baseline: Baseline, across: AcrossFormats, seed: int,
            explored: Plan, reuse: MutantReuse | None) -> None:
    started = time.perf_counter()
    properties = _properties(run, reuse)
    plan = across.plan(name, baseline, reuse, properties, explored)
    unreached = sum(1 for r in plan.records.values() if r.status == "no tests")
    print(f"{name}: mutmut mutants its contracts reach and no earlier format killed: {len(plan.runnable)} run"
          + (f", {len(plan.reused)} reused from the verdict store (their keys unchanged)" if reuse is not None else "")
          + f"; {unreached} not reached by its contracts, not run")
    with MutantProgress(len(plan.runnable), label=f"{name}: mutmut mutants", misses_only=True) as progress:
        across.run(name, run, baseline, plan, seed, progress.advance, explored, reuse, properties)
    print(f"{name}: mutmut mutants done in {time.perf_counter() - started:.0f}s")


@dataclass
class _Tally:
    known: list[MutantResult] = field(default_factory=list)
    codes: list[int] = field(default_factory=list)
    contracts: list[str] = field(default_factory=list)  # each format's exploration tally
    store: VerdictStore | None = None  # the verdict store (None: every baseline and mutant runs)
    reused: list[dict] = field(default_factory=list)  # what each format reused from it


def _format(spec: FormatSpec, part: gate_plan.FormatPart, children: Children, jobs: int, shard: Shard | None,
            seed: int, across: AcrossFormats | None, tally: _Tally, budget: ExploreBudget) -> None:
    """One format: its contracts against its reference: the baseline, the exploration, its known bugs, and the
    mutmut mutants its contracts reach (of the bundled reference: a format plugged in from outside has none).
    A red or late baseline stops this format only."""
    name = spec.name
    print(f"{name}: the contracts against {spec.reference}")
    try:
        project, executor = gate_plan.setup(spec, part, children)
    except CatalogueError as exc:
        print(f"{name}: catalogue error: {exc}")
        tally.codes.append(exit_codes.USAGE)
        return
    with KnownBugRun(project, executor, jobs=jobs) as run:
        # The verdict store's share of this format (README, "Incremental runs"): each baseline contract's entry
        # and reach, each known bug's and mutmut mutant's verdict and a green exploration, under unchanged keys.
        # The part is the gate's for this format: a gate's stored baseline and known bugs serve the nightly too.
        reuse = part_reuse(tally.store, gate_plan.store_part(name), run, gate_plan.catalogue_paths(SPECS.values()))
        mutants = MutantReuse(reuse, seed) if reuse is not None else None
        phase = time.perf_counter()
        try:
            baseline = reuse.baseline(None) if reuse is not None else run.baseline(reach=True)
        except (BaselineRed, BaselineTimedOut) as exc:
            print(f"{name}: {exc}")
            tally.codes.append(exit_codes.BASELINE if isinstance(exc, BaselineRed) else exit_codes.TIMEOUT)
            tally.contracts.append(f"{name}: not explored (its baseline is not green)")
            budget.spend(0.0)
            return
        print(f"{name}: baseline green ({len(baseline.outcome.tests)} contracts, the lines each ran measured"
              + (f"; {reuse.counts.contracts} reused from the verdict store" if reuse is not None else "")
              + f") in {time.perf_counter() - phase:.0f}s")
        # After the baseline: what one example of each property costs is measured there.
        green, explored = _explore(run, baseline, budget, name, seed, mutants)
        tally.contracts.append(f"{name}: {explored}")
        print(f"{name}: exploration: {explored}")
        if not green:
            tally.codes.append(exit_codes.BASELINE)
        results = _known_bugs(run, baseline, part, shard, name, reuse)
        tally.known += results
        tally.codes.append(exit_code(results))
        if across is not None and gate_plan.bundled(spec):
            _mutmut(name, run, baseline, across, seed, budget.plans[name], mutants)
        if reuse is not None:
            # Saved after each format: a run stopped later keeps what this one settled.
            mutants.keep_all()
            reuse.keep()
            note = tally.store.save()
            if note:
                print(note)
            tally.reused.append({**reuse.counts.as_json(), "mutmut_mutants": mutants.reused,
                                 "of_mutmut_mutants": mutants.of})


def run_nightly(report_dir: Path | None, shard: Shard | None, jobs: int | None, seed: int | None,
                formats: list[str] | None = None, explore_budget: float = DEFAULT_BUDGET,
                store: Path | None = None) -> int:
    rows = [SPECS[name] for name in dict.fromkeys(formats)] if formats else list(SPECS.values())
    # mutmut's score is over the whole bundled reference: a run that leaves out a bundled format does not make one.
    scored = all(spec in rows for spec in SPECS.values() if gate_plan.bundled(spec))
    try:
        thresholds = load_thresholds(PYPROJECT)
        parts = {part.format: part for part in gate_plan.plan(rows, SPECS.values())}
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
    tally = _Tally(store=VerdictStore.load(store) if store is not None else None)
    if tally.store is not None and tally.store.note:
        print(tally.store.note)
    budget = ExploreBudget(explore_budget, len(rows))
    print(f"nightly: exploration budget {explore_budget:g}s over {len(rows)} format(s) and {jobs} job(s) "
          "(--explore-budget)")
    across: AcrossFormats | None = None
    # Each format in turn gets its own warm workers (its contracts against its reference), stopped before the
    # next starts; the block stops every child process, however the run ends (SIGINT and SIGTERM raise
    # KeyboardInterrupt).
    with Children() as children:
        try:
            if not scored:
                print("mutmut: not run: --format leaves out a bundled format, and the score covers every one")
            try:
                across = AcrossFormats(_generate(children, shard, jobs)) if scored else None
            except MutmutFailed as exc:
                print(f"mutmut: {exc}")
                tally.codes.append(exit_codes.MUTMUT)
            for spec in rows:
                _format(spec, parts[spec.name], children, jobs, shard, seed, across, tally, budget)
        except KeyboardInterrupt:
            children.stop_all()
            print(INTERRUPTED)
            return exit_codes.INTERRUPTED
    mutmut = across.result() if across else None
    if mutmut is not None:
        unreached = sum(1 for m in mutmut.mutants if m.status == "no tests")
        print(f"mutmut: {unreached} of {len(mutmut.mutants)} mutants no format's contracts reach: not run, "
              "counted untested (NoCoverage) in the score")
    run_info = {
        "shard": str(shard) if shard else None,
        "seed": seed,
        "contracts": "; ".join(tally.contracts),
        "explore_budget": explore_budget,
        "examples": budget.ran,  # format -> property -> the examples it ran in the exploration
        "mutmut_mutants": mutmut.total if mutmut else None,
        "seconds": round(time.perf_counter() - started),
        **({"reused": {"store": str(store), **{k: sum(r[k] for r in tally.reused) for k in tally.reused[0]}}}
           if tally.reused else {}),
        **({MODULES_KEY: across.groups(), FORMATS_KEY: list(SPECS)} if across else {}),
    }
    report = build_report(tally.known, mutmut, thresholds=thresholds, run=run_info)
    summary = publish(report, thresholds, report_dir, root=Project.bundled().root)
    print("\n".join(format_score_lines(report)))
    if summary.below_break and mutmut is not None:
        tally.codes.append(exit_codes.BELOW_THRESHOLD)
    return exit_codes.first(tally.codes)


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
    print("\n".join(format_score_lines(report)))
    return exit_codes.BELOW_THRESHOLD if summary.below_break else exit_codes.OK
