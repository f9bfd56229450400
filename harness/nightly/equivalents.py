"""Reviewed exemptions from mutation testing, per mutant: mutmut's pragma, beside the code, naming what it covers.

A line of ``harness/reference/`` whose mutants no contract should kill ends
with the pragma, its kind, the mutants it covers and its reason::

    return raw.decode("UTF-8")  # pragma: no mutate (equivalent: `"UTF-8"` -> `"utf-8"`: codec names are case-insensitive)
    raise StreamError(n, "bad")  # pragma: no mutate (out of scope: `"bad"` -> *: error wording)

Each mutant is named as ``ORIGINAL -> REPLACEMENT``, both in backticks: the
mutant turns the line's text ``ORIGINAL`` into ``REPLACEMENT`` (an empty
replacement, a removed argument, is ````), or ``ORIGINAL -> *``: every
mutant that changes only text inside ``ORIGINAL``. ``ORIGINAL`` may carry
context to tell two places of the line apart (``size > budget`` ->
``size >= budget``). Several are separated by commas. The other mutants of the
line are not exempt: the nightly copy strips every pragma, mutmut makes and
runs every mutant, and the report classifies each by :func:`covering`:

``equivalent``
    no input can tell the mutant from the original: reported ``Ignored``,
    out of the score (its mutmut verdict stays in the reason, so a killed
    "equivalent" shows the claim is wrong).
``out of scope``
    behaviour no contract should pin for any adapter (error wording, a
    threshold's exact value): in the score, marked, listed apart from the gaps.

mutmut itself still honours the pragma per line, so a developer's own
``mutmut run`` skips the whole line. A pragma without a kind, a mutant and a
reason is refused (:func:`load_exemptions`), and so is one naming a mutant
mutmut does not make on its line (:func:`unmade`, run before the nightly and
by the harness's own tests): the code changed under it.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import harness
from harness.nightly.locate import Change

EQUIVALENT = "equivalent"
OUT_OF_SCOPE = "out of scope"
KINDS = (EQUIVALENT, OUT_OF_SCOPE)
REFERENCE = "harness/reference"
ANY = "*"
_PRAGMA = re.compile(r"#\s*pragma:\s*no mutate\b(?P<rest>.*)$")
_MUTANT = r"`[^`]+`\s*->\s*(?:`[^`]*`|\*)"
_REASON = re.compile(
    rf"^\s*\((?P<kind>[a-z ]+):\s*(?P<mutants>{_MUTANT}(?:\s*,\s*{_MUTANT})*)\s*:\s*(?P<reason>.*\S)\s*\)\s*$"
)
_ONE = re.compile(r"`(?P<original>[^`]+)`\s*->\s*(?:`(?P<replacement>[^`]*)`|\*)")
_SYNTAX = ("'# pragma: no mutate (KIND: `ORIGINAL` -> `REPLACEMENT`[, ...]: REASON)', KIND one of "
           "equivalent, out of scope; `ORIGINAL` -> * for every mutant inside ORIGINAL")


class ExemptionError(Exception):
    """A pragma without a kind, a mutant and a reason; a kind that does not exist; a mutant mutmut does not make."""


@dataclass(frozen=True)
class Covered:
    """One ``ORIGINAL -> REPLACEMENT`` of a pragma; ``replacement`` None is ``*``."""

    original: str
    replacement: str | None

    def matches(self, line: str, mutated: str) -> bool:
        """``mutated`` is ``line`` with one occurrence of ``original`` replaced (by ``replacement``, or by anything)."""
        if mutated == line:
            return False
        at = line.find(self.original)
        while at >= 0:
            before, after = line[:at], line[at + len(self.original) :]
            if self.replacement is not None:
                if before + self.replacement + after == mutated:
                    return True
            elif mutated.startswith(before) and mutated.endswith(after) and len(mutated) >= len(before) + len(after):
                return True
            at = line.find(self.original, at + 1)
        return False

    def text(self) -> str:
        return f"`{self.original}` -> " + (ANY if self.replacement is None else f"`{self.replacement}`")


@dataclass(frozen=True)
class Exemption:
    file: str  # relative to the project root, e.g. harness/reference/sse.py
    line: int  # 1-based
    kind: str  # equivalent | out of scope
    reason: str
    code: str  # the line's code, without the pragma
    column: int  # where the pragma comment starts (0-based)
    covers: tuple[Covered, ...] = ()

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def covering(self, mutated: str) -> Covered | None:
        """The entry of this pragma that names the mutant turning the line into ``mutated``, if any."""
        return next((c for c in self.covers if c.matches(self.code, mutated.strip())), None)


def project_root() -> Path:
    """The directory that holds the ``harness`` package (a checkout, or site-packages)."""
    return Path(harness.__file__).resolve().parent.parent


def parse_exemptions(source: str, file: str) -> list[Exemption]:
    """Every ``# pragma: no mutate`` comment of ``source``; one without a kind, a mutant and a reason is an error."""
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
            raise ExemptionError(f"{where}: '# pragma: no mutate' needs its kind, the mutants it covers and its "
                                 f"reason, as in {_SYNTAX}")
        if reason.group("kind") not in KINDS:
            raise ExemptionError(f"{where}: exemption kind {reason.group('kind')!r}; expected one of {KINDS}")
        code = lines[line - 1][:column].rstrip()
        if not code.strip():
            raise ExemptionError(f"{where}: a pragma on a line of its own exempts nothing; put it at the end of the "
                                 "line it exempts")
        covers = tuple(Covered(m.group("original"), m.group("replacement"))
                       for m in _ONE.finditer(reason.group("mutants")))
        found.append(Exemption(file, line, reason.group("kind"), reason.group("reason"), code.strip(), column, covers))
    return found


def load_exemptions(root: Path | None = None) -> list[Exemption]:
    """The exemptions of every file of the reference, in file and line order."""
    root = root or project_root()
    exemptions = []
    for path in sorted((root / REFERENCE).rglob("*.py")):  # every format's folder too
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


def by_line(exemptions: Iterable[Exemption]) -> dict[tuple[str, int], Exemption]:
    """(file, line) -> the exemption on it."""
    return {(e.file, e.line): e for e in exemptions}


def exemption_for(change: Change | None, source: str, exemptions: dict[tuple[str, int], Exemption], file: str
                  ) -> tuple[Exemption | None, Covered | None]:
    """The pragma naming this mutant, and its entry that does: one on the changed line, naming the text the line becomes.

    ``source`` is the text mutmut mutated (pragmas stripped); (None, None) when no pragma names it.
    """
    if change is None or change.start.line != change.end.line or "\n" in change.replacement:
        return None, None
    exemption = exemptions.get((file, change.start.line))
    if exemption is None:
        return None, None
    line = source.splitlines()[change.start.line - 1]
    mutated = line[: change.start.column - 1] + change.replacement + line[change.end.column - 1 :]
    return exemption, exemption.covering(mutated)


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


def mutant_requests(exemptions: Iterable[Exemption], root: Path | None = None) -> list[dict]:
    """For each exemption, the source in which mutmut makes the mutants of its line (its pragma removed)."""
    root = root or project_root()
    sources: dict[str, str] = {}
    requests = []
    for exemption in exemptions:
        source = sources.setdefault(exemption.file, (root / exemption.file).read_text(encoding="utf-8"))
        requests.append({"file": exemption.file, "line": exemption.line,
                         "source": snippet(strip(source, [exemption]), exemption.line)})
    return requests


def unmade(exemptions: Sequence[Exemption], mutated: Sequence[Sequence[str]]) -> list[str]:
    """One error per pragma entry that names no mutant mutmut makes on its line (``mutated``: each line's mutants)."""
    errors = []
    for exemption, lines in zip(exemptions, mutated):
        for covered in exemption.covers:
            if not any(covered.matches(exemption.code, line.strip()) for line in lines):
                made = "; ".join(line.strip() for line in lines) or "none"
                errors.append(f"{exemption.where}: {covered.text()} names no mutant mutmut makes on this line "
                              f"(the mutated lines it makes: {made})")
    return errors
