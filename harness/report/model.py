"""The one model of a mutation run's results: a report in the mutation-testing-report-schema, version 2.

Known bugs and mutmut mutants sit side by side in it, and every renderer
(JSON, HTML, JUnit, Markdown, console, GitHub annotations) reads this and
nothing else, so ``harness report merge`` renders from JSON files exactly
what the runs that wrote them would have. What the harness adds lives where
the schema allows it:

- a mutant's ``statusReason``: its headline on the first line (``killed
  (crash): ...``, ``survived: ...``, ``mutmut: survived``, ``out of scope:
  ...``), then the failing contract's message, then ``patched by: ...``;
  the kill kind, the engine and the exemption are written into it from the
  fields below, for the viewer, and never parsed back out of it;
- a mutant's ``harness`` object (the schema allows more properties on a
  mutant): ``killKind`` (``crash`` or ``assertion``), ``patchedBy`` and
  ``format`` (the wire format whose reference and contracts judged it) of a
  known bug, the ``exemption`` (kind, reason, where, mutmut's verdict) of a
  mutmut mutant a pragma names;
- ``config.harness.runs``: one entry per run or shard (shard, wall seconds,
  and for the nightly the seed, the contracts' tally and mutmut's counts).

A known bug's id is its catalogue id and its mutator is that id (a bug of a
catalogue several formats share: qualified by the format, ``id[gemini]``); a mutmut
mutant's id is mutmut's name (:func:`harness.outcomes.score.is_mutmut`).
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

from harness.nightly.equivalents import EQUIVALENT, OUT_OF_SCOPE
from harness.outcomes.mutants import Verdict
from harness.outcomes.results import FAILED, PASSED, SKIPPED, Result
from harness.outcomes.score import UNDETECTED, is_mutmut

Report = dict[str, Any]  # the schema's report object
Entry = dict[str, Any]  # the schema's MutantResult object

RUNS_KEY = "harness"  # config.harness.runs
FIELDS_KEY = "harness"  # a mutant's own fields
PATCHED_BY = "patched by: "
_VERDICTS = {v.report_status: v for v in Verdict}  # one status per verdict, so it reads back


def mutants(report: Report) -> list[tuple[str, Entry]]:
    """(file, mutant) for every mutant, in file order."""
    return [(file, m) for file, entry in report["files"].items() for m in entry["mutants"]]


def runs(report: Report) -> list[dict]:
    return report.get("config", {}).get(RUNS_KEY, {}).get("runs", [])


def wall_seconds(report: Report) -> float | None:
    """The longest run's wall time: shards run side by side, so their times never add up."""
    seconds = [run["seconds"] for run in runs(report) if run.get("seconds") is not None]
    return max(seconds) if seconds else None


def is_known_bug(mutant: Entry) -> bool:
    return not is_mutmut(mutant)


def label(mutant: Entry) -> str:
    """The outcome in the words of the mutant's own tool: a known bug's verdict, else the report status."""
    verdict = _VERDICTS.get(mutant["status"]) if is_known_bug(mutant) else None
    return verdict.value if verdict else mutant["status"]


def headline(mutant: Entry) -> str:
    """The first line of the status reason: what every report leads with."""
    return (mutant.get("statusReason") or label(mutant)).split("\n", 1)[0]


def without_outcome(headline: str) -> str:
    """A headline without the outcome it leads with (``verdict (kind): ``)."""
    return headline.partition(": ")[2] or headline


def details(mutant: Entry) -> str:
    """The status reason after its headline: a failing contract's message, how the patch was applied."""
    reason = mutant.get("statusReason") or ""
    return reason.split("\n", 1)[1] if "\n" in reason else ""


def fields(mutant: Entry) -> dict[str, Any]:
    """The harness's own fields of a mutant (``killKind``, ``patchedBy``, ``exemption``); empty when none."""
    return mutant.get(FIELDS_KEY) or {}


def kill_kind(mutant: Entry) -> str:
    """``crash`` for a known bug killed by an exception out of the code under test, else ``assertion`` or ''."""
    if mutant["status"] != "Killed" or not is_known_bug(mutant):
        return ""
    return fields(mutant).get("killKind") or "assertion"


def patched_by(mutant: Entry) -> str:
    """How a known bug's patch was applied (in memory, or a copy of the project and why); '' when not said."""
    return fields(mutant).get("patchedBy", "")


def format_of(mutant: Entry) -> str:
    """The wire format a known bug ran under; '' for a project's own run (or a report from before formats)."""
    return fields(mutant).get("format", "")


def exemption(mutant: Entry) -> dict[str, str]:
    """The pragma naming a mutmut mutant: ``kind``, ``reason``, ``where`` (file:line), ``mutmut``; empty when none."""
    return fields(mutant).get("exemption") or {}


def is_out_of_scope(mutant: Entry) -> bool:
    """A mutmut mutant an out-of-scope pragma names (counted in the score all the same)."""
    return exemption(mutant).get("kind") == OUT_OF_SCOPE


def is_equivalent(mutant: Entry) -> bool:
    """A mutmut mutant an equivalent pragma names (``Ignored``: out of the score)."""
    return exemption(mutant).get("kind") == EQUIVALENT


def is_exempt(mutant: Entry) -> bool:
    return bool(exemption(mutant))


def exempted_by(mutant: Entry) -> tuple[str, str]:
    """(``file:line kind: reason`` of the pragma naming an exempt mutant, ``mutmut: VERDICT``)."""
    e = exemption(mutant)
    return f"{e['where']} {e['kind']}: {e['reason']}", f"mutmut: {e['mutmut']}"


def needs_attention(mutant: Entry) -> bool:
    """A person must act: a known bug not killed; a mutmut mutant undetected or in error, unless reviewed.

    The one rule for a JUnit failure, a GitHub annotation and the Markdown's
    lists. A mutmut timeout counts as detected (as in Stryker's score); a
    survivor on an out-of-scope line was reviewed beside the code.
    """
    status = mutant["status"]
    if is_known_bug(mutant):
        return status != "Killed"
    if is_out_of_scope(mutant) and status in UNDETECTED:
        return False
    return status in (*UNDETECTED, "RuntimeError", "CompileError")


def is_skipped(mutant: Entry) -> bool:
    """Not tested (``Ignored``, ``Pending``), or an out-of-scope survivor: reviewed, nobody has to act."""
    if needs_attention(mutant):
        return False
    return mutant["status"] in ("Ignored", "Pending") or (is_out_of_scope(mutant) and mutant["status"] in UNDETECTED)


def outcome(mutant: Entry) -> str:
    """The outcome with how a known bug was killed: ``killed (crash)``, ``survived``, ``Survived``."""
    kind = kill_kind(mutant)
    return f"{label(mutant)} ({kind})" if kind else label(mutant)


def _ids(ids: list[str]) -> str:
    return ", ".join(ids) or "(none)"


def as_result(file: str, mutant: Entry) -> Result:
    """A mutant as every writer reads it: failed when a person must act, skipped when reviewed or not tested."""
    status = FAILED if needs_attention(mutant) else SKIPPED if is_skipped(mutant) else PASSED
    described = (mutant.get("description", ""),) if mutant.get("description") else ()
    covered = f"covered by: {_ids(mutant.get('coveredBy', []))}"
    killed = mutant["status"] == "Killed" and status == PASSED
    return Result(
        name=mutant["id"],
        suite=".".join(filter(None, ("mutants" if is_known_bug(mutant) else "mutmut", format_of(mutant),
                                     PurePosixPath(file).stem))),
        status=status,
        title=mutant.get("description", ""),
        message=headline(mutant),
        details=(*described, *details(mutant).splitlines(), covered) if status == FAILED else (),
        kind=outcome(mutant),  # a failure's kind is its verdict alone: a known bug that fails was not killed
        output=f"killed by: {_ids(mutant.get('killedBy', []))}\n{mutant.get('statusReason', '')}" if killed else "",
        location=(file, mutant["location"]["start"]["line"]),
        seconds=mutant.get("duration", 0) / 1000,
    )


def results(report: Report) -> list[Result]:
    """Every mutant of the report as a :class:`Result`, in file order."""
    return [as_result(file, mutant) for file, mutant in mutants(report)]
