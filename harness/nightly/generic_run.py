"""mutmut's mutants run the way the known bugs run: warm workers, a fork per mutant, the mutant swapped in memory.

Each mutant runs only the contracts that ran its lines in the baseline
(:mod:`harness.mutation.line_reach`), cheapest first, and the first kill
settles it. The verdict rule is the known bugs' (a kill is an assertion or a
crash after the patched lines ran); in mutmut's status names it reads:

- ``killed``: a contract killed it, at the gate's examples or on the retry;
- ``survived``: every contract that ran its lines stayed green;
- ``no tests``: no contract ran its lines (none was run);
- ``timeout``: it ran past its budget;
- ``suspicious``: the contracts went red without a kill (their own setup
  failed, or they failed without running the patched lines), so neither
  detected nor missed.

A survivor is retried once with the properties among its contracts under the
nightly profile (many more examples, the run's seed) before it is called a
survivor; a mutant a pragma exempts is never retried, and one an out-of-scope
pragma names runs under one covering contract only (:func:`plan_generic`).
Each record says how its verdict was reached.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from harness.config.hypothesis_profiles import PROFILES, registered_name
from harness.mutation.known_bug_run import Baseline, KnownBugRun
from harness.mutation.patch import AppliedPatch
from harness.mutation.reach import reach_lines
from harness.nightly.equivalents import OUT_OF_SCOPE, by_line, exemption_for, strip
from harness.nightly.locate import Change, offset
from harness.nightly.mutmut_run import Generated, GeneratedMutant, MutmutMutant, MutmutRun
from harness.outcomes.mutants import Mutant, MutantResult, Verdict

RETRY_PROFILE = "nightly"
_STATUS = {
    Verdict.KILLED: "killed",
    Verdict.SURVIVED: "survived",
    Verdict.UNREACHED: "no tests",
    Verdict.TIMEOUT: "timeout",
    Verdict.INVALID: "suspicious",
    Verdict.STALE: "suspicious",
}


def covering(lines: dict[str, dict], file: str, change: Change) -> list[str]:
    """The contracts that ran the lines of ``change`` in the baseline, by their statements' lines."""
    measured = lines.get(file)
    if measured is None:
        return []
    first, last = change.start.line, change.end.line
    wanted = reach_lines(set(measured["statements"]), first, last) | set(range(first, last + 1))
    found: set[str] = set()
    for line in wanted:
        found.update(measured["executed"].get(str(line), ()))
    return sorted(found)


def applied(source: str, change: Change) -> AppliedPatch:
    """``change`` made in ``source`` (its positions are the file's own)."""
    start, end = offset(source, change.start), offset(source, change.end)
    text = source[:start] + change.replacement + source[end:]
    return AppliedPatch(text=text, start=change.start, end=change.end, first_line=change.start.line,
                        last_line=change.start.line + change.replacement.count("\n"))


def _record(mutant: GeneratedMutant, status: str, how: str, covered: list[str],
            result: MutantResult | None = None) -> MutmutMutant:
    return MutmutMutant(
        name=mutant.name, file=mutant.file, function=mutant.function, status=status, diff=mutant.diff,
        duration=result.duration if result else None, covered_by=tuple(covered),
        killed_by=tuple(result.killed_by[:1]) if result else (), kill_message=result.message if result else "",
        how=how,
    )


@dataclass(frozen=True)
class Planned:
    mutant: GeneratedMutant
    covered: list[str]  # the contracts that ran its lines in the baseline
    runs: list[str]  # the contracts it runs: all of ``covered``, or the cheapest one for an out-of-scope mutant
    exempt: str = ""  # the kind of the pragma that names it, if one does


@dataclass
class GenericPlan:
    """What each generated mutant will run: settled records for those that need no run, the rest to run."""

    generated: Generated
    records: dict[str, MutmutMutant]  # mutant name -> its record, once it has one
    runnable: list[Planned]


def plan_generic(generated: Generated, baseline: Baseline) -> GenericPlan:
    """Each mutant's covering contracts from ``baseline``'s line reach; one no contract ran is settled unrun.

    A mutant an out-of-scope pragma names is expected to survive and counts in the score as it ends, so it
    runs once, under the cheapest contract that covers it: that it is reached and not killed there is all
    its record claims, and leaving the other contracts out can only keep a kill from being counted.
    """
    exemptions = by_line(generated.exemptions)
    durations = {t: e.get("duration", 0.0) for t, e in baseline.outcome.tests.items()}
    plan = GenericPlan(generated, {}, [])
    for mutant in generated.mutants:
        if mutant.change is None:
            plan.records[mutant.name] = _record(mutant, "suspicious", "its diff could not be placed in the file, "
                                                "so it was not run:\n" + mutant.diff, [])
            continue
        covered = covering(baseline.outcome.lines, mutant.file, mutant.change)
        if not covered:
            plan.records[mutant.name] = _record(mutant, "no tests", "no contract ran its lines in the baseline", [])
            continue
        stripped = strip(generated.sources[mutant.file], [e for e in generated.exemptions if e.file == mutant.file])
        exemption, named = exemption_for(mutant.change, stripped, exemptions, mutant.file)
        kind = exemption.kind if named is not None else ""
        runs = [min(covered, key=lambda t: durations.get(t, 0.0))] if kind == OUT_OF_SCOPE else covered
        plan.runnable.append(Planned(mutant, covered, runs, kind))
    return plan


def run_generic(run: KnownBugRun, baseline: Baseline, plan: GenericPlan, seed: int,
                on_result: Callable[[MutantResult], None]) -> MutmutRun:
    """Every runnable mutant of ``plan`` judged against ``baseline``; the whole run in report form."""
    generated, records = plan.generated, plan.records
    properties = set(run.executor.properties())
    examples = PROFILES["ci"]["max_examples"]
    retry = {"profile": registered_name(RETRY_PROFILE), "seed": seed}
    retry_examples = PROFILES[RETRY_PROFILE]["max_examples"]

    def one(item: Planned) -> MutantResult:
        mutant, change = item.mutant, item.mutant.change
        source = generated.sources[mutant.file]
        known = Mutant(id=mutant.name, title=mutant.function, incident="", file=mutant.file, find=change.original,
                       replace=change.replacement, contracts=tuple(item.runs))
        patch = applied(source, change)
        result = run.run_patched(known, patch, source, baseline, any_kill=True)
        how = f"{result.status_line} (the gate's {examples} examples per property)"
        if len(item.runs) < len(item.covered):
            how += (f"; {item.exempt}: run under the cheapest of the {len(item.covered)} contracts that cover it "
                    "only, as a mutant expected to survive")
        elif result.verdict is Verdict.SURVIVED and not item.exempt and properties & set(item.runs):
            again = run.run_patched(known, patch, source, baseline, any_kill=True, explore=retry)
            if again.verdict is Verdict.KILLED:
                how = (f"{again.status_line} on a retry with {retry_examples} examples per property (seed {seed}),"
                       f" after surviving the gate's {examples}")
                again.duration += result.duration
                result = again
            else:
                how += f"; a retry with {retry_examples} examples per property (seed {seed}) found nothing either"
                result.duration += again.duration
        records[mutant.name] = _record(mutant, _STATUS[result.verdict], how, item.covered, result)
        return result

    run.map(plan.runnable, one, on_result)
    ordered = [records[m.name] for m in generated.mutants]
    return MutmutRun(mutants=ordered, total=generated.total, sources=generated.sources,
                     exemptions=generated.exemptions)
