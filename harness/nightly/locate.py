"""Where a mutmut mutant sits in the original file, read from mutmut's diff.

mutmut diffs one function against its mutant, with the function's lines
numbered from its own first line and, for a method, dedented one level. The
removed lines are found again in the original file inside that function (the
closest match to the hunk's line number wins when the text repeats), and the
change is narrowed to the characters that differ.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass

from harness.outcomes.mutants import Position

_HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@")


@dataclass(frozen=True)
class Change:
    start: Position  # 1-based; ``end`` is exclusive, as in the known-bug reports
    end: Position
    original: str  # the replaced text of the original file
    replacement: str


@dataclass(frozen=True)
class Hunk:
    first: int  # line of the first removed line, counted in the function's own text
    removed: list[str]
    added: list[str]


def parse_hunk(diff: str) -> Hunk:
    first, removed, added, line = 0, [], [], 0
    for text in diff.splitlines():
        match = _HUNK.match(text)
        if match:
            line = int(match.group(1))
            continue
        if not line or text.startswith(("---", "+++")):
            continue
        if text.startswith("-"):
            first = first or line
            removed.append(text[1:])
            line += 1
        elif text.startswith("+"):
            added.append(text[1:])
        elif not removed:
            line += 1
    return Hunk(first or line, removed, added)


def function_range(source: str, function: str) -> tuple[int, int]:
    """First line (a decorator's, if any) and last line of ``Class.method`` or ``function``."""
    *classes, name = function.split(".")
    tree = ast.parse(source)
    scopes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == classes[-1]] if classes else [tree]
    for scope in scopes:
        for child in scope.body:
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and child.name == name:
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                return first, child.end_lineno or child.lineno
    raise LookupError(f"no function {function!r} in the source")


def _token_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """``start..end`` widened to the Python tokens of ``text`` it cuts into."""
    line_starts = [0]
    for line in text.splitlines(keepends=True):
        line_starts.append(line_starts[-1] + len(line))
    tokens = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            tokens.append(token)
    except (tokenize.TokenError, SyntaxError):
        pass  # a fragment of a statement: the tokens read so far still count
    for token in tokens:
        if token.type in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT, tokenize.DEDENT):
            continue
        first = line_starts[token.start[0] - 1] + token.start[1]
        last = line_starts[token.end[0] - 1] + token.end[1]
        if first < end and last > start:
            start, end = min(start, first), max(end, last)
    return start, end


def _matches(lines: list[str], at: int, removed: list[str]) -> bool:
    """``removed`` (possibly dedented) equals lines[at:], each up to leading indentation."""
    if at + len(removed) > len(lines):
        return False
    for offset, text in enumerate(removed):
        line = lines[at + offset]
        if not line.endswith(text) or line[: len(line) - len(text)].strip():
            return False
    return True


def locate(diff: str, source: str, function: str) -> Change:
    """The changed range of ``source`` and its replacement for one mutmut diff."""
    hunk = parse_hunk(diff)
    lines = source.splitlines()
    first, last = function_range(source, function)
    expected = first - 1 + hunk.first - 1  # 0-based line where the hunk says the change is
    candidates = [i for i in range(first - 1, last) if _matches(lines, i, hunk.removed)]
    if not hunk.removed or not candidates:
        raise LookupError(f"the diff's removed lines are not in {function!r}:\n{diff}")
    at = min(candidates, key=lambda i: abs(i - expected))
    old, new = "\n".join(hunk.removed), "\n".join(hunk.added)
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(old), len(new)) - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    # Whole tokens read better: ``0.0 -> 1.0`` rather than ``0 -> 1``, ``== -> !=`` rather than ``= -> !``.
    prefix, end = _token_bounds(old, prefix, len(old) - suffix)
    suffix = len(old) - end

    def position(offset: int) -> Position:
        row = old.count("\n", 0, offset)
        indent = len(lines[at + row]) - len(hunk.removed[row])
        return Position(line=at + row + 1, column=indent + offset - (old.rfind("\n", 0, offset) + 1) + 1)

    start, end = position(prefix), position(len(old) - suffix)
    # mutmut dedents a method's lines: a replacement that spans lines gets the indentation back.
    dedent = " " * (len(lines[at]) - len(hunk.removed[0]))
    return Change(
        start=start,
        end=end,
        original=_between(source, start, end),
        replacement=new[prefix : len(new) - suffix].replace("\n", "\n" + dedent),
    )


def offset(source: str, position: Position) -> int:
    """The character offset of a 1-based position in ``source``."""
    lines = source.splitlines(keepends=True)
    return sum(len(line) for line in lines[: position.line - 1]) + position.column - 1


def _between(source: str, start: Position, end: Position) -> str:
    return source[offset(source, start) : offset(source, end)]
