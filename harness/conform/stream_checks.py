"""The checks of every stream a target emitted: answered, decoded by the reference client, laid out as the format's.

``emitter-answered`` and ``emitter-decodes`` are this engine's; the layout
rules are the format row's ``stream_rules`` (one check each, named and
levelled by :data:`harness.rules.registry.RULES`), run on the body's events as
the row's framing reads them.
"""

from __future__ import annotations

from harness.clip import clip
from harness.conform.conversation import Emitted
from harness.formats import FormatSpec
from harness.outcomes.checks import FAILED, NOT_APPLICABLE, PASSED, CheckResult, Finding
from harness.rules.registry import RULES
from harness.rules.stream_faults import event_values

ANSWERED = "emitter-answered"
DECODES = "emitter-decodes"
NO_STREAM = "the target emitted no stream in this conversation"


COMMAND = "conform"


def check(scenario: str, rule: str, level: str | None = None, title: str | None = None) -> CheckResult:
    """An open check of ``rule`` in ``scenario``, named, levelled and titled by the registry unless told."""
    entry = RULES[rule]
    return CheckResult(scenario, rule, level or entry.level, title or entry.title, command=COMMAND)


def settle(result: CheckResult, reason: str = "") -> CheckResult:
    """Failed with findings; else not applicable for ``reason``, or passed."""
    result.status = FAILED if result.findings else NOT_APPLICABLE if reason else PASSED
    result.reason = "" if result.findings else reason
    return result


def stream_checks(spec: FormatSpec, scenario: str, emitted: list[Emitted]) -> list[CheckResult]:
    """One check per rule over the streams of one conversation."""
    answered, decodes = check(scenario, ANSWERED), check(scenario, DECODES)
    media = spec.framing.media_type
    for e in emitted:
        if not e.streamed:
            answered.findings.append(Finding(e.number, None, f"{e.reply.describe()} to a request the format's "
                                             "provider accepts", clip(e.reply.body.decode("utf-8", "replace"), 600),
                                             "answered"))
        elif not e.reply.content_type.split(";")[0].strip().lower() == media:
            answered.findings.append(Finding(e.number, None, f"a stream served as {e.reply.content_type!r}, "
                                             f"expected {media}"))
        if e.error:
            decodes.findings.append(Finding(e.number, None, f"the reference client refused the stream: {e.error}",
                                            clip(e.reply.body.decode("utf-8", "replace"), 600), "emitted"))
    streams = [e for e in emitted if e.streamed]
    checks = [settle(answered, "" if emitted else "no request was sent"),
              settle(decodes, "" if streams else NO_STREAM)]
    rules = spec.stream_rules
    if rules is None:
        return checks
    found = {name: check(scenario, name) for name in rules.names}
    for e in streams:
        events = spec.framing.read(e.reply.body)
        for fault in rules(event_values(events)):
            excerpt = clip(events[fault.event][1], 400) if fault.event is not None else ""
            where = f"event #{fault.event + 1}: " if fault.event is not None else ""
            found[fault.rule].findings.append(Finding(e.number, None, where + fault.detail, excerpt, "emitted"))
    return checks + [settle(result, "" if streams else NO_STREAM) for result in found.values()]
