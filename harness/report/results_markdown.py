"""Results as Markdown, for a CI job summary: what ran, the tallies by rule level, then each failure in full."""

from __future__ import annotations

from collections.abc import Sequence

from harness.outcomes.results import ERROR, FAILED, NOT_APPLICABLE, PASSED, Quote, Result, tally
from harness.report.markdown_text import cell, code, inline, table
from harness.report.ordering import groups, problems

_COLUMNS = (PASSED, FAILED, ERROR, NOT_APPLICABLE)


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
        def row(r: Result) -> tuple[str, ...]:
            said = r.message if r.is_problem else r.title
            return (r.status, cell(r.level), *((cell(r.capability),) if by_capability else ()), code(r.name),
                    cell(inline(said[:200])))

        lines += ["", *table(("status", *keys, noun, "what it says"), (row(r) for r in listed))]
    if bad:
        lines += ["", "## Failures"]
        for r in bad:
            lines += ["", f"### {code(r.name)} ({r.level or r.status})", ""]
            lines += [f"- {inline(r.message)}"] if r.message else []
            for detail in r.details:
                lines.append(f"  - {inline(detail.label)}: {code(detail.text)}" if isinstance(detail, Quote)
                             else f"- {inline(detail)}")
    return "\n".join(lines) + "\n"
