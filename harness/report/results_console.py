"""Results as terminal lines: each one as it is decided, then the summary by rule level and the failures.

The one per-result console writer of every command. Text the harness does not
control is shown on lines of its own, its control characters as escapes, so an
ANSI code or a NUL of an adapter's output cannot recolour or cut the terminal's.
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.clip import clip
from harness.outcomes.results import ERROR, FAILED, NOT_APPLICABLE, PASSED, SKIPPED, Result, tally
from harness.report.markdown_text import inline
from harness.report.ordering import groups, problems

INDENT = " " * 17  # under the result's name


def result_lines(result: Result, verbose: bool = False, shown: int | None = None, word: str = "") -> list[str]:
    """``STATUS  [level] name: title``, then its lines when it is a problem (all of them with ``verbose``).

    ``shown``: at most this many lines under it, then how many more there are. ``word``: the status
    in the words of the result's own tool (a known bug's verdict: survived, invalid), if not its status.
    """
    where = f"[{result.level}] " if result.level else ""
    title = f": {result.title}" if result.title else ""
    lines = [f"{(word or result.status).upper():>15}  {where}{inline(result.name + title)}"]
    # A line of the text may hold line breaks (a quoted request): each becomes a line under the result.
    body = [inline(part) for line in (result.lines() if result.is_problem or verbose else [])
            for part in line.splitlines() or [""]]
    if shown is not None and len(body) > shown:
        body = [*body[:shown], f"... and {len(body) - shown} more lines"]
    return lines + [INDENT + line for line in body]


def counts_line(results: Sequence[Result]) -> str:
    """``P passed, F failed``, then each other status that occurred."""
    counts = tally(results)
    text = f"{counts[PASSED]} passed, {counts[FAILED]} failed"
    return text + "".join(f", {counts[extra]} {extra}" for extra in (ERROR, NOT_APPLICABLE, SKIPPED) if counts[extra])


def summary_lines(results: Sequence[Result], noun: str, by_capability: bool) -> list[str]:
    """The tallies by rule level (and capability), then each problem on one line; ``noun``: what a result is."""
    bad = problems(results)
    lines = [""]
    if len(bad) > 1:
        # Results print as they are decided; a broken wire rule fails the rules built on it too, so the place
        # to start is the first problem of the lowest level, named before the tallies.
        first = bad[0]
        where = ", ".join(part for part in (first.level, first.capability) if part)
        lines.append(f"start here: [{where}] {inline(first.name)}: of {len(bad)} failing {noun}, the first of the "
                     "lowest rule level; the others may follow from it")
    lines.append("by rule level and capability:" if by_capability else "by rule level:")
    for level, capability, members in groups(results):
        column = f"{capability or '-':<18} " if by_capability else ""
        lines.append(f"  {level or '-':<9} {column}{counts_line(members)}")
    if bad:
        lines += ["", f"failing {noun}:"]
        for r in bad:
            where = ", ".join(part for part in (r.level, r.capability) if part)
            lines.append(f"  {r.status.upper():<6} [{where}] {inline(r.name)}: {inline(clip(r.message, 160))}")
    return lines
