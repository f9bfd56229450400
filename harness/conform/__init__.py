"""``harness conform``: the harness as a strict client of one wire format, against a server or gateway that emits it.

The reference client of the format (its row's bundled reference: the kernel
that plays the tool loop, the codec that writes the requests and decodes the
streams, each held to the contracts) runs scripted conversations against the
target (:mod:`.conversation`); every stream the target emits is judged event
by event by the format's stream rules and decoded by the reference client
(:mod:`.stream_checks`); then requests the format's provider refuses are sent
on purpose, each bent from one the target accepted and each judged refused by
the format's own history rules first (:mod:`.strictness`). When the target's
upstream is known (a gateway in front of the loopback), each emitted turn is
also held to the one its upstream streamed (:mod:`.crossing`). Each rule is a check
(:class:`harness.outcomes.checks.CheckResult`) at its registry level, in the
reports ``check`` and ``probe`` write.
"""

from harness.conform.run import conform
from harness.conform.target import Target, TargetError

__all__ = ["Target", "TargetError", "conform"]
