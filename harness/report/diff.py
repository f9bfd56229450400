"""A mutant as a small diff, rebuilt from the report alone: the file's source, the location and the replacement.

The same view serves every mutant, known bug or mutmut's, in the Markdown
summary (the HTML viewer draws its own from the same fields).
"""

from __future__ import annotations

from typing import NamedTuple


class DiffLine(NamedTuple):
    kind: str  # " " context, "-" original, "+" mutant
    number: int | None  # line in the original file; None for a mutant line
    text: str


def diff_lines(source: str, mutant: dict, context: int = 1) -> list[DiffLine]:
    """Context, the original lines the mutant touches, the mutant's lines, context; [] without a source."""
    lines = source.splitlines()
    start, end = mutant["location"]["start"], mutant["location"]["end"]
    first, last = start["line"], min(max(end["line"], start["line"]), len(lines))
    if not lines or first > len(lines):
        return []
    prefix = lines[first - 1][: start["column"] - 1]
    suffix = lines[last - 1][end["column"] - 1 :] if end["line"] <= len(lines) else ""
    mutated = (prefix + mutant.get("replacement", "") + suffix).split("\n")
    if len(mutated) > 1 and not mutated[-1].strip():
        mutated.pop()  # a replacement that ends its line
    rows = [DiffLine(" ", n, lines[n - 1]) for n in range(max(1, first - context), first)]
    rows += [DiffLine("-", n, lines[n - 1]) for n in range(first, last + 1)]
    rows += [DiffLine("+", None, text) for text in mutated if text.strip()]
    rows += [DiffLine(" ", n, lines[n - 1]) for n in range(last + 1, min(len(lines), last + context) + 1)]
    return rows


def diff_text(source: str, mutant: dict, file: str) -> str:
    """Unified-diff-like text: a header naming the file and line, then the rows."""
    rows = diff_lines(source, mutant)
    if not rows:
        return f"{file}: no source to show (location {mutant['location']['start']['line']})"
    header = f"@@ {file}:{mutant['location']['start']['line']} @@"
    return "\n".join([header, *(f"{row.kind} {row.text}" for row in rows)])
