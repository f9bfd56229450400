"""Applying one known bug to a source text: exact find/replace, or a drop."""

from __future__ import annotations

from dataclasses import dataclass

from harness.outcomes.mutants import Position


class StalePatch(Exception):
    """The anchor text is missing or ambiguous: the catalogue drifted from the code."""


@dataclass(frozen=True)
class AppliedPatch:
    text: str  # the patched source
    start: Position  # the find text's range in the original source
    end: Position
    first_line: int  # the replacement's line range in the patched source (1-based)
    last_line: int


def _position(source: str, offset: int) -> Position:
    line = source.count("\n", 0, offset) + 1
    return Position(line=line, column=offset - (source.rfind("\n", 0, offset) + 1) + 1)


def _drop_replacement(source: str, at: int, find: str, python: bool) -> str:
    """What stands in for dropped whole lines of Python statements: ``pass`` at their indentation.

    It keeps an emptied block valid, and it is a statement on the spot where
    the dropped code was, so reach can still be measured there. Lines inside
    an expression (an entry of a dict written over several lines) are simply
    deleted: a ``pass`` there would not compile. Other languages get no stand-in.
    """
    starts_line = at == 0 or source[at - 1] == "\n"
    ends_line = find.endswith("\n") or at + len(find) == len(source) or source[at + len(find)] == "\n"
    if not (python and starts_line and ends_line):
        return ""
    indent = find[: len(find) - len(find.lstrip(" \t"))]
    stand_in = indent + "pass" + ("\n" if find.endswith("\n") else "")
    return stand_in if _compiles(source[:at] + stand_in + source[at + len(find) :]) else ""


def _compiles(text: str) -> bool:
    try:
        compile(text, "<patched>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def apply_patch(source: str, find: str, replace: str, *, python: bool = True) -> AppliedPatch:
    """``find`` (exactly once in ``source``) replaced; an empty ``replace`` drops it (``python``: the file is Python)."""
    count = source.count(find)
    if count == 0:
        raise StalePatch("the find text does not occur in the file")
    if count > 1:
        raise StalePatch(f"the find text occurs {count} times in the file; it must occur exactly once")
    at = source.index(find)
    replacement = replace if replace else _drop_replacement(source, at, find, python)
    patched = source[:at] + replacement + source[at + len(find) :]
    first_line = source.count("\n", 0, at) + 1
    last_line = first_line + replacement.rstrip("\n").count("\n")
    end_offset = at + len(find.rstrip("\n")) - 1 if find.rstrip("\n") else at
    return AppliedPatch(
        text=patched,
        start=_position(source, at),
        end=_position(source, max(at, end_offset) + 1),
        first_line=first_line,
        last_line=last_line,
    )
