"""One rule of ``harness probe`` or ``harness conform`` checked once: passed, failed with findings, or not applicable with the reason."""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.outcomes.results import FAILED, NOT_APPLICABLE, PASSED, Detail, Quote, Result, Status

__all__ = ["FAILED", "NOT_APPLICABLE", "PASSED", "CheckResult", "Finding"]


@dataclass
class Finding:
    request: int | None  # the request's number in the session's record
    message_index: int | None
    detail: str
    excerpt: str = ""
    label: str = "sent"  # what the excerpt is: what the agent sent, or its own output

    def describe(self) -> str:
        where = "" if self.request is None else f"request #{self.request}" + (
            f", message #{self.message_index}" if self.message_index is not None else "") + ": "
        return where + self.detail

    def details(self) -> list[Detail]:
        """The finding, then its excerpt (when it has one) quoted under it."""
        return [self.describe(), *([Quote(self.label, self.excerpt)] if self.excerpt else [])]


@dataclass
class CheckResult:
    scenario: str
    rule: str
    level: str
    title: str
    status: Status = PASSED
    findings: list[Finding] = field(default_factory=list)
    reason: str = ""  # why not applicable
    command: str = "probe"  # the command that checked it: its results' suite is ``command.scenario``

    @property
    def name(self) -> str:
        return f"{self.scenario}::{self.rule}"

    def result(self) -> Result:
        """The check as every writer reads it: a failure leads with its first finding, every other one below."""
        lines = [detail for finding in self.findings for detail in finding.details()] if self.status == FAILED else []
        message = f"not applicable: {self.reason}" if self.status == NOT_APPLICABLE else ""
        if lines and isinstance(lines[0], str):
            message = lines.pop(0)
        return Result(
            name=self.name, suite=f"{self.command}.{self.scenario}", status=self.status, level=self.level, title=self.title,
            message=message, details=tuple(lines),
            kind="AssertionError" if self.status == FAILED else "", case=self.rule,
        )
