"""The mutation report as Markdown, for a CI job summary."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from harness.mutation.outcome import MutantResult, Verdict


def _cell(text: str) -> str:
    """Text safe inside a table cell: a pipe or a line break would end the cell or the row."""
    return text.replace("|", "\\|").replace("\r", "").replace("\n", "<br>")


def _fenced(text: str) -> str:
    # The fence must be longer than any backtick run in the text, or the text would close it.
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def _where(result: MutantResult) -> str:
    file = result.mutant.file
    return f"{file}:{result.start.line}" if result.start else file


def _outcome(result: MutantResult) -> str:
    if result.verdict is Verdict.KILLED:
        shown = ", ".join(f"`{i}`" for i in result.killed_by[:3])
        more = f" and {len(result.killed_by) - 3} more" if len(result.killed_by) > 3 else ""
        return f"{result.kind or 'assertion'}: {shown}{more}"
    return result.reason


def render_markdown(results: list[MutantResult]) -> str:
    """Headline, counts per verdict, one table row per mutant, then what needs attention."""
    counts = Counter(r.verdict for r in results)
    lines = [
        f"## Known bugs: {counts[Verdict.KILLED]}/{len(results)} killed",
        "",
        " · ".join(f"{v.value}: {counts[v]}" for v in Verdict),
        "",
        "| id | verdict | file:line | killed by / reason |",
        "| --- | --- | --- | --- |",
    ]
    lines += [
        f"| `{_cell(r.mutant.id)}` | {r.verdict.value} | {_cell(_where(r))} | {_cell(_outcome(r))} |"
        for r in results
    ]
    attention = [r for r in results if r.verdict is not Verdict.KILLED]
    if attention:
        lines += ["", "### Needs attention"]
    for result in attention:
        lines += ["", f"#### `{result.mutant.id}`: {result.status_line}", "", result.mutant.title]
        if result.message:
            lines += ["", _fenced(result.message)]
        if result.engine:
            lines += ["", f"Patched by: {result.engine}"]
    return "\n".join(lines) + "\n"


def write_markdown(results: list[MutantResult], path: Path) -> None:
    """Write :func:`render_markdown` to ``path`` (UTF-8)."""
    path.write_text(render_markdown(results), encoding="utf-8")
