"""The report model built from a run's results, and the JSON file it is written to and read back from.

The JSON is the mutation-testing-report-schema (version 2) that Stryker's
viewer reads. Known bugs (``MutantResult``) and mutmut mutants (``MutmutRun``)
become entries of the same files; every contract any of them names is
defined in ``testFiles``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

import harness
from harness.nightly.equivalents import EQUIVALENT, OUT_OF_SCOPE, Exemption, by_line, exemption_for, strip
from harness.nightly.locate import Change, function_range, locate
from harness.outcomes.mutants import MutantResult, Position, Verdict
from harness.outcomes.score import Thresholds, report_status
from harness.report.model import FIELDS_KEY, PATCHED_BY, RUNS_KEY, Entry, Report

if TYPE_CHECKING:  # only their fields are read; importing them would load the mutation engine
    from harness.nightly.mutmut_run import MutmutMutant, MutmutRun

TEST_FILE_PREFIX = "harness/contracts/"
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


class ReportError(Exception):
    """A report cannot be read, is not a mutation report, or cannot be merged."""


def _language(file: str) -> str:
    return _LANGUAGES.get(PurePosixPath(file).suffix.lower(), "plaintext")


def _position(pos: Position | None) -> dict:
    pos = pos or _NOWHERE
    return {"line": pos.line, "column": pos.column}


def known_bug_entry(result: MutantResult) -> Entry:
    """One known bug's result; its status reason leads with ``verdict (kind): reason`` (see ``model``)."""
    mutant = result.mutant
    status_reason = result.status_line
    if result.message:
        status_reason += "\n" + result.message
    if result.engine:
        status_reason += f"\n{PATCHED_BY}{result.engine}"
    own = {"killKind": result.kind if result.verdict is Verdict.KILLED else "", "patchedBy": result.engine,
           "format": result.format}
    entry = {
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
    own = {key: value for key, value in own.items() if value}
    if own:
        entry[FIELDS_KEY] = own
    return entry


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


def mutmut_entry(mutant: MutmutMutant, source: str, exemptions: dict[tuple[str, int], Exemption]) -> Entry:
    """One mutmut mutant, located in ``source`` (the text mutmut mutated); one a pragma names says so.

    An equivalent one leaves the score (``Ignored``); an out-of-scope one keeps its status.
    Either way its reason names the pragma's line and entry, and keeps mutmut's verdict.
    """
    reason = f"mutmut: {mutant.status}"
    status = report_status(mutant.status)
    change = _change(mutant, source)
    exempt, covered = exemption_for(change, source, exemptions, mutant.file)
    own = {}
    if covered is not None:
        own = {"exemption": {"kind": exempt.kind, "reason": exempt.reason, "where": exempt.where,
                             "mutmut": mutant.status}}
        reason = f"{exempt.kind}: {exempt.reason} ({reason}; {exempt.where} {covered.text()})"
        status = "Ignored" if exempt.kind == EQUIVALENT else status
    if mutant.how:
        reason += "\n" + mutant.how
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
    if own:
        entry[FIELDS_KEY] = own
    return entry


def _mutmut_entries(run: MutmutRun) -> Iterable[tuple[str, str, Entry]]:
    exemptions = by_line(run.exemptions)
    for mutant in run.mutants:
        source = run.sources.get(mutant.file, "")
        # mutmut mutated the file without its pragmas: its diffs are found in that text,
        # whose lines (and the columns of their code) are the original's.
        pragmas = [e for e in run.exemptions if e.file == mutant.file]
        yield mutant.file, source, mutmut_entry(mutant, strip(source, pragmas), exemptions)


def _test_files(ids: Iterable[str], prefix: str = TEST_FILE_PREFIX) -> dict:
    """Every contract id (``module.py::name``) grouped by its module, as ``testFiles``."""
    files: dict[str, dict] = {}
    for test_id in sorted(set(ids)):
        module, _, name = test_id.partition("::")
        files.setdefault(prefix + module, {"tests": []})["tests"].append({"id": test_id, "name": name or test_id})
    return files


def build_report(
    known: list[MutantResult],
    mutmut: MutmutRun | None = None,
    *,
    thresholds: Thresholds | None = None,
    run: dict | None = None,
    test_file_prefix: str = TEST_FILE_PREFIX,
    project_root_label: str = "",
) -> Report:
    """The model of one run (or one shard): ``thresholds`` from ``load_thresholds``, ``run`` what it was."""
    thresholds = thresholds or Thresholds()
    entries = [(r.mutant.file, r.source, known_bug_entry(r)) for r in known]
    entries += list(_mutmut_entries(mutmut)) if mutmut else []
    files: dict[str, dict] = {}
    for file, source, entry in entries:
        slot = files.setdefault(file, {"language": _language(file), "source": "", "mutants": []})
        # A stale known bug may carry no source; take it from any sibling on the same file.
        slot["source"] = slot["source"] or source
        slot["mutants"].append(entry)
    tests = {i for r in known for i in (*r.tests, *r.covered_by, *r.killed_by)}
    tests |= {i for _, _, e in entries for i in (*e["coveredBy"], *e["killedBy"])}
    report = {
        "schemaVersion": "2",
        "thresholds": {"high": thresholds.high, "low": thresholds.low},
        "files": files,
        "testFiles": _test_files(tests, test_file_prefix),
        "framework": {"name": "harness", "version": harness.__version__},
        "config": {RUNS_KEY: {"runs": [run] if run is not None else []}},
    }
    if project_root_label:
        report["projectRoot"] = project_root_label
    return report


def write_json(report: Report, path: Path) -> None:
    path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def load_report(path: Path) -> Report:
    """A report written by :func:`write_json` (or any version 2 report); :class:`ReportError` otherwise."""
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ReportError(f"{path}: cannot read a JSON report: {exc}") from exc
    if not isinstance(report, dict) or report.get("schemaVersion") != "2" or not isinstance(report.get("files"), dict):
        raise ReportError(f"{path}: not a mutation-testing-report-schema version 2 report")
    for entry in report["files"].values():
        for mutant in entry.get("mutants", []):
            if FIELDS_KEY not in mutant and (own := _fields_from_prose(mutant.get("statusReason") or "")):
                mutant[FIELDS_KEY] = own
    return report


def _fields_from_prose(reason: str) -> dict:
    """A mutant's fields from a report written before they were fields: the prose of its status reason."""
    headline, *rest = reason.split("\n")
    own: dict = {"killKind": "crash"} if headline.startswith("killed (crash)") else {}
    engines = [line.removeprefix(PATCHED_BY) for line in rest if line.startswith(PATCHED_BY)]
    if engines:
        own["patchedBy"] = engines[-1]
    # ``KIND: reason (mutmut: STATUS; file:line `A` -> `B`)``, as mutmut_entry writes it.
    for kind in (OUT_OF_SCOPE, EQUIVALENT):
        if headline.startswith(f"{kind}: ") and " (mutmut: " in headline:
            said, _, named = headline.rpartition(" (mutmut: ")
            verdict, _, covered = named.partition("; ")
            own["exemption"] = {"kind": kind, "reason": said.removeprefix(f"{kind}: "),
                                "where": covered.split(" ", 1)[0], "mutmut": verdict}
    return own
