"""Reviewed exemptions from mutation testing: mutmut's own pragma, beside the code, with a kind and a reason.

A line of ``harness/reference/`` that mutmut must not mutate carries, at its
end::

    return raw.decode("UTF-8")  # pragma: no mutate (equivalent: codec names are case-insensitive)
    raise StreamError(...)      # pragma: no mutate (out of scope: error wording)

mutmut reads the pragma itself (any text after ``no mutate`` is allowed), so
a developer's own ``mutmut run`` skips the line. The two kinds are kept rare
and reviewed:

``equivalent``
    no input can tell the mutants of the line from the original. They leave
    the score: mutmut never makes them.
``out of scope``
    behaviour no contract should pin for any adapter (error wording, the
    spacing of JSON text, a threshold's exact value). They stay in the score:
    the nightly run strips these pragmas in its copy, so mutmut makes and runs
    the mutants, and the report counts them beside the score.

Every pragma in the reference must name a kind and a reason
(:func:`load_exemptions` refuses one that does not), and every exemption must
still keep mutmut from making at least one mutant
(:func:`stale_exemptions`, run by the harness's own tests): an exemption
that no longer matches anything mutmut would mutate is stale.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import harness

EQUIVALENT = "equivalent"
OUT_OF_SCOPE = "out of scope"
KINDS = (EQUIVALENT, OUT_OF_SCOPE)
REFERENCE = "harness/reference"
_PRAGMA = re.compile(r"#\s*pragma:\s*no mutate\b(?P<rest>.*)$")
_REASON = re.compile(r"^\s*\((?P<kind>[a-z ]+):\s*(?P<reason>.*\S)\s*\)\s*$")


class ExemptionError(Exception):
    """A pragma without a kind and a reason, or with a kind that does not exist."""


@dataclass(frozen=True)
class Exemption:
    file: str  # relative to the project root, e.g. harness/reference/sse.py
    line: int  # 1-based
    kind: str  # equivalent | out of scope
    reason: str
    code: str  # the line's code, without the pragma
    column: int  # where the pragma comment starts (0-based)


def project_root() -> Path:
    """The directory that holds the ``harness`` package (a checkout, or site-packages)."""
    return Path(harness.__file__).resolve().parent.parent


def parse_exemptions(source: str, file: str) -> list[Exemption]:
    """Every ``# pragma: no mutate`` comment of ``source``; one without a valid kind and reason is an error."""
    found = []
    lines = source.splitlines()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        match = _PRAGMA.search(token.string)
        if match is None:
            continue
        line, column = token.start
        where = f"{file}:{line}"
        reason = _REASON.match(match.group("rest"))
        if reason is None:
            raise ExemptionError(
                f"{where}: '# pragma: no mutate' needs its kind and reason, as in "
                f"'# pragma: no mutate (equivalent: why no input tells them apart)' or "
                f"'# pragma: no mutate (out of scope: why no contract should pin it)'"
            )
        if reason.group("kind") not in KINDS:
            raise ExemptionError(f"{where}: exemption kind {reason.group('kind')!r}; expected one of {KINDS}")
        code = lines[line - 1][:column].rstrip()
        if not code.strip():
            raise ExemptionError(f"{where}: a pragma on a line of its own exempts nothing; put it at the end of the "
                                 "line it exempts")
        found.append(Exemption(file, line, reason.group("kind"), reason.group("reason"), code.strip(), column))
    return found


def load_exemptions(root: Path | None = None) -> list[Exemption]:
    """The exemptions of every file of the reference, in file and line order."""
    root = root or project_root()
    exemptions = []
    for path in sorted((root / REFERENCE).glob("*.py")):
        file = path.relative_to(root).as_posix()
        exemptions += parse_exemptions(path.read_text(encoding="utf-8"), file)
    return exemptions


def strip(source: str, exemptions: Iterable[Exemption]) -> str:
    """``source`` without the pragma comments of ``exemptions`` (each line keeps its place)."""
    lines = source.splitlines(keepends=True)
    for exemption in exemptions:
        text = lines[exemption.line - 1]
        end = "\n" if text.endswith("\n") else ""
        lines[exemption.line - 1] = text[: exemption.column].rstrip() + end
    return "".join(lines)


def out_of_scope_lines(exemptions: Iterable[Exemption]) -> dict[tuple[str, int], Exemption]:
    """(file, line) -> the out-of-scope exemption on it."""
    return {(e.file, e.line): e for e in exemptions if e.kind == OUT_OF_SCOPE}


def snippet(source: str, line: int) -> str:
    """The top-level ``def`` or ``class`` of ``source`` holding ``line``, at its own line numbers.

    mutmut only mutates inside functions and methods, so the enclosing
    top-level statement is all it needs to see to make the mutants of
    ``line``, and a small text parses in a fraction of the time the whole file
    takes. Lines before it are left blank so line numbers stay; whatever does
    not parse alone falls back to the whole source.
    """
    lines = source.splitlines(keepends=True)

    def top(i: int) -> bool:
        return bool(lines[i].strip()) and lines[i][0] not in " \t#"

    start = line - 1
    while start > 0 and not (top(start) and lines[start].startswith(("def ", "async def ", "class "))):
        start -= 1
    while start > 0 and lines[start - 1].startswith("@"):
        start -= 1
    end = line
    while end < len(lines) and not top(end):
        end += 1
    text = "\n" * start + "".join(lines[start:end])
    try:
        ast.parse(text)
    except SyntaxError:
        return source
    return text


def count_requests(exemptions: Iterable[Exemption], root: Path | None = None) -> list[dict]:
    """For each exemption, the source in which mutmut would count the mutants its pragma suppresses."""
    root = root or project_root()
    sources: dict[str, str] = {}
    requests = []
    for exemption in exemptions:
        source = sources.setdefault(exemption.file, (root / exemption.file).read_text(encoding="utf-8"))
        requests.append({"file": exemption.file, "line": exemption.line,
                         "source": snippet(strip(source, [exemption]), exemption.line)})
    return requests


def stale_exemptions(exemptions: list[Exemption], counts: list[int]) -> list[Exemption]:
    """The exemptions whose pragma keeps mutmut from making no mutant at all: nothing left to exempt."""
    return [e for e, n in zip(exemptions, counts) if n == 0]
