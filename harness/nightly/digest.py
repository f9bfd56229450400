"""What a nightly report comes to: the scores, the counts and the lists people act on.

Every renderer (HTML, Markdown, JUnit) and the exit status read this, so
they cannot disagree. The mutation score that the thresholds judge is the
mutmut mutants' score: the known bugs are the gate's business and every one of
them is expected killed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from harness.nightly.report import NIGHTLY, all_mutants
from harness.nightly.score import Score, Thresholds, is_mutmut, score

# Report statuses in the order people read them.
STATUS_ORDER = ("Survived", "NoCoverage", "Timeout", "RuntimeError", "CompileError", "Pending", "Ignored", "Killed")


@dataclass(frozen=True)
class Digest:
    mutmut: Score  # the score the thresholds judge
    everything: Score  # every mutant, as Stryker's viewer would count them
    known: Counter  # known bugs by status
    thresholds: Thresholds
    runs: list[dict]
    gaps: list[tuple[str, dict]]  # mutmut survivors: a contract is missing or too weak
    untested: list[tuple[str, dict]]  # mutmut mutants no contract ran
    equivalents: list[tuple[str, dict]]  # reviewed survivors, out of the score
    known_failures: list[tuple[str, dict]]  # known bugs not killed

    @property
    def below_break(self) -> bool:
        return self.thresholds.below_break(self.mutmut)

    @property
    def band(self) -> str:
        return self.thresholds.band(self.mutmut)

    @property
    def unreviewed(self) -> Score:
        """The mutmut score if the reviewed equivalents counted as survivors: what mutmut alone says."""
        counts = Counter(self.mutmut.counts)
        counts["Survived"] += len(self.equivalents)
        counts["Ignored"] -= len(self.equivalents)
        return Score(counts)


def digest(report: dict, thresholds: Thresholds) -> Digest:
    mutants = all_mutants(report)
    generic = [(f, m) for f, m in mutants if is_mutmut(m)]
    known = [(f, m) for f, m in mutants if not is_mutmut(m)]

    def having(pairs: list[tuple[str, dict]], status: str) -> list[tuple[str, dict]]:
        return [(f, m) for f, m in pairs if m["status"] == status]

    return Digest(
        mutmut=score(m for _, m in generic),
        everything=score(m for _, m in mutants),
        known=Counter(m["status"] for _, m in known),
        thresholds=thresholds,
        runs=report.get("config", {}).get(NIGHTLY, {}).get("runs", []),
        gaps=having(generic, "Survived"),
        untested=having(generic, "NoCoverage"),
        equivalents=having(generic, "Ignored"),
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
    if run.get("seconds") is not None:
        parts.append(f"{run['seconds']} s")
    return ", ".join(parts)
