"""One conform run: the conversations, the checks of every stream, then the strictness checks."""

from __future__ import annotations

from harness.conform.conversation import CONVERSATIONS, Emitted, converse
from harness.conform.crossing import Upstream, crossing_checks
from harness.conform.stream_checks import stream_checks
from harness.conform.strictness import strictness_checks
from harness.conform.target import Target
from harness.outcomes.checks import CheckResult


def conform(target: Target, options: dict | None = None, strict: bool = True,
            upstream: Upstream | None = None) -> tuple[list[CheckResult], list[Emitted]]:
    """Every check of ``target``, and every request sent with its answer (in order).

    ``upstream``: the turns the target's upstream streamed (a gateway in front of the loopback), which the
    target's own turns are then held to (:mod:`.crossing`), before any strictness request is sent.
    """
    log: list[Emitted] = []
    converse(target, log, options)
    checks = [check for conversation in CONVERSATIONS
              for check in stream_checks(target.spec, conversation.name,
                                         [e for e in log if e.conversation == conversation.name])]
    if upstream is not None:
        checks += crossing_checks(log, upstream)
    if strict:
        checks += strictness_checks(target, log)
    return checks, log
