"""Markdown pieces every report shares: table cells, tables, code spans and fences that hold any text.

GitHub renders these in job summaries and pull requests; text from test
output (pipes, line breaks, backtick runs) must not break the table or fence
around it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence


def cell(text: str) -> str:
    """Text safe inside a table cell: a pipe or a line break would end the cell or the row."""
    return text.replace("|", "\\|").replace("\r", "").replace("\n", "<br>")


def code(text: str) -> str:
    """Text as one inline code span that stays inside a table cell."""
    return "`" + text.replace("`", "'").replace("|", "\\|").replace("\n", " ") + "`"


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """The lines of a table; cells are taken as written (pass them through :func:`cell` or :func:`code`)."""
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def fenced(text: str, info: str = "text") -> str:
    """``text`` in a code fence longer than any backtick run inside it, which would otherwise close it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text}\n{fence}"
