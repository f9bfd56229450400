"""The nightly report: schema-valid JSON with both kinds of mutant, shard merge, HTML, Markdown, JUnit, console."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from harness.cli import main
from harness.exit_codes import BELOW_THRESHOLD as EXIT_BELOW_THRESHOLD
from harness.mutation.shard import Shard
from harness.nightly.equivalents import parse_exemptions
from harness.nightly.mutmut_run import MutmutMutant, MutmutRun
from harness.outcomes.mutants import Mutant, MutantResult, Position, Verdict
from harness.outcomes.score import Thresholds
from harness.report.console import render_console
from harness.report.digest import digest
from harness.report.files import REPORT_FILES, write_reports
from harness.report.github import annotations
from harness.report.merge import merge_reports
from harness.report.model import mutants as all_mutants
from harness.report.stryker_json import ReportError, build_report, load_report

SCHEMA = json.loads((Path(__file__).parent / "data" / "mutation-testing-report-schema.json").read_text("utf-8"))
FILE = "harness/reference/demo.py"
SOURCE = '''\
def decode(line):
    text = line.strip()  # pragma: no mutate (equivalent: `strip()` -> `strip(None)`: both strip whitespace)
    if text == "":
        return None  # pragma: no mutate (out of scope: `None` -> `""`: callers treat both as no value)
    return text.upper()
'''
CONTRACT = "test_demo.py::test_decode"
THRESHOLDS = Thresholds(high=95, low=90, break_at=90)


def _diff(removed: str, added: str) -> str:
    return "\n".join(["--- demo.py", "+++ demo.py", "@@ -2,3 +2,3 @@", f"-{removed}", f"+{added}"])


def _mutmut(n: int, status: str, removed: str, added: str, **extra) -> MutmutMutant:
    fields = {"duration": 0.25, "covered_by": (CONTRACT,), "killed_by": ()} | extra
    return MutmutMutant(f"harness.reference.demo.x_decode__mutmut_{n}", FILE, "decode", status,
                        _diff(removed, added), **fields)


MUTMUT = [
    _mutmut(1, "killed", '    if text == "":', '    if text != "":', killed_by=(CONTRACT,),
            kill_message="AssertionError: decoded='' but should be None for input b'\\n'"),
    _mutmut(2, "survived", "    return text.upper()", "    return text.lower()"),
    _mutmut(3, "no tests", "    text = line.strip()", "    text = None", covered_by=()),
    _mutmut(4, "survived", "        return None", '        return ""'),
    _mutmut(5, "timeout", "    return text.upper()", "    return None"),
    _mutmut(6, "suspicious", "    text = line.strip()", "    text = line.lstrip()"),
    _mutmut(7, "survived", "    text = line.strip()", "    text = line.strip(None)"),
]
# Line 4 of SOURCE (``return None``) names its one mutant out of scope: mutmut mutates it all the same (the
# nightly copy strips the pragmas, so its diff shows the line without it) and the mutant counts. Line 2 names
# mutant 7 equivalent (Ignored) and not mutants 3 and 6, which count like any other.
EXEMPTIONS = tuple(parse_exemptions(SOURCE, FILE))


def _known(mutant_id: str, verdict: Verdict) -> MutantResult:
    mutant = Mutant(mutant_id, f"{mutant_id} title", "incident", FILE, "text.upper()", "text", (CONTRACT,))
    return MutantResult(mutant, verdict, "why", start=Position(5, 12), end=Position(5, 24), source=SOURCE,
                        covered_by=[CONTRACT], killed_by=[CONTRACT] if verdict is Verdict.KILLED else [],
                        tests=[CONTRACT])


KNOWN = [_known("upper-dropped", Verdict.KILLED), _known("lower-case", Verdict.KILLED),
         _known("never-reached", Verdict.UNREACHED)]


def _report(known: list[MutantResult], mutmut: list[MutmutMutant], shard_spec: str | None = None) -> dict:
    run = MutmutRun(mutants=mutmut, total=len(MUTMUT), sources={FILE: SOURCE}, exemptions=EXEMPTIONS)
    return build_report(known, run, thresholds=THRESHOLDS,
                        run={"shard": shard_spec, "seed": 7, "mutmut_mutants": len(MUTMUT)})


def write_outputs(report: dict, thresholds: Thresholds, report_dir: Path) -> dict[str, Path]:
    """Every report file, as ``harness nightly --report-dir`` writes them."""
    return write_reports(report, digest(report, thresholds), report_dir)


def _validate(report: dict) -> None:
    cls = jsonschema.validators.validator_for(SCHEMA)
    assert [e.message for e in cls(SCHEMA).iter_errors(report)] == []


def _by_id(report: dict) -> dict[str, dict]:
    return {m["id"]: m for _, m in all_mutants(report)}


def test_known_bugs_and_mutmut_mutants_side_by_side_in_a_valid_report() -> None:
    report = _report(KNOWN, MUTMUT)
    _validate(report)
    assert list(report["files"]) == [FILE]
    assert report["files"][FILE]["source"] == SOURCE
    mutants = _by_id(report)
    assert {i: m["status"] for i, m in mutants.items()} == {
        "upper-dropped": "Killed",
        "lower-case": "Killed",
        "never-reached": "NoCoverage",
        "harness.reference.demo.x_decode__mutmut_1": "Killed",
        "harness.reference.demo.x_decode__mutmut_2": "Survived",
        "harness.reference.demo.x_decode__mutmut_3": "NoCoverage",
        "harness.reference.demo.x_decode__mutmut_4": "Survived",
        "harness.reference.demo.x_decode__mutmut_5": "Timeout",
        "harness.reference.demo.x_decode__mutmut_6": "RuntimeError",
        "harness.reference.demo.x_decode__mutmut_7": "Ignored",
    }
    killed = mutants["harness.reference.demo.x_decode__mutmut_1"]
    assert killed["location"] == {"start": {"line": 3, "column": 13}, "end": {"line": 3, "column": 15}}
    assert (killed["replacement"], killed["mutatorName"], killed["duration"]) == ("!=", "mutmut", 250)
    assert killed["killedBy"] == [CONTRACT]
    assert "decoded='' but should be None" in killed["statusReason"]
    assert mutants["harness.reference.demo.x_decode__mutmut_4"]["statusReason"].startswith(
        "out of scope: callers treat both as no value (mutmut: survived; harness/reference/demo.py:4 `None` -> `\"\"`)"
    )
    assert mutants["harness.reference.demo.x_decode__mutmut_7"]["statusReason"].startswith(
        "equivalent: both strip whitespace (mutmut: survived; harness/reference/demo.py:2 `strip()` -> `strip(None)`)"
    )
    # Its line's other mutants are named by no pragma: counted, with nothing but mutmut's verdict.
    assert mutants["harness.reference.demo.x_decode__mutmut_3"]["statusReason"] == "mutmut: no tests"
    assert mutants["harness.reference.demo.x_decode__mutmut_6"]["statusReason"] == "mutmut: suspicious"
    tests = {"tests": [{"id": CONTRACT, "name": "test_decode"}]}
    assert report["testFiles"] == {"harness/contracts/test_demo.py": tests}
    assert report["config"]["harness"]["runs"] == [
        {"shard": None, "seed": 7, "mutmut_mutants": 7}]


def test_the_plain_score_counts_the_out_of_scope_mutants_and_shows_them_beside() -> None:
    d = digest(_report(KNOWN, MUTMUT), THRESHOLDS)
    # detected: killed + timeout = 2; undetected: survived (one of them out of scope) + no tests = 3.
    assert d.mutmut.percent == pytest.approx(40.0)
    assert d.below_break
    assert [m["id"][-1] for _, m in d.gaps] == ["2"]  # the out-of-scope survivor is reviewed, not a gap
    assert [m["id"][-1] for _, m in d.untested] == ["3"]
    assert [m["id"][-1] for _, m in d.out_of_scope] == ["4"]
    assert [m["id"][-1] for _, m in d.equivalent] == ["7"]
    assert d.exemptions_line() == ("1 out of scope (in the score; 0 of them killed all the same); "
                                   "1 equivalent (not in the score; 0 of them killed: not equivalent)")
    assert [(pragma, [m["id"][-1] for _, m in named]) for pragma, named in d.exemptions] == [
        ("harness/reference/demo.py:2 equivalent: both strip whitespace", ["7"]),
        ("harness/reference/demo.py:4 out of scope: callers treat both as no value", ["4"]),
    ]
    assert [m["id"] for _, m in d.known_failures] == ["never-reached"]


def _slices(spec: str) -> tuple[list[MutantResult], list[MutmutMutant]]:
    """What one shard runs: the runner's share of the known bugs, the driver's share of mutmut's."""
    names = Shard.parse(spec).select(sorted(m.name for m in MUTMUT))
    return Shard.parse(spec).select(KNOWN), [m for m in MUTMUT if m.name in names]


def _content(report: dict) -> tuple:
    mutants = sorted(json.dumps(m, sort_keys=True) for _, m in all_mutants(report))
    tests = {path: sorted(t["id"] for t in f["tests"]) for path, f in report["testFiles"].items()}
    return mutants, tests, {f: e["source"] for f, e in report["files"].items()}


def test_two_shard_reports_merged_equal_one_unsharded_run() -> None:
    shards = [_report(*_slices(spec), shard_spec=spec) for spec in ("1/2", "2/2")]
    assert all(_by_id(s) for s in shards) and not set(_by_id(shards[0])) & set(_by_id(shards[1]))
    merged = merge_reports(shards)
    _validate(merged)
    assert _content(merged) == _content(_report(KNOWN, MUTMUT))
    assert [r["shard"] for r in merged["config"]["harness"]["runs"]] == ["1/2", "2/2"]


def test_merge_deduplicates_by_id() -> None:
    report = _report(KNOWN, MUTMUT)
    assert _content(merge_reports([report, report])) == _content(report)


def test_merge_refuses_a_mutant_with_two_verdicts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture) -> None:
    killed = _report(KNOWN, MUTMUT)
    survived = _report([_known("upper-dropped", Verdict.SURVIVED), *KNOWN[1:]], MUTMUT)
    with pytest.raises(ReportError, match=r"upper-dropped: Killed in A, Survived in B"):
        merge_reports([killed, survived], ["A", "B"])
    inputs = []
    for n, report in enumerate((killed, survived)):
        paths = write_outputs(report, THRESHOLDS, tmp_path / str(n))
        inputs.append(str(paths["json"]))
    monkeypatch.chdir(tmp_path)
    assert main(["report", "merge", *inputs, "-o", "merged"]) == 2
    assert "two different verdicts" in capsys.readouterr().out and not (tmp_path / "merged").exists()


def test_merged_thresholds_come_from_the_pyproject_where_merge_runs(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    paths = write_outputs(_report(KNOWN, MUTMUT), Thresholds(high=80, low=60), tmp_path / "in")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.harness.nightly]\nhigh = 97\nlow = 91\n")
    main(["report", "merge", str(paths["json"]), "-o", "merged"])
    assert json.loads((tmp_path / "merged" / "mutation-report.json").read_text())["thresholds"] == {
        "high": 97, "low": 91}


def test_merge_refuses_what_is_not_a_report(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"schemaVersion": "1", "files": {}}')
    with pytest.raises(ReportError, match="bad.json: not a mutation-testing-report-schema version 2 report"):
        load_report(bad)
    with pytest.raises(ReportError, match="cannot read"):
        load_report(tmp_path / "missing.json")


def test_report_merge_command_writes_every_file_and_exits_by_the_threshold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs = []
    for spec in ("1/2", "2/2"):
        paths = write_outputs(_report(*_slices(spec), shard_spec=spec), THRESHOLDS, tmp_path / spec[0])
        inputs.append(str(paths["json"]))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.harness.nightly]\nbreak = 90\n")
    assert main(["report", "merge", *inputs, "-o", "merged"]) == EXIT_BELOW_THRESHOLD
    assert sorted(p.name for p in (tmp_path / "merged").iterdir()) == sorted(REPORT_FILES.values())
    (tmp_path / "pyproject.toml").write_text("[tool.harness.nightly]\nbreak = 40\n")
    assert main(["report", "merge", *inputs, "-o", "merged"]) == 0
    assert main(["report", "merge", str(tmp_path / "nope.json"), "-o", "merged"]) == 2


@pytest.fixture
def written(tmp_path: Path) -> dict[str, Path]:
    return write_outputs(_report(KNOWN, MUTMUT), THRESHOLDS, tmp_path / "reports")


def test_html_is_the_standard_viewer_with_the_report_inlined(written: dict[str, Path]) -> None:
    page = written["html"].read_text(encoding="utf-8")
    # Self-contained: nothing is loaded from a path or an address; Chromium renders it in
    # benchmarks/nightly_html_screenshot.py, which CI runs.
    assert not re.search(r"<link|<iframe|<img|\ssrc=", page, re.IGNORECASE)
    assert "<mutation-test-report-app" in page and "mutation-testing-elements 3.9.0" in page
    inlined = re.search(r'report-app"\)\.report = (.*);</script>', page).group(1)
    assert json.loads(inlined.replace("<\\/", "</")) == json.loads(written["json"].read_text(encoding="utf-8"))


def test_summary_lists_each_gap_with_its_diff(written: dict[str, Path]) -> None:
    text = written["markdown"].read_text(encoding="utf-8")
    assert text.startswith("## Nightly mutation report: mutation score 40.0% (BELOW the break threshold of 90%)")
    gaps = text.split("### Contract gaps: 1 surviving mutants", 1)[1].split("\n### ", 1)[0]
    assert "#### `harness.reference.demo.x_decode__mutmut_2`" in gaps
    assert "```diff\n@@ harness/reference/demo.py:5 @@\n  " in gaps
    assert "-     return text.upper()\n+     return text.lower()" in gaps
    assert "| `harness.reference.demo.x_decode__mutmut_3` | harness/reference/demo.py:2 |" in text
    exemptions = text.split("### Exemptions: 2 pragmas name 2 mutants", 1)[1]
    assert ("- harness/reference/demo.py:2 equivalent: both strip whitespace\n"
            "  - `harness.reference.demo.x_decode__mutmut_7` `decode: (nothing) -> None`: Ignored (mutmut: survived)\n"
            "- harness/reference/demo.py:4 out of scope: callers treat both as no value\n"
            "  - `harness.reference.demo.x_decode__mutmut_4` `decode: None -> \"\"`: Survived (mutmut: survived)"
            ) in exemptions
    assert "x_decode__mutmut_3" not in exemptions and "x_decode__mutmut_6" not in exemptions  # on an exempted line, named by no pragma: not exempt
    assert "- exemptions: 1 out of scope (in the score; 0 of them killed all the same); 1 equivalent" in text
    known = text.split("### Known bugs: 2/3 killed", 1)[1].split("\n### ", 1)[0]
    assert "| `never-reached` | unreached | harness/reference/demo.py:5 | why |" in known
    assert "##### `never-reached` (unreached)\n\n- unreached: why\n\n```text\nnever-reached title\n" in known


def test_console_names_what_needs_a_person_then_the_score() -> None:
    report = _report(KNOWN, MUTMUT)
    report["config"]["harness"]["runs"][0]["seconds"] = 660
    assert render_console(digest(report, THRESHOLDS)).splitlines() == [
        "      UNREACHED  never-reached: harness/reference/demo.py:5",
        "                 unreached: why",
        "                 never-reached title",
        "                 covered by: test_demo.py::test_decode",
        "2/3 known bugs killed (2 killed, 1 unreached)",
        "mutation score (mutmut): 40.0% over 7 mutants: Survived: 2 · NoCoverage: 1 · Timeout: 1 · "
        "RuntimeError: 1 · Ignored: 1 · Killed: 1 (660s wall)",
        "exemptions: 1 out of scope (in the score; 0 of them killed all the same); 1 equivalent (not in the score; "
        "0 of them killed: not equivalent)",
        "contract gaps: 1 surviving mutmut mutants (listed in the reports)",
        "BELOW THRESHOLD: 40.0% < break 90%",
    ]


def test_junit_fails_the_gaps_and_skips_the_reviewed_out_of_scope_survivors(written: dict[str, Path]) -> None:
    suite = ET.parse(written["junit"]).getroot().find("testsuite")
    failed = {c.get("name") for c in suite.iter("testcase") if c.find("failure") is not None}
    skipped = {c.get("name") for c in suite.iter("testcase") if c.find("skipped") is not None}
    prefix = "harness.reference.demo.x_decode__mutmut_"
    assert failed == {"never-reached", prefix + "2", prefix + "3", prefix + "6"}
    assert skipped == {prefix + "4", prefix + "7"}  # the out-of-scope survivor, the equivalent mutant
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("10", "4", "2")


def test_annotations_fall_on_what_needs_a_person_and_the_junit_agrees(written: dict[str, Path]) -> None:
    lines = annotations(_report(KNOWN, MUTMUT))
    prefix = "harness.reference.demo.x_decode__mutmut_"
    # Not the killed, not the timeout (detected), not the out-of-scope survivor (reviewed).
    assert [line.split("title=", 1)[1].split("::", 1)[0] for line in lines] == [
        "unreached%3A never-reached", f"Survived%3A {prefix}2", f"NoCoverage%3A {prefix}3", f"RuntimeError%3A {prefix}6"]
    assert lines[1].startswith("::error file=harness/reference/demo.py,line=5,")
    suite = ET.parse(written["junit"]).getroot().find("testsuite")
    failed = [c.get("name") for c in suite.iter("testcase") if c.find("failure") is not None]
    assert sorted(failed) == sorted(line.split("%3A ", 1)[1].split("::", 1)[0] for line in lines)


def test_kill_kind_engine_and_exemption_are_fields_and_a_report_without_them_reads_the_same(tmp_path: Path) -> None:
    crash = MutantResult(KNOWN[0].mutant, Verdict.KILLED, "why", kind="crash", engine="copy of the project (why)",
                         start=Position(5, 12), end=Position(5, 24), source=SOURCE, covered_by=[CONTRACT],
                         killed_by=[CONTRACT], tests=[CONTRACT])
    report = _report([crash, *KNOWN[1:]], MUTMUT)
    _validate(report)
    mutants = _by_id(report)
    assert mutants["upper-dropped"]["harness"] == {"killKind": "crash", "patchedBy": "copy of the project (why)"}
    exempt = {i: m["harness"]["exemption"] for i, m in mutants.items() if "exemption" in m.get("harness", {})}
    assert sorted(e["kind"] for e in exempt.values()) == ["equivalent", "out of scope"], exempt
    # The prose is written from the fields, for the viewer; the reports read the fields.
    assert mutants["upper-dropped"]["statusReason"].startswith("killed (crash): why")
    rendered = render_console(digest(report, THRESHOLDS))
    # A report written before the fields (its mutants without ``harness``) reads back to the same fields.
    older = tmp_path / "older.json"
    stripped = json.loads(json.dumps(report))
    for _, m in all_mutants(stripped):
        m.pop("harness", None)
    older.write_text(json.dumps(stripped), encoding="utf-8")
    assert {i: m.get("harness") for i, m in _by_id(load_report(older)).items()} == {
        i: m.get("harness") for i, m in mutants.items()}
    assert render_console(digest(load_report(older), THRESHOLDS)) == rendered
