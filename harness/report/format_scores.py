"""The nightly's score per wire format: mutmut's mutants grouped by the format their module counts under.

``harness nightly`` writes, in its run's entry of ``config.harness.runs``,
``modules`` (each mutated file's group: the one format whose contracts ran
its lines, ``shared`` or ``unreached``; :mod:`harness.nightly.formats_run`)
and ``formats`` (the formats it ran, in order). Shards of one run give a
file the same group, so a merged report reads the union. The total, the one
the thresholds judge, is the digest's; these lines only split it.
"""

from __future__ import annotations

from harness.outcomes.score import Score, score
from harness.report.digest import counts_line
from harness.report.model import Report, is_known_bug, mutants, runs

MODULES_KEY = "modules"
FORMATS_KEY = "formats"
_NO_GROUP = "unattributed"  # a file no run named: a report written before the nightly grouped its modules


def format_scores(report: Report) -> list[tuple[str, Score]]:
    """(group, score) of mutmut's mutants per group: the formats in their run's order, then the other groups;
    none when no run grouped its modules."""
    groups: dict[str, str] = {}
    order: list[str] = []
    for run in runs(report):
        groups.update(run.get(MODULES_KEY) or {})
        order += [name for name in run.get(FORMATS_KEY) or () if name not in order]
    if not groups:
        return []
    grouped: dict[str, list[dict]] = {}
    for file, m in mutants(report):
        if not is_known_bug(m):
            grouped.setdefault(groups.get(file, _NO_GROUP), []).append(m)
    names = [n for n in order if n in grouped] + sorted(set(grouped) - set(order))
    return [(name, score(grouped[name])) for name in names]


def _line(name: str, result: Score) -> str:
    return f"{name}: {result.text()} over {result.total} mutants: {counts_line(result.counts)}"


def format_score_lines(report: Report) -> list[str]:
    """The console's lines: one per group."""
    scores = format_scores(report)
    if not scores:
        return []
    return ["mutation score per format (by the formats whose contracts reach each module):",
            *(f"  {_line(name, result)}" for name, result in scores)]


def format_score_items(report: Report) -> list[str]:
    """The summary's Markdown list items: one per group, under one heading item."""
    scores = format_scores(report)
    if not scores:
        return []
    return ["- score per format (each module's mutants under the one format whose contracts reach it, "
            "`shared` when several do, `unreached` when none does):",
            *(f"  - {_line(name, result)}" for name, result in scores)]
