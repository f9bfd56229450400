"""The mutation report as JSON in the mutation-testing-report-schema (version 2).

Stryker's HTML viewer (mutation-testing-elements) reads this format.
"""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

import harness
from harness.mutation.outcome import MutantResult, Position
from harness.nightly.score import Thresholds

_LANGUAGES = {
    ".py": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "typescript",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".kt": "kotlin",
    ".scala": "scala",
    ".cs": "csharp",
    ".rb": "ruby",
    ".php": "php",
}
# A mutant with no anchor (a stale one) still needs a location the schema accepts.
_NOWHERE = Position(line=1, column=1)


def _language(file: str) -> str:
    return _LANGUAGES.get(PurePosixPath(file).suffix.lower(), "plaintext")


def _position(pos: Position | None) -> dict:
    pos = pos or _NOWHERE
    return {"line": pos.line, "column": pos.column}


def _mutant(result: MutantResult) -> dict:
    mutant = result.mutant
    status_reason = result.status_line
    if result.message:
        status_reason += "\n" + result.message
    if result.engine:
        status_reason += f"\npatched by: {result.engine}"
    return {
        "id": mutant.id,
        # Each known bug is its own category: the viewer groups and filters by it.
        "mutatorName": mutant.id,
        "description": mutant.title,
        "replacement": mutant.replace,
        "location": {"start": _position(result.start), "end": _position(result.end)},
        "status": result.verdict.report_status,
        "statusReason": status_reason,
        "coveredBy": list(result.covered_by),
        "killedBy": list(result.killed_by),
        "testsCompleted": len(result.tests),
        "duration": round(result.duration * 1000),
    }


def _test_files(results: list[MutantResult], prefix: str) -> dict:
    """Group every contract id the results mention by its module (``module.py::name``)."""
    ids = sorted({i for r in results for i in (*r.tests, *r.covered_by, *r.killed_by)})
    files: dict[str, dict] = {}
    for test_id in ids:
        module, _, name = test_id.partition("::")
        tests = files.setdefault(prefix + module, {"tests": []})["tests"]
        tests.append({"id": test_id, "name": name or test_id})
    return files


def build_report(
    results: list[MutantResult],
    *,
    project_root_label: str = "",
    test_file_prefix: str = "harness/contracts/",
    thresholds: Thresholds | None = None,
) -> dict:
    """The report as a dict, valid against the schema; ``thresholds`` from :func:`load_thresholds`."""
    thresholds = thresholds or Thresholds()
    files: dict[str, dict] = {}
    for result in results:
        entry = files.setdefault(
            result.mutant.file,
            {"language": _language(result.mutant.file), "source": "", "mutants": []},
        )
        # A stale mutant may carry no source; take it from any sibling on the same file.
        entry["source"] = entry["source"] or result.source
        entry["mutants"].append(_mutant(result))
    report = {
        "schemaVersion": "2",
        "thresholds": {"high": thresholds.high, "low": thresholds.low},
        "files": files,
        "testFiles": _test_files(results, test_file_prefix),
        "framework": {"name": "harness", "version": harness.__version__},
    }
    if project_root_label:
        report["projectRoot"] = project_root_label
    return report


def write_json(results: list[MutantResult], path: Path, **options) -> None:
    """Write :func:`build_report` to ``path`` (UTF-8); ``options`` go to it."""
    report = build_report(results, **options)
    path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
