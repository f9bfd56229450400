"""One conform run: the conversations, the checks of every stream, then the strictness checks."""

from __future__ import annotations

from harness.conform.conversation import CONVERSATIONS, Emitted, converse
from harness.conform.stream_checks import stream_checks
from harness.conform.strictness import strictness_checks
from harness.conform.target import Target
from harness.outcomes.checks import CheckResult


def conform(target: Target, options: dict | None = None, strict: bool = True) -> tuple[list[CheckResult], list[Emitted]]:
    """Every check of ``target``, and every request sent with its answer (in order)."""
    log: list[Emitted] = []
    converse(target, log, options)
    checks = [check for conversation in CONVERSATIONS
              for check in stream_checks(target.spec, conversation.name,
                                         [e for e in log if e.conversation == conversation.name])]
    if strict:
        checks += strictness_checks(target, log)
    return checks, log
