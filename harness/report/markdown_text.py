"""Markdown pieces every report shares: table cells, tables, code spans and fences that hold any text.

The one Markdown writer of every command. GitHub renders these in job
summaries and pull requests; text from test output and from an agent's
requests (pipes, line breaks, backtick runs, control characters) must not
break the table, list item or fence around it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from harness.report.junit import xml_safe


def _visible(text: str) -> str:
    """Control characters shown as escapes (``\\x1b``), a tab as a space."""
    return xml_safe(text).replace("\t", " ")


def inline(text: str) -> str:
    """Text on one Markdown line (a list item): line ends shown as ``\\n``, control characters as escapes."""
    return _visible(text.replace("\r", "\\r").replace("\n", "\\n"))


def cell(text: str) -> str:
    """Text safe inside a table cell: a pipe or a line break would end the cell or the row."""
    return _visible(text.replace("|", "\\|").replace("\r", "").replace("\n", "<br>"))


def code(text: str) -> str:
    """Text as one inline code span that stays inside a table cell."""
    return "`" + inline(text.replace("`", "'").replace("|", "\\|").replace("\n", " ")) + "`"


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """The lines of a table; cells are taken as written (pass them through :func:`cell` or :func:`code`)."""
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def fenced(text: str, info: str = "text") -> str:
    """``text`` in a code fence longer than any backtick run inside it, which would otherwise close it.

    Its line ends become line feeds and its other control characters escapes, as everywhere else.
    """
    text = xml_safe(text.replace("\r\n", "\n").replace("\r", "\n"))
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text}\n{fence}"
