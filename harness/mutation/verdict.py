"""The verdict rule: a bug counts as caught only with an assertion AND reach.

Precedence: killed (a named contract failed on an assertion after executing
the patched lines) beats everything; then any red for another reason is
invalid (an error, a collection failure, or an assertion that fired without
the patched lines having run); then reached-and-green is survived; otherwise
unreached. Stale and timeout are decided before the contracts finish.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.mutation.outcome import Verdict


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    reason: str
    message: str
    covered_by: list[str]
    killed_by: list[str]


def decide(tests: dict[str, dict], collection_errors: list[str]) -> Decision:
    covered = sorted(t for t, e in tests.items() if e.get("reached"))
    killers = sorted(t for t, e in tests.items() if e["outcome"] == "assertion" and e.get("reached"))
    if killers:
        return Decision(
            Verdict.KILLED,
            f"{killers[0]} failed on an assertion after executing the patched lines",
            tests[killers[0]]["message"],
            covered,
            killers,
        )
    if collection_errors:
        return Decision(Verdict.INVALID, "the contracts could not be collected", collection_errors[0], covered, [])
    for nodeid, entry in sorted(tests.items()):
        if entry["outcome"] == "error":
            return Decision(
                Verdict.INVALID, f"{nodeid} crashed outside an assertion", entry["message"], covered, []
            )
        if entry["outcome"] == "assertion":
            return Decision(
                Verdict.INVALID,
                f"{nodeid} failed on an assertion without executing the patched lines",
                entry["message"],
                covered,
                [],
            )
    ran = [t for t, e in tests.items() if e["outcome"] != "not applicable"]
    if not ran:
        return Decision(Verdict.INVALID, "none of the named contracts ran", "", covered, [])
    if covered:
        return Decision(
            Verdict.SURVIVED,
            f"the patched lines ran under {', '.join(covered)} and every named contract stayed green",
            "",
            covered,
            [],
        )
    return Decision(
        Verdict.UNREACHED,
        f"none of the named contracts ({', '.join(sorted(ran))}) executed the patched lines",
        "",
        covered,
        [],
    )
