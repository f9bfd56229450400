"""What a report comes to: the scores, the counts and the lists people act on.

Every renderer but the JSON and the viewer (Markdown, console, GitHub
annotations) and the exit status read this, so they cannot disagree. The
headline score, the one the thresholds judge, is the plain mutmut score:
every mutant mutmut makes over the reference counts, including those an
out-of-scope pragma names (counted beside it); only those an equivalent pragma
names are left out (``Ignored``), and their number is shown too. The known
bugs are the gate's business and every one of them is expected killed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from harness.outcomes.score import Score, Thresholds, score
from harness.report.model import (
    Entry,
    Report,
    exempted_by,
    format_of,
    is_equivalent,
    is_exempt,
    is_known_bug,
    is_out_of_scope,
    mutants,
    needs_attention,
    runs,
    wall_seconds,
)

# Report statuses in the order people read them.
STATUS_ORDER = ("Survived", "NoCoverage", "Timeout", "RuntimeError", "CompileError", "Pending", "Ignored", "Killed")

Located = tuple[str, Entry]  # (file, mutant)


@dataclass(frozen=True)
class Digest:
    mutmut: Score  # the headline: the plain mutmut score, the one the thresholds judge
    everything: Score  # every mutant, as Stryker's viewer would count them
    known_bugs: list[Located]  # every known bug, in report order
    thresholds: Thresholds
    runs: list[dict]
    gaps: list[Located]  # mutmut survivors not exempted: a contract is missing or too weak
    untested: list[Located]  # mutmut mutants no contract ran
    out_of_scope: list[Located]  # mutants an out-of-scope pragma names (in the score)
    equivalent: list[Located]  # mutants an equivalent pragma names (Ignored: not in the score)
    wall: float | None  # seconds: the longest run's (or shard's) wall time

    @property
    def known(self) -> Counter:
        """Known bugs by report status."""
        return Counter(m["status"] for _, m in self.known_bugs)

    @property
    def by_format(self) -> dict[str, Counter]:
        """Known bugs by report status, per wire format, in the order the formats first appear; empty when no
        known bug names one (a project's own run)."""
        counts: dict[str, Counter] = {}
        for _, m in self.known_bugs:
            if format_of(m):
                counts.setdefault(format_of(m), Counter())[m["status"]] += 1
        return counts

    def format_lines(self) -> list[str]:
        """One line per format: ``chat: 190/190 killed``, then any other status it has."""
        return [f"{name}: {c['Killed']}/{c.total()} killed" + ("" if c['Killed'] == c.total() else
                f" ({counts_line(c)})") for name, c in self.by_format.items()]

    @property
    def known_failures(self) -> list[Located]:
        """Known bugs not killed."""
        return [(f, m) for f, m in self.known_bugs if needs_attention(m)]

    @property
    def has_mutmut(self) -> bool:
        """A nightly report: mutmut's mutants are in it, or a run says how many mutmut makes."""
        return self.mutmut.total > 0 or any("mutmut_mutants" in run for run in self.runs)

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
        killed = sum(1 for _, m in self.equivalent if exempted_by(m)[1] == "mutmut: killed")
        return f"{scope}; {len(self.equivalent)} equivalent (not in the score; {killed} of them killed: not equivalent)"

    @property
    def exemptions(self) -> list[tuple[str, list[Located]]]:
        """Each pragma (``file:line`` and its reason, as the mutants' reasons name it) with the mutants it names."""
        grouped: dict[str, list[Located]] = {}
        for file, m in (*self.out_of_scope, *self.equivalent):
            grouped.setdefault(exempted_by(m)[0], []).append((file, m))
        def place(pragma: str) -> tuple[str, int]:  # "file:line kind: reason": line 9 before line 10
            file, _, rest = pragma.partition(":")
            return file, int(rest.split(" ", 1)[0])

        return sorted(grouped.items(), key=lambda item: place(item[0]))


def digest(report: Report, thresholds: Thresholds) -> Digest:
    located = mutants(report)
    generic = [(f, m) for f, m in located if not is_known_bug(m)]

    def having(pairs: list[Located], status: str) -> list[Located]:
        return [(f, m) for f, m in pairs if m["status"] == status]

    return Digest(
        mutmut=score(m for _, m in generic),
        everything=score(m for _, m in located),
        known_bugs=[(f, m) for f, m in located if is_known_bug(m)],
        thresholds=thresholds,
        runs=runs(report),
        gaps=[(f, m) for f, m in having(generic, "Survived") if not is_exempt(m)],
        untested=having(generic, "NoCoverage"),
        out_of_scope=[(f, m) for f, m in generic if is_out_of_scope(m)],
        equivalent=[(f, m) for f, m in generic if is_equivalent(m)],
        wall=wall_seconds(report),
    )


def counts_line(counts: Counter) -> str:
    return " · ".join(f"{s}: {counts[s]}" for s in STATUS_ORDER if counts[s]) or "none"


def reused_lines(d: Digest) -> list[str]:
    """What each run (or shard) of an incremental gate or mutate took from its verdict store, one line each."""
    return [f"reused from the verdict store {r['store']}: {r['known_bugs']} of {r['of_known_bugs']} known-bug "
            f"verdicts, {r['contracts']} of {r['of_contracts']} baseline contracts"
            for r in (run.get("reused") for run in d.runs) if r]


def run_line(run: dict) -> str:
    """One run (or shard) in words: which slice, the seed, the contracts' tally."""
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
