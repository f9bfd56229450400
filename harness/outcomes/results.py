"""What every command decides, in one shape: a contract of ``harness check``, a check of ``harness probe``, a mutant.

Every writer (console, Markdown, JUnit, GitHub annotations) reads a
:class:`Result`, so one status word means the same in every report and a
failure is escaped, capped and ordered the same way whichever command found it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Status = Literal["passed", "failed", "error", "not applicable", "skipped"]
PASSED: Status = "passed"
FAILED: Status = "failed"
ERROR: Status = "error"  # went wrong before or around the assertion (collection, a fixture, a teardown)
NOT_APPLICABLE: Status = "not applicable"
SKIPPED: Status = "skipped"
PROBLEMS: tuple[Status, ...] = (FAILED, ERROR)  # a person must act


@dataclass(frozen=True)
class Quote:
    """A detail that quotes the code under test (what an agent sent, what it printed): code in Markdown."""

    label: str  # what is quoted: ``sent``, ``output``
    text: str

    def __str__(self) -> str:
        return f"  {self.label}: {self.text}"  # under the line it illustrates


Detail = str | Quote


@dataclass(frozen=True)
class Result:
    """One decided thing: its name, what it says, and where to look."""

    name: str  # a contract's node id, ``scenario::rule``, a mutant's id
    suite: str  # what it belongs to (JUnit's classname): a contract module, ``probe.SCENARIO``, ``mutants.FILE``
    status: Status
    level: str = ""  # the rule level (wire, robust, provider, policy); '' for a mutant
    capability: str = ""
    title: str = ""  # what it holds, in words
    message: str = ""  # the headline: why it failed, or why it was not run
    details: tuple[Detail, ...] = ()  # the lines under the headline
    kind: str = ""  # what a failure is (JUnit's failure type): AssertionError, a known bug's verdict
    output: str = ""  # what a result that went well has to say (JUnit's system-out)
    location: tuple[str, int] | None = None  # the file and line to annotate
    seconds: float | None = None
    case: str = ""  # JUnit's testcase name, when it is not the whole name (a probe check's rule)

    @property
    def is_problem(self) -> bool:
        return self.status in PROBLEMS

    def lines(self) -> list[str]:
        """The headline, then the details as plain text, a quote indented under the line it illustrates."""
        return [line for line in (self.message, *map(str, self.details)) if line]


def tally(results: Iterable[Result]) -> Counter[str]:
    """Results by status (every status present, zero when none)."""
    counts: Counter[str] = Counter({s: 0 for s in (PASSED, FAILED, ERROR, NOT_APPLICABLE, SKIPPED)})
    counts.update(r.status for r in results)
    return counts
