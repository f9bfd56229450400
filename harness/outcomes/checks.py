"""One rule checked once: passed, failed with findings, or not applicable with the reason."""

from __future__ import annotations

from dataclasses import dataclass, field

PASSED, FAILED, NOT_APPLICABLE = "passed", "failed", "not applicable"


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


@dataclass
class CheckResult:
    scenario: str
    rule: str
    level: str
    title: str
    status: str = PASSED
    findings: list[Finding] = field(default_factory=list)
    reason: str = ""  # why not applicable

    @property
    def name(self) -> str:
        return f"{self.scenario}::{self.rule}"
