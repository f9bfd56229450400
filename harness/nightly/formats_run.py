"""mutmut's mutants judged under every wire format: each format's contracts against its own reference.

The nightly runs the formats of :data:`harness.formats.SPECS` one after the
other, each with its own warm workers (the contracts against that format's
reference) and its own baseline, which measures the lines each contract ran.
A mutant runs, under a format, the contracts of that format that ran its
lines (:func:`harness.nightly.generic_run.plan_generic`). The rule across
formats:

- a mutant is killed if any format kills it: once killed (or timed out) it
  is not run under the later formats;
- it survives when every format whose contracts reached it ran it and none
  detected it;
- it is ``no tests`` only when no format's contracts ran its lines;
- a mutant an ``out of scope`` pragma names runs once, under the first format
  that reaches it (it is expected to survive; see ``plan_generic``).

Its record keeps the verdict of the format that settled it (:data:`_RANK`):
the killing one, else the first that reached it; ``format`` names that format,
``how`` says what each format that ran it found, ``covered_by`` joins their
contracts.

Which format a module counts under in the report (:func:`module_groups`): the
one format whose contracts ran any of its lines; :data:`SHARED` when two or
more did; :data:`UNREACHED` when none did.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from harness.mutation.known_bug_run import Baseline, KnownBugRun
from harness.nightly.equivalents import OUT_OF_SCOPE
from harness.nightly.explore_budget import Plan as ExplorePlan
from harness.nightly.generic_run import GenericPlan, plan_generic, reuse_stored, run_generic
from harness.nightly.mutant_reuse import MutantReuse
from harness.nightly.mutmut_run import Generated, MutmutMutant, MutmutRun
from harness.outcomes.mutants import MutantResult

SHARED = "shared"  # a module two or more formats' contracts reach
UNREACHED = "unreached"  # a module no format's contracts reach

# Which record of a mutant stands when several formats ran it: the lowest rank. A kill by any format settles it;
# a miss ("survived") outranks "suspicious" (contracts that went red without a kill neither detect nor excuse it).
_RANK = {"killed": 0, "timeout": 1, "survived": 2, "suspicious": 3, "no tests": 4}
_SETTLED = ("killed", "timeout")


def reached_files(baseline: Baseline) -> set[str]:
    """The files of which the baseline's contracts ran at least one line."""
    return {file for file, measured in baseline.outcome.lines.items() if any(measured["executed"].values())}


def module_groups(files: list[str], reached: dict[str, set[str]]) -> dict[str, str]:
    """Each file's group: the one format (of ``reached``: format -> files its contracts ran) that reached it,
    :data:`SHARED` or :data:`UNREACHED`."""
    groups = {}
    for file in files:
        formats = [name for name, seen in reached.items() if file in seen]
        groups[file] = formats[0] if len(formats) == 1 else SHARED if formats else UNREACHED
    return groups


@dataclass
class AcrossFormats:
    """mutmut's mutants as the formats run so far left them."""

    generated: Generated
    records: dict[str, MutmutMutant] = field(default_factory=dict)  # name -> the standing record
    notes: dict[str, list[str]] = field(default_factory=dict)  # name -> what each format that ran it found
    once: set[str] = field(default_factory=set)  # out-of-scope mutants already run under one format
    reached: dict[str, set[str]] = field(default_factory=dict)  # format -> the files its contracts ran

    def plan(self, name: str, baseline: Baseline, reuse: MutantReuse | None = None, properties: list[str] = (),
             explored: ExplorePlan | None = None) -> GenericPlan:
        """What ``name``'s baseline runs: the mutants its contracts reach that no earlier format settled, less
        those whose verdict ``reuse`` holds under an unchanged key (:func:`reuse_stored`)."""
        self.reached[name] = reached_files(baseline)
        open_ = [m for m in self.generated.mutants if m.name not in self.once and not self._settled(m.name)]
        plan = plan_generic(replace(self.generated, mutants=open_), baseline)
        self.once |= {p.mutant.name for p in plan.runnable if p.exempt == OUT_OF_SCOPE}
        if reuse is not None:
            reuse_stored(plan, reuse, list(properties), explored)
        return plan

    def _settled(self, mutant: str) -> bool:
        record = self.records.get(mutant)
        return record is not None and record.status in _SETTLED

    def run(self, name: str, run: KnownBugRun, baseline: Baseline, plan: GenericPlan, seed: int,
            on_result: Callable[[MutantResult], None], explored: ExplorePlan | None = None,
            reuse: MutantReuse | None = None, properties: list[str] | None = None) -> None:
        """Run ``plan`` under format ``name`` and fold its records into the standing ones (a survivor's retry as
        ``explored``, the format's exploration, bounds it; ``reuse``: records stored under an unchanged key stand
        instead of a run: :func:`run_generic`)."""
        def named(result: MutantResult) -> None:
            result.format = name
            on_result(result)

        ran = {p.mutant.name for p in plan.runnable} | set(plan.reused)
        for record in run_generic(run, baseline, plan, seed, named, explored, reuse, properties).mutants:
            self._fold(name, replace(record, format=name if record.name in ran else ""), record.name in ran)

    def _fold(self, name: str, record: MutmutMutant, ran: bool) -> None:
        standing = self.records.get(record.name)
        if standing is None and (ran or record.status != "no tests"):
            self.records[record.name] = record
        if ran:
            self.notes.setdefault(record.name, []).append(f"under {name}: {record.how}")
        if standing is None or not ran:  # a format that did not run it adds nothing to what stands
            return
        winner = record if _RANK[record.status] < _RANK[standing.status] else standing
        self.records[record.name] = replace(
            winner, covered_by=tuple(sorted({*standing.covered_by, *record.covered_by})),
            duration=(standing.duration or 0.0) + (record.duration or 0.0))

    def result(self) -> MutmutRun:
        """Every mutant's record; one no format ran is ``no tests``."""
        mutants = []
        for m in self.generated.mutants:
            record = self.records.get(m.name) or MutmutMutant(
                m.name, m.file, m.function, "no tests", m.diff, None, (), (),
                how="no format's contracts ran its lines in their baselines")
            notes = self.notes.get(m.name)
            mutants.append(replace(record, how="\n".join(notes)) if notes else record)
        return MutmutRun(mutants=mutants, total=self.generated.total, sources=self.generated.sources,
                         exemptions=self.generated.exemptions)

    def groups(self) -> dict[str, str]:
        """Each mutated file's group (:func:`module_groups`) by the baselines run so far."""
        return module_groups(sorted({m.file for m in self.generated.mutants}), self.reached)
