"""Results as Markdown, for a CI job summary: a table of results, then each failure under its own heading.

The one per-result Markdown writer of every command: ``harness check`` and
``harness probe`` render a whole page with :func:`render_markdown`; a
mutation run composes its score and known-bug sections around
:func:`results_table` and :func:`failure_lines`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from harness.clip import clip
from harness.outcomes.results import ERROR, FAILED, NOT_APPLICABLE, PASSED, Quote, Result, tally
from harness.report.markdown_text import cell, code, fenced, inline, table
from harness.report.ordering import groups, problems

_COLUMNS = (PASSED, FAILED, ERROR, NOT_APPLICABLE)


@dataclass(frozen=True)
class Column:
    """A column of a results table: its heading, and a result's text in it (escaped here, whatever it holds)."""

    heading: str
    text: Callable[[Result], str]
    as_code: bool = False  # a name or an id: one code span


def name_column(heading: str) -> Column:
    return Column(heading, lambda r: r.name, as_code=True)


def results_table(results: Sequence[Result], columns: Sequence[Column]) -> list[str]:
    """One row per result, a cell per column."""
    return table([c.heading for c in columns],
                 ([code(c.text(r)) if c.as_code else cell(c.text(r)) for c in columns] for r in results))


def failure_lines(results: Sequence[Result], level: str, tag: Callable[[Result], str], *,
                  fenced_details: bool = False) -> list[str]:
    """Each result under a ``level`` heading (its name, then ``(tag)``): its headline, then its details.

    A detail quoting the code under test is shown as code; every other line is
    one list item, or with ``fenced_details`` all of them one code block, laid
    out as written (a failing contract's report, indented as pytest wrote it).
    """
    lines: list[str] = []
    for r in results:
        lines += ["", f"{level} {code(r.name)} ({tag(r)})", ""]
        lines += [f"- {inline(r.message)}"] if r.message else []
        if fenced_details and r.details:
            lines += ["", fenced("\n".join(map(str, r.details)))]
            continue
        for detail in r.details:
            lines.append(f"  - {inline(detail.label)}: {code(detail.text)}" if isinstance(detail, Quote)
                         else f"- {inline(detail)}")
    return lines


def render_markdown(title: str, header: Sequence[str], results: Sequence[Result], noun: str, *,
                    by_capability: bool, every: bool = False) -> str:
    """``# title``, the header, a tally table, a table of the problems (of ``every`` result), each problem's lines.

    ``noun``: what a result is called in a column's heading (contract, check).
    """
    keys = ("level", "capability") if by_capability else ("level",)
    lines = [f"# {title}", "", *(f"- {inline(line)}" for line in header), ""]
    rows = (((level, capability) if by_capability else (level,), tally(members))
            for level, capability, members in groups(results))
    lines += table((*keys, *_COLUMNS), ((*(cell(k) for k in key), *(str(counts[c]) for c in _COLUMNS))
                                        for key, counts in rows))
    bad = problems(results)
    listed = list(results) if every else bad
    if listed:
        lines += ["", *_problems_table(listed, noun, by_capability)]
    if bad:
        lines += ["", "## Failures", *failure_lines(bad, "###", lambda r: r.level or r.status)]
    return "\n".join(lines) + "\n"


def _problems_table(results: Sequence[Result], noun: str, by_capability: bool) -> list[str]:
    """status, level (capability), name, what it says: the message of a problem, the title of any other."""
    return results_table(results, [
        Column("status", lambda r: r.status),
        Column("level", lambda r: r.level),
        *([Column("capability", lambda r: r.capability)] if by_capability else []),
        name_column(noun),
        Column("what it says", lambda r: inline(clip(r.message if r.is_problem else r.title, 200))),
    ])
