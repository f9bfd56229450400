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
nightly profile (the examples the run's exploration gave them, at most
``RETRY_SECONDS`` of them, the run's seed) before it is called a survivor. The
retry is queued beside the mutants still to run and stops at a time bound of
its own; one that runs out is reported undecided, and the mutant counts as it
stood after the gate's examples (survived). A mutant a pragma exempts is never
retried, and one an out-of-scope pragma names runs under one covering contract
only (:func:`plan_generic`). Each record says how its verdict was reached.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from harness.config.hypothesis_profiles import PROFILES, registered_name
from harness.mutation.known_bug_run import Baseline, KnownBugRun
from harness.mutation.patch import AppliedPatch
from harness.mutation.reach import reach_lines
from harness.nightly.equivalents import OUT_OF_SCOPE, by_line, exemption_for, strip
from harness.nightly.explore_budget import Plan as ExplorePlan
from harness.nightly.locate import Change, offset
from harness.nightly.mutant_reuse import MutantReuse
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
    keys: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> its keys without, with a retry
    reused: list[str] = field(default_factory=list)  # the mutants whose records came from the verdict store


def reuse_stored(plan: GenericPlan, reuse: MutantReuse, properties: list[str], explored: ExplorePlan | None) -> None:
    """Each runnable mutant of ``plan`` whose key ``reuse`` holds takes its stored record and leaves the runnable
    ones; every runnable one keeps its keys, under which :func:`run_generic` stores its verdict."""
    todo = []
    for item in plan.runnable:
        name = item.mutant.name
        retried = [] if item.exempt else sorted(set(properties) & set(item.runs))
        plan.keys[name] = reuse.keys(item, retried, explored)
        found = reuse.take(name, plan.keys[name])
        if found is None:
            todo.append(item)
        else:
            plan.records[name] = found
            plan.reused.append(name)
    plan.runnable = todo


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
                on_result: Callable[[MutantResult], None], explored: ExplorePlan | None = None,
                reuse: MutantReuse | None = None, properties: list[str] | None = None) -> MutmutRun:
    """Every runnable mutant of ``plan`` judged against ``baseline``; the whole run in report form.

    A survivor's retry is queued beside the mutants still to run (:func:`schedule`), with the examples and the
    time bound ``explored`` (the nightly's exploration) gives its properties (:meth:`ExplorePlan.retry`);
    without it (a diff-scoped gate, whose verdicts must not depend on the machine's speed) with the profile's
    examples and the run's own budget. With ``reuse`` (``plan`` went through :func:`reuse_stored`; the baseline's
    ``properties`` may be known without a worker), each verdict is stored under its key, and the workers start
    only when a mutant must run.
    """
    generated, records = plan.generated, plan.records
    properties = set(run.executor.properties() if properties is None else properties)
    examples = PROFILES["ci"]["max_examples"]
    profile = registered_name(RETRY_PROFILE)

    def settle(item: Planned, record: MutmutMutant, retried: bool = False, decided: bool = True) -> None:
        records[item.mutant.name] = record
        if reuse is not None:
            without, with_retry = plan.keys[item.mutant.name]
            reuse.keep(item.mutant.name, with_retry if retried else without, record, decided)

    def first(item: Planned) -> tuple[MutantResult, Callable[[], tuple[MutantResult, None]] | None]:
        mutant, change = item.mutant, item.mutant.change
        source = generated.sources[mutant.file]
        known = Mutant(id=mutant.name, title=mutant.function, incident="", file=mutant.file, find=change.original,
                       replace=change.replacement, contracts=tuple(item.runs))
        patch = applied(source, change)
        result = run.run_patched(known, patch, source, baseline, any_kill=True)
        how = f"{result.status_line} (the gate's {examples} examples per property)"
        retried = sorted(properties & set(item.runs))
        if len(item.runs) < len(item.covered):
            how += (f"; {item.exempt}: run under the cheapest of the {len(item.covered)} contracts that cover it "
                    "only, as a mutant expected to survive")
        elif result.verdict is Verdict.SURVIVED and not item.exempt and retried:
            return result, lambda: (retry(item, known, patch, source, result, how, retried), None)
        settle(item, _record(mutant, _STATUS[result.verdict], how, item.covered, result))
        return result, None

    def retry(item: Planned, known: Mutant, patch: AppliedPatch, source: str, result: MutantResult, how: str,
              retried: list[str]) -> MutantResult:
        counts, bound = explored.retry(retried) if explored else ({}, None)
        most = max(counts.values()) if counts else PROFILES[RETRY_PROFILE]["max_examples"]
        again = run.run_patched(known, patch, source, baseline, any_kill=True, budget=bound,
                                explore={"profile": profile, "seed": seed, "examples": counts})
        tried = f"a retry with up to {most} examples per property (seed {seed})"
        decided = again.verdict is not Verdict.TIMEOUT
        if again.verdict is Verdict.KILLED:
            how = f"{again.status_line} on {tried}, after surviving the gate's {examples}"
            again.duration += result.duration
            result = again
        elif again.verdict is Verdict.TIMEOUT:
            # Undecided: neither a kill nor a clean pass; the gate's examples' survival stands in the score.
            how += f"; {tried} ran out of its time bound ({again.reason}): undecided"
            result.duration += again.duration
        else:
            how += f"; {tried} found nothing either"
            result.duration += again.duration
        settle(item, _record(item.mutant, _STATUS[result.verdict], how, item.covered, result), True, decided)
        return result

    if reuse is not None and plan.runnable:
        run.prepare()
    schedule(run, [lambda item=item: first(item) for item in plan.runnable], on_result)
    ordered = [records[m.name] for m in generated.mutants]
    return MutmutRun(mutants=ordered, total=generated.total, sources=generated.sources,
                     exemptions=generated.exemptions)


Task = Callable[[], tuple[MutantResult, "Task | None"]]


def schedule(run: KnownBugRun, tasks: list[Task], on_result: Callable[[MutantResult], None]) -> None:
    """``tasks`` on ``run.jobs`` threads; a task may hand back a follow-up (a survivor's retry), which the next
    free thread takes before any task not yet started, so a retry runs beside the remaining mutants, not after
    them. (A thread that finds nothing left may end: the only work still to come is a follow-up, and the thread
    whose task handed it back is free for it.) ``on_result`` gets each task's final result, one at a time; an
    interrupt or an error stops every run."""
    follow_ups: deque[Task] = deque()
    waiting = deque(tasks)
    lock = threading.Lock()

    def take() -> Task | None:
        with lock:
            queue = follow_ups or waiting
            return queue.popleft() if queue else None

    def work() -> None:
        while (task := take()) is not None:
            result, follow_up = task()
            with lock:
                if follow_up is not None:
                    follow_ups.append(follow_up)
                else:
                    on_result(result)

    with ThreadPoolExecutor(max_workers=run.jobs) as pool:
        futures = [pool.submit(work) for _ in range(run.jobs)]
        try:
            for future in futures:
                future.result()
        except BaseException:
            with lock:
                follow_ups.clear()
                waiting.clear()
            run.executor.children.stop_all()
            raise
