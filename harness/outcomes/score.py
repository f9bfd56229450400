"""Mutant statuses, the mutation score and the thresholds that judge it.

The score is Stryker's: detected / (detected + undetected), where detected is
Killed + Timeout and undetected is Survived + NoCoverage. Ignored, Pending and
the error statuses count in neither.

Thresholds live in ``[tool.harness.nightly]`` of the ``pyproject.toml`` in the
directory the command runs from::

    [tool.harness.nightly]
    high = 95    # at or above: the report shows the score green
    low = 90     # below: red; in between: amber
    break = 90   # below: the run exits with exit_codes.BELOW_THRESHOLD (omit: never)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from harness.config.pyproject import read_tool_table
from harness.config.table_schema import check

# mutmut's status names (mutmut.stats.status_by_exit_code) in the report schema's terms.
MUTMUT_STATUS = {
    "killed": "Killed",
    "survived": "Survived",
    "no tests": "NoCoverage",
    "timeout": "Timeout",
    "suspicious": "RuntimeError",
    "segfault": "RuntimeError",
    "skipped": "Ignored",
    "caught by type check": "CompileError",
    "not checked": "Pending",
    "check was interrupted by user": "Pending",
}
DETECTED = ("Killed", "Timeout")
UNDETECTED = ("Survived", "NoCoverage")
# A mutmut mutant's id is its mutmut name, which always holds this marker;
# a known bug's id is a catalogue id ([a-z0-9-]), which never can.
MUTMUT_MARKER = "__mutmut_"


class ThresholdError(Exception):
    """The thresholds table is malformed."""


def report_status(mutmut_status: str) -> str:
    """The report status for a mutmut status; an unknown one is an error, never a pass."""
    return MUTMUT_STATUS.get(mutmut_status, "RuntimeError")


def is_mutmut(mutant: dict) -> bool:
    return MUTMUT_MARKER in mutant["id"]


@dataclass(frozen=True)
class Score:
    counts: Counter

    @property
    def detected(self) -> int:
        return sum(self.counts[s] for s in DETECTED)

    @property
    def undetected(self) -> int:
        return sum(self.counts[s] for s in UNDETECTED)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def percent(self) -> float | None:
        """None when nothing was detected or undetected: there is no score to judge."""
        valid = self.detected + self.undetected
        return 100.0 * self.detected / valid if valid else None

    def text(self) -> str:
        return "n/a" if self.percent is None else f"{self.percent:.1f}%"


def score(mutants: Iterable[dict]) -> Score:
    return Score(Counter(m["status"] for m in mutants))


@dataclass(frozen=True)
class Thresholds:
    high: int = 80
    low: int = 60
    break_at: int | None = None

    def below_break(self, result: Score) -> bool:
        return self.break_at is not None and result.percent is not None and result.percent < self.break_at

    def band(self, result: Score) -> str:
        """``high``, ``medium`` or ``low``, for colouring; ``none`` without a score."""
        if result.percent is None:
            return "none"
        if result.percent >= self.high:
            return "high"
        return "medium" if result.percent >= self.low else "low"


def load_thresholds(pyproject: Path) -> Thresholds:
    """``[tool.harness.nightly]`` from ``pyproject``; the defaults when the file or table is absent.

    Its shape is ``harness/schemas/nightly.json``; the order of the two bands is checked here.
    """
    found = read_tool_table(pyproject, "nightly", ThresholdError)
    check("nightly.json", found.table, found.place, ThresholdError)
    table = found.table
    values = {"high": table.get("high", Thresholds.high), "low": table.get("low", Thresholds.low)}
    if "break" in table:
        values["break_at"] = table["break"]
    if values["low"] > values["high"]:
        raise ThresholdError(f"{found.place((), 'low')}low ({values['low']}) must not exceed high ({values['high']})")
    return Thresholds(**values)
