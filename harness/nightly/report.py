"""The nightly report: known bugs and mutmut mutants side by side in one schema-valid JSON.

It starts from the known-bug report (``harness.mutation.report_json``) and adds
one entry per mutmut mutant to the same file entries. A mutmut mutant's id is
its mutmut name, so ``mutmut show <id>`` works on it; its mutator is
``mutmut``. What each run was (shard, Hypothesis seed, the contracts' result)
goes in the schema's free-form ``config`` under ``harness-nightly``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from harness.mutation.outcome import MutantResult, Position
from harness.mutation.report_json import build_report
from harness.nightly.equivalents import OUT_OF_SCOPE, Exemption, out_of_scope_lines, strip
from harness.nightly.locate import Change, function_range, locate
from harness.nightly.mutmut_run import MutmutMutant, MutmutRun
from harness.nightly.score import Thresholds, report_status

NIGHTLY = "harness-nightly"
TEST_FILE_PREFIX = "harness/contracts/"


class ReportError(Exception):
    """A report to merge cannot be read or is not a mutation report."""


def _position(pos: Position) -> dict:
    return {"line": pos.line, "column": pos.column}


def _change(mutant: MutmutMutant, source: str) -> Change | None:
    try:
        return locate(mutant.diff, source, mutant.function)
    except (LookupError, SyntaxError):
        return None


def _short(code: str, limit: int = 60) -> str:
    one_line = " ".join(code.split())
    if not one_line:
        return "(nothing)"
    return one_line if len(one_line) <= limit else one_line[: limit - 3] + "..."


OUT_OF_SCOPE_PREFIX = "out of scope: "


def is_out_of_scope(entry: dict) -> bool:
    """A mutmut mutant on a line the reference exempts as out of scope (counted in the score all the same)."""
    return entry.get("statusReason", "").startswith(OUT_OF_SCOPE_PREFIX)


def mutmut_entry(mutant: MutmutMutant, source: str, out_of_scope: dict[tuple[str, int], Exemption]) -> dict:
    """One mutmut mutant as a schema ``MutantResult``; one on an out-of-scope line says so, status unchanged."""
    status = report_status(mutant.status)
    reason = f"mutmut: {mutant.status}"
    change = _change(mutant, source)
    exempt = out_of_scope.get((mutant.file, change.start.line)) if change is not None else None
    if exempt is not None:
        reason = f"{OUT_OF_SCOPE_PREFIX}{exempt.reason} ({reason})"
    if mutant.kill_message:
        reason += "\n" + mutant.kill_message
    if change is None:
        # Never drop a mutant for want of a location: anchor it at its function, diff in the reason.
        try:
            line = function_range(source, mutant.function)[0]
        except (LookupError, SyntaxError):
            line = 1
        change = Change(Position(line, 1), Position(line, 1), "", "")
        reason += "\n" + mutant.diff
    entry = {
        "id": mutant.name,
        "mutatorName": "mutmut",
        "description": f"{mutant.function}: {_short(change.original)} -> {_short(change.replacement)}",
        "replacement": change.replacement,
        "location": {"start": _position(change.start), "end": _position(change.end)},
        "status": status,
        "statusReason": reason,
        "coveredBy": list(mutant.covered_by),
        "killedBy": list(mutant.killed_by),
    }
    if mutant.duration is not None:
        entry["duration"] = round(mutant.duration * 1000)
    return entry


def add_tests(report: dict, ids: Iterable[str]) -> None:
    """Define every contract id in ``testFiles`` (grouped by module), keeping what is there."""
    for test_id in ids:
        module, _, name = test_id.partition("::")
        tests = report.setdefault("testFiles", {}).setdefault(TEST_FILE_PREFIX + module, {"tests": []})["tests"]
        if all(t["id"] != test_id for t in tests):
            tests.append({"id": test_id, "name": name or test_id})


def _add_mutant(report: dict, file: str, source: str, entry: dict) -> None:
    files = report["files"]
    slot = files.setdefault(file, {"language": "python", "source": source, "mutants": []})
    slot["source"] = slot["source"] or source
    slot["mutants"].append(entry)


def build_nightly_report(
    known: list[MutantResult],
    mutmut: MutmutRun | None,
    thresholds: Thresholds,
    run: dict,
) -> dict:
    """The merged report of one nightly run (or one shard of it)."""
    report = build_report(known, test_file_prefix=TEST_FILE_PREFIX, thresholds=thresholds)
    exemptions = mutmut.exemptions if mutmut else ()
    out_of_scope = out_of_scope_lines(exemptions)
    for mutant in mutmut.mutants if mutmut else ():
        source = mutmut.sources.get(mutant.file, "")
        # mutmut mutated the file without its out-of-scope pragmas: its diffs are found in that text,
        # whose lines (and the columns of their code) are the original's.
        mutated = strip(source, [e for e in exemptions if e.file == mutant.file and e.kind == OUT_OF_SCOPE])
        _add_mutant(report, mutant.file, source, mutmut_entry(mutant, mutated, out_of_scope))
        add_tests(report, (*mutant.covered_by, *mutant.killed_by))
    report["config"] = {NIGHTLY: {"runs": [run]}}
    return report


def load_report(path: Path) -> dict:
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ReportError(f"{path}: cannot read a JSON report: {exc}") from exc
    if not isinstance(report, dict) or report.get("schemaVersion") != "2" or not isinstance(report.get("files"), dict):
        raise ReportError(f"{path}: not a mutation-testing-report-schema version 2 report")
    return report


def merge_reports(reports: list[dict], labels: list[str] | None = None, thresholds: Thresholds | None = None) -> dict:
    """Shard reports joined: each file's mutants united by id, testFiles united, the runs listed.

    A mutant that two reports give different statuses is refused
    (:class:`ReportError` naming both), never settled by report order.
    ``thresholds`` (from :func:`load_thresholds`) replace the inputs' own.
    """
    if not reports:
        raise ReportError("nothing to merge")
    labels = labels or [f"report #{n}" for n in range(1, len(reports) + 1)]
    verdicts: dict[str, tuple[str, str]] = {}
    conflicts = []
    for label, report in zip(labels, reports):
        for mutant in (m for entry in report["files"].values() for m in entry["mutants"]):
            status = mutant.get("status")
            if mutant["id"] in verdicts and verdicts[mutant["id"]][0] != status:
                first_status, first_label = verdicts[mutant["id"]]
                conflicts.append(f"{mutant['id']}: {first_status} in {first_label}, {status} in {label}")
            verdicts.setdefault(mutant["id"], (status, label))
    if conflicts:
        raise ReportError(
            f"{len(conflicts)} mutant(s) with two different verdicts; merge reports of one run's shards only, "
            "or rerun the shard in doubt:\n  " + "\n  ".join(conflicts)
        )
    first = reports[0]
    merged = {
        "schemaVersion": "2",
        "thresholds": {"high": thresholds.high, "low": thresholds.low} if thresholds else dict(first["thresholds"]),
        "files": {},
        "testFiles": {},
        "config": {NIGHTLY: {"runs": []}},
    }
    if "framework" in first:
        merged["framework"] = first["framework"]
    seen: set[str] = set()
    for report in reports:
        for file, entry in report["files"].items():
            slot = merged["files"].setdefault(file, {"language": entry["language"], "source": "", "mutants": []})
            slot["source"] = slot["source"] or entry.get("source", "")
            for mutant in entry["mutants"]:
                if mutant["id"] not in seen:
                    seen.add(mutant["id"])
                    slot["mutants"].append(mutant)
        for path, test_file in report.get("testFiles", {}).items():
            tests = merged["testFiles"].setdefault(path, {"tests": []})["tests"]
            known = {t["id"] for t in tests}
            tests += [t for t in test_file["tests"] if t["id"] not in known]
        merged["config"][NIGHTLY]["runs"] += report.get("config", {}).get(NIGHTLY, {}).get("runs", [])
    return merged


def all_mutants(report: dict) -> list[tuple[str, dict]]:
    """(file, mutant) for every mutant, in file order."""
    return [(file, m) for file, entry in report["files"].items() for m in entry["mutants"]]


def write_json(report: dict, path: Path) -> None:
    path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
