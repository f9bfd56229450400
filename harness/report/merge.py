"""Shard reports joined into one: each file's mutants united by id, ``testFiles`` united, the runs listed."""

from __future__ import annotations

from harness.outcomes.score import Thresholds
from harness.report.model import RUNS_KEY, Report, mutants, runs
from harness.report.stryker_json import ReportError


def _conflicts(reports: list[Report], labels: list[str]) -> list[str]:
    verdicts: dict[str, tuple[str, str]] = {}
    conflicts = []
    for label, report in zip(labels, reports):
        for _, mutant in mutants(report):
            status = mutant.get("status")
            first = verdicts.setdefault(mutant["id"], (status, label))
            if first[0] != status:
                conflicts.append(f"{mutant['id']}: {first[0]} in {first[1]}, {status} in {label}")
    return conflicts


def merge_reports(reports: list[Report], labels: list[str] | None = None, thresholds: Thresholds | None = None) -> Report:
    """The reports joined; ``thresholds`` (from ``load_thresholds``) replace the inputs' own.

    A mutant that two reports give different statuses is refused
    (:class:`ReportError` naming both), never settled by report order.
    """
    if not reports:
        raise ReportError("nothing to merge")
    conflicts = _conflicts(reports, labels or [f"report #{n}" for n in range(1, len(reports) + 1)])
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
        "config": {RUNS_KEY: {"runs": [run for report in reports for run in runs(report)]}},
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
    return merged
