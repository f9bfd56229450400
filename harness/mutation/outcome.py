"""What one mutant run comes to: the verdict, its reason and the evidence."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Verdict(str, Enum):
    KILLED = "killed"
    SURVIVED = "survived"
    UNREACHED = "unreached"
    STALE = "stale"
    INVALID = "invalid"
    TIMEOUT = "timeout"

    @property
    def report_status(self) -> str:
        """The status name in the mutation-testing-report-schema."""
        return _REPORT_STATUS[self]


_REPORT_STATUS = {
    Verdict.KILLED: "Killed",
    Verdict.SURVIVED: "Survived",
    Verdict.UNREACHED: "NoCoverage",
    Verdict.STALE: "CompileError",
    Verdict.INVALID: "RuntimeError",
    Verdict.TIMEOUT: "Timeout",
}


@dataclass(frozen=True)
class Position:
    line: int  # 1-based
    column: int  # 1-based


@dataclass(frozen=True)
class Mutant:
    """One known bug from the catalogue."""

    id: str
    title: str
    incident: str
    file: str  # path relative to the project root, with forward slashes
    find: str
    replace: str
    contracts: tuple[str, ...]


@dataclass
class MutantResult:
    mutant: Mutant
    verdict: Verdict
    reason: str  # one line: why this verdict
    message: str = ""  # the failing assertion's (or error's) text, if any
    start: Position | None = None  # the find text's range in the ORIGINAL file
    end: Position | None = None
    covered_by: list[str] = field(default_factory=list)  # contract ids that executed the patched lines
    killed_by: list[str] = field(default_factory=list)  # contract ids that failed on an assertion with reach
    tests: list[str] = field(default_factory=list)  # every contract id the mutant ran
    duration: float = 0.0  # seconds
    source: str = ""  # the original file's text, for reports that show it

    @property
    def status_line(self) -> str:
        """``verdict: reason``, the one line every report leads with."""
        return f"{self.verdict.value}: {self.reason}"
