"""What one mutant run comes to: the verdict, its reason and the evidence."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Literal, get_args

# How one contract ended in a mutant run. Imported only from the standard library, so the warm workers
# (which must not import ``harness``) share it too.
TestOutcome = Literal["passed", "assertion", "crash", "error", "not applicable"]
PASSED: TestOutcome = "passed"
ASSERTION: TestOutcome = "assertion"  # the contract failed on purpose
CRASH: TestOutcome = "crash"  # an exception raised out of the code under test
ERROR: TestOutcome = "error"  # anything else: the contract's own machinery, set-up or teardown
NOT_APPLICABLE: TestOutcome = "not applicable"
TEST_OUTCOMES: tuple[TestOutcome, ...] = get_args(TestOutcome)
KILL_KINDS: tuple[TestOutcome, ...] = (ASSERTION, CRASH)  # kills a mutant once the test reached the patch
RED: tuple[TestOutcome, ...] = (ASSERTION, CRASH, ERROR)  # a baseline with one of these is red


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
    duration: float = 0.0  # wall seconds
    source: str = ""  # the original file's text, for reports that show it
    kind: TestOutcome | Literal[""] = ""  # killed: one of KILL_KINDS
    engine: str = ""  # how the patch was applied (in memory, or a copy of the project), and why
    format: str = ""  # the wire format whose reference and contracts judged it ("": a project's own run)

    @property
    def status_line(self) -> str:
        """``verdict: reason`` (``killed (crash): ...`` with the kind of kill), the line every report leads with."""
        kind = f" ({self.kind})" if self.verdict is Verdict.KILLED and self.kind else ""
        return f"{self.verdict.value}{kind}: {self.reason}"


@dataclass
class RunOutcome:
    """What one run of contracts measured; the verdict rule reads it."""

    tests: dict[str, dict] = field(default_factory=dict)  # contract id -> outcome, message, duration, reached
    collection_errors: list[str] = field(default_factory=list)
    timed_out: bool = False
    wall: float = 0.0
    output_tail: str = ""
    statements: set[int] = field(default_factory=set)  # executable lines of the target file (coverage reach)
    executed: dict[int, set[str]] = field(default_factory=dict)  # line -> contexts that ran it (coverage reach)
    reach_measured: bool = False  # True: each test entry already says whether it reached the patch (markers)
    engine: str = ""  # how the patch was applied, and why when it fell back
    overhead: float | None = None  # seconds the engine spent on this mutant beyond the contracts' own time
    lines: dict[str, dict] = field(default_factory=dict)  # a baseline's line reach: file -> statements, executed


def matches(test_id: str, contract: str) -> bool:
    """A contract id names a test, a module of tests, or a test by its bare name."""
    return test_id == contract or test_id.startswith((contract + "::", contract + "[")) or test_id.endswith(
        "::" + contract
    )
