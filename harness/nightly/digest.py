"""What a nightly report comes to: the scores, the counts and the lists people act on.

Every renderer (HTML, Markdown, JUnit) and the exit status read this, so
they cannot disagree. The headline, the score the thresholds judge, is the
plain mutmut score: every mutant mutmut makes over the reference counts,
including those on lines exempted as out of scope (counted beside it); only
the mutants of lines exempted as equivalent are not made, and their number is
shown too. The known bugs are the gate's business and every one of them is
expected killed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from harness.nightly.report import NIGHTLY, all_mutants, is_out_of_scope
from harness.nightly.score import Score, Thresholds, is_mutmut, score

# Report statuses in the order people read them.
STATUS_ORDER = ("Survived", "NoCoverage", "Timeout", "RuntimeError", "CompileError", "Pending", "Ignored", "Killed")


@dataclass(frozen=True)
class Digest:
    mutmut: Score  # the headline: the plain mutmut score, the one the thresholds judge
    everything: Score  # every mutant, as Stryker's viewer would count them
    known: Counter  # known bugs by status
    thresholds: Thresholds
    runs: list[dict]
    gaps: list[tuple[str, dict]]  # mutmut survivors not exempted: a contract is missing or too weak
    untested: list[tuple[str, dict]]  # mutmut mutants no contract ran
    out_of_scope: list[tuple[str, dict]]  # mutants on lines exempted as out of scope (in the score)
    equivalent: int | None  # mutants mutmut does not make: lines exempted as equivalent (None: not counted)
    known_failures: list[tuple[str, dict]]  # known bugs not killed

    @property
    def below_break(self) -> bool:
        return self.thresholds.below_break(self.mutmut)

    @property
    def band(self) -> str:
        return self.thresholds.band(self.mutmut)

    @property
    def out_of_scope_counts(self) -> Counter:
        return Counter(m["status"] for _, m in self.out_of_scope)

    def exemptions_line(self) -> str:
        """The exemptions beside the score, in words."""
        counts = self.out_of_scope_counts
        detected = counts["Killed"] + counts["Timeout"]
        scope = f"{len(self.out_of_scope)} out of scope (in the score; {detected} of them killed all the same)"
        equivalent = "equivalent not counted" if self.equivalent is None else f"{self.equivalent} equivalent"
        return f"{scope}; {equivalent} (not made, not in the score)"


def digest(report: dict, thresholds: Thresholds) -> Digest:
    mutants = all_mutants(report)
    generic = [(f, m) for f, m in mutants if is_mutmut(m)]
    known = [(f, m) for f, m in mutants if not is_mutmut(m)]

    def having(pairs: list[tuple[str, dict]], status: str) -> list[tuple[str, dict]]:
        return [(f, m) for f, m in pairs if m["status"] == status]

    runs = report.get("config", {}).get(NIGHTLY, {}).get("runs", [])
    equivalent = [run["equivalent_mutants"] for run in runs if run.get("equivalent_mutants") is not None]
    return Digest(
        mutmut=score(m for _, m in generic),
        everything=score(m for _, m in mutants),
        known=Counter(m["status"] for _, m in known),
        thresholds=thresholds,
        runs=runs,
        gaps=[(f, m) for f, m in having(generic, "Survived") if not is_out_of_scope(m)],
        untested=having(generic, "NoCoverage"),
        out_of_scope=[(f, m) for f, m in generic if is_out_of_scope(m)],
        equivalent=max(equivalent) if equivalent else None,
        known_failures=[(f, m) for f, m in known if m["status"] != "Killed"],
    )


def counts_line(counts: Counter) -> str:
    return " · ".join(f"{s}: {counts[s]}" for s in STATUS_ORDER if counts[s]) or "none"


def run_line(run: dict) -> str:
    """One nightly run (or shard) in words: which slice, the seed, the contracts' tally."""
    parts = [f"shard {run['shard']}" if run.get("shard") else "unsharded"]
    if run.get("seed") is not None:
        parts.append(f"hypothesis seed {run['seed']}")
    if run.get("contracts"):
        parts.append(f"contracts (nightly profile): {run['contracts']}")
    if run.get("mutmut_mutants") is not None:
        parts.append(f"mutmut makes {run['mutmut_mutants']} mutants in all")
    if run.get("equivalent_mutants") is not None:
        parts.append(f"{run['equivalent_mutants']} more on lines exempted as equivalent")
    if run.get("seconds") is not None:
        parts.append(f"{run['seconds']} s")
    return ", ".join(parts)
