"""The verdict rule: a bug counts as caught only when a named contract fails because of it, after reaching it.

A test outcome is ``passed``, ``assertion`` (the contract failed on purpose:
``assert`` or ``pytest.fail``), ``crash`` (an exception raised out of the code
under test, or a failed assertion whose cause is one: ``raise AssertionError(...)
from exc``), ``error`` (anything else: the contract's own setup, fixtures or
helpers) or ``not applicable``.

Precedence: killed (a named contract ended in an assertion or a crash after
executing the patched lines) beats everything; then any red for another reason
is invalid (a collection failure, an error outside the code under test, or a
failure without the patched lines having run); then reached-and-green is
survived; otherwise unreached. Stale and timeout are decided before the
contracts finish.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.outcomes.mutants import KILL_KINDS, Verdict

SHOWN = 3  # contract ids a one-line reason names before it only counts the rest


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    reason: str
    message: str
    covered_by: list[str]
    killed_by: list[str]
    kind: str = ""  # killed: "assertion" when any killer failed on one, else "crash"


def some(ids: list[str], noun: str = "contract") -> str:
    """``3 contracts: a, b, c`` or ``37 contracts, e.g. a, b, c``: a one-line list that stays one line."""
    plural = noun if len(ids) == 1 else noun + "s"
    if len(ids) <= SHOWN:
        return f"{len(ids)} {plural}: {', '.join(ids)}"
    return f"{len(ids)} {plural}, e.g. {', '.join(ids[:SHOWN])}"


def decide(tests: dict[str, dict], collection_errors: list[str]) -> Decision:
    covered = sorted(t for t, e in tests.items() if e.get("reached"))
    killers = sorted(t for t, e in tests.items() if e["outcome"] in KILL_KINDS and e.get("reached"))
    if killers:
        kind = "assertion" if any(tests[k]["outcome"] == "assertion" for k in killers) else "crash"
        first = next(k for k in killers if tests[k]["outcome"] == kind)
        how = (
            "failed on an assertion"
            if kind == "assertion"
            else "crashed with an exception raised out of the code under test"
        )
        others = f" (killed by {some(killers)})" if len(killers) > 1 else ""
        return Decision(
            Verdict.KILLED,
            f"{first} {how} after executing the patched lines{others}",
            tests[first]["message"],
            covered,
            killers,
            kind,
        )
    if collection_errors:
        return Decision(Verdict.INVALID, "the contracts could not run", collection_errors[0], covered, [])
    for nodeid, entry in sorted(tests.items()):
        if entry["outcome"] == "error":
            return Decision(
                Verdict.INVALID,
                f"{nodeid} failed outside the code under test (its own setup, fixtures or helpers)",
                entry["message"],
                covered,
                [],
            )
        if entry["outcome"] in KILL_KINDS:
            how = "on an assertion" if entry["outcome"] == "assertion" else "with a crash"
            return Decision(
                Verdict.INVALID,
                f"{nodeid} failed {how} without executing the patched lines",
                entry["message"],
                covered,
                [],
            )
    ran = sorted(t for t, e in tests.items() if e["outcome"] != "not applicable")
    if not ran:
        return Decision(Verdict.INVALID, "none of the named contracts ran", "", covered, [])
    if covered:
        return Decision(
            Verdict.SURVIVED,
            f"the patched lines ran under {some(covered)}; every named contract stayed green",
            "",
            covered,
            [],
        )
    return Decision(
        Verdict.UNREACHED,
        f"none of the named contracts executed the patched lines ({some(ran, 'contract')} ran)",
        "",
        covered,
        [],
    )
