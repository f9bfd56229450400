"""The known-bug reports: JSON valid against the vendored schema, HTML, JUnit and Markdown well formed."""

from __future__ import annotations

import copy
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from harness.outcomes.mutants import Mutant, MutantResult, Position, Verdict
from harness.outcomes.score import Thresholds
from harness.report.digest import digest
from harness.report.files import REPORT_FILES, write_reports
from harness.report.junit import xml_safe
from harness.report.markdown import render_markdown
from harness.report.model import needs_attention
from harness.report.stryker_json import build_report

SCHEMA = json.loads(
    (Path(__file__).parent / "data" / "mutation-testing-report-schema.json").read_text(encoding="utf-8")
)
ACCUMULATOR = "harness/reference/accumulator.py"
SOURCE = 'def add(calls, delta):\n    calls[delta["index"]] += delta["arguments"]\n'
# Messages as pytest writes them: quotes, markup characters, pipes, unicode, line breaks, ANSI colour.
MESSAGE = (
    "AssertionError: assert 'a|b' == \"<a & b>\"\n"
    "  - <a & b>\n"
    "  + a|b  ✗ 思考 \x1b[31mred\x1b[0m\n"
    "```inner fence```"
)


def _mutant(mutant_id: str, file: str = ACCUMULATOR, replace: str = "calls[-1]") -> Mutant:
    return Mutant(
        id=mutant_id,
        title=f"{mutant_id}: a | b <bug> & \"quote\"",
        incident="incident",
        file=file,
        find="calls[delta['index']]",
        replace=replace,
        contracts=("test_batch_pairing.py::test_pairs",),
    )


def _result(mutant: Mutant, verdict: Verdict, reason: str, **fields) -> MutantResult:
    at = {"start": Position(2, 5), "end": Position(2, 26), "source": SOURCE}
    return MutantResult(mutant=mutant, verdict=verdict, reason=reason, **{**at, **fields})


@pytest.fixture
def results() -> list[MutantResult]:
    ran = ["test_batch_pairing.py::test_pairs[deepseek]", "test_reasoning_top_level.py::test_top"]
    return [
        _result(
            _mutant("accumulate-by-position"),
            Verdict.KILLED,
            "assertion failed with reach",
            message=MESSAGE,
            covered_by=ran[:1],
            killed_by=ran[:1],
            tests=ran,
            duration=1.2345,
        ),
        _result(
            _mutant("drop-call-record", replace=""),
            Verdict.SURVIVED,
            "every contract passed | none failed",
            covered_by=ran,
            tests=ran,
        ),
        _result(_mutant("serial-only"), Verdict.UNREACHED, "no contract executed line 2", message=MESSAGE),
        _result(
            _mutant("stale-anchor", file="bridge/stream.go"),
            Verdict.STALE,
            "find text not in file",
            start=None,
            end=None,
            source="",
        ),
        _result(_mutant("syntax-error"), Verdict.INVALID, "SyntaxError: invalid syntax", message=MESSAGE),
        _result(
            _mutant("hang", file="bridge/index.mjs"), Verdict.TIMEOUT, "no answer after 30 s", tests=ran[1:]
        ),
    ]


def write(results: list[MutantResult], report_dir: Path, wall: float | None = None) -> dict[str, Path]:
    """Every report file of a known-bug run, as ``harness mutate --report-dir`` writes them."""
    report = build_report(results, run={"shard": None, "seconds": wall})
    return write_reports(report, digest(report, Thresholds()), report_dir)


def markdown(results: list[MutantResult]) -> str:
    report = build_report(results)
    return render_markdown(report, digest(report, Thresholds()))


@pytest.fixture
def paths(results: list[MutantResult], tmp_path: Path) -> dict[str, Path]:
    return write(results, tmp_path / "reports" / "mutation")


def _validator() -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(SCHEMA)
    cls.check_schema(SCHEMA)
    return cls(SCHEMA)


def _mutants(report: dict) -> dict[str, dict]:
    return {m["id"]: m for f in report["files"].values() for m in f["mutants"]}


def test_the_fixture_covers_every_verdict(results: list[MutantResult]) -> None:
    assert {r.verdict for r in results} == set(Verdict)


def test_json_report_is_valid_against_the_schema(paths: dict[str, Path]) -> None:
    report = json.loads(paths["json"].read_text(encoding="utf-8"))
    errors = [e.message for e in _validator().iter_errors(report)]
    assert errors == []
    assert report["schemaVersion"] == "2"
    assert report["framework"]["name"] == "harness"


def test_the_schema_check_can_fail(results: list[MutantResult]) -> None:
    report = build_report(results)
    bogus = copy.deepcopy(report)
    next(iter(bogus["files"].values()))["mutants"][0]["status"] = "Squashed"
    with pytest.raises(jsonschema.ValidationError, match="Squashed"):
        _validator().validate(bogus)
    unlocated = copy.deepcopy(report)
    del next(iter(unlocated["files"].values()))["mutants"][0]["location"]
    with pytest.raises(jsonschema.ValidationError, match="location"):
        _validator().validate(unlocated)


def test_json_report_groups_mutants_by_file_with_language_and_source(results: list[MutantResult]) -> None:
    files = build_report(results)["files"]
    assert {path: f["language"] for path, f in files.items()} == {
        ACCUMULATOR: "python",
        "bridge/stream.go": "go",
        "bridge/index.mjs": "javascript",
    }
    assert files[ACCUMULATOR]["source"] == SOURCE
    assert len(files[ACCUMULATOR]["mutants"]) == 4


def test_json_statuses_reasons_and_locations(results: list[MutantResult]) -> None:
    mutants = _mutants(build_report(results))
    assert {i: m["status"] for i, m in mutants.items()} == {
        r.mutant.id: r.verdict.report_status for r in results
    }
    assert mutants["hang"]["status"] == "Timeout"
    assert mutants["serial-only"]["status"] == "NoCoverage"
    killed = mutants["accumulate-by-position"]
    assert killed["statusReason"] == f"killed: assertion failed with reach\n{MESSAGE}"
    assert killed["mutatorName"] == killed["id"]
    assert killed["location"] == {"start": {"line": 2, "column": 5}, "end": {"line": 2, "column": 26}}
    assert (killed["duration"], killed["testsCompleted"]) == (1234, 2)
    assert mutants["stale-anchor"]["location"] == {
        "start": {"line": 1, "column": 1},
        "end": {"line": 1, "column": 1},
    }
    assert mutants["drop-call-record"]["replacement"] == ""


def test_every_covering_or_killing_test_is_defined(results: list[MutantResult]) -> None:
    report = build_report(results, project_root_label="/src/app", test_file_prefix="contracts/")
    defined = {t["id"]: (path, t["name"]) for path, f in report["testFiles"].items() for t in f["tests"]}
    referenced = {i for m in _mutants(report).values() for i in (*m["coveredBy"], *m["killedBy"])}
    assert referenced and referenced <= defined.keys()
    assert defined["test_batch_pairing.py::test_pairs[deepseek]"] == (
        "contracts/test_batch_pairing.py",
        "test_pairs[deepseek]",
    )
    assert report["projectRoot"] == "/src/app"


def test_junit_has_one_suite_one_case_per_mutant_and_failures_for_the_rest(
    results: list[MutantResult], paths: dict[str, Path]
) -> None:
    assert paths["junit"].read_bytes().startswith(b"<?xml version='1.0' encoding='utf-8'?>")
    root = ET.parse(paths["junit"]).getroot()
    assert root.tag == "testsuites"
    (suite,) = root.findall("testsuite")
    cases = suite.findall("testcase")
    # In the report's order: by file, and within a file as the catalogue lists them.
    assert [c.get("name") for c in cases] == [m["id"] for m in _mutants(build_report(results)).values()]
    assert sorted(c.get("name") for c in cases) == sorted(r.mutant.id for r in results)
    failed = {c.get("name") for c in cases if c.find("failure") is not None}
    assert failed == {r.mutant.id for r in results if r.verdict is not Verdict.KILLED}
    assert suite.attrib | {"time": ""} == {
        "name": "harness.mutants",
        "tests": "6",
        "failures": "5",
        "errors": "0",
        "skipped": "0",
        "time": "",
    }


def test_junit_case_carries_the_evidence(paths: dict[str, Path]) -> None:
    cases = {c.get("name"): c for c in ET.parse(paths["junit"]).getroot().iter("testcase")}
    killed = cases["accumulate-by-position"]
    assert killed.get("classname") == "mutants.accumulator"
    assert killed.get("time") == "1.234"
    assert killed.findtext("system-out").startswith(
        "killed by: test_batch_pairing.py::test_pairs[deepseek]\nkilled: assertion failed with reach\n"
    )
    failure = cases["syntax-error"].find("failure")
    assert failure.get("type") == "invalid"
    assert failure.get("message") == "invalid: SyntaxError: invalid syntax"
    # The ANSI escape is illegal in XML 1.0, so it is spelled out rather than dropped.
    assert "  + a|b  ✗ 思考 \\x1b[31mred\\x1b[0m" in failure.text
    assert "<a & b>" in failure.text
    # The same lines, in the same order, as every writer shows a result's: the headline, then the details.
    assert failure.text.startswith('invalid: SyntaxError: invalid syntax\nsyntax-error: a | b <bug> & "quote"\n')
    assert failure.text.endswith("covered by: (none)")
    assert cases["hang"].get("classname") == "mutants.index"


def test_markdown_summary(results: list[MutantResult], paths: dict[str, Path]) -> None:
    text = paths["markdown"].read_text(encoding="utf-8")
    assert text == markdown(results)
    assert "## Known bugs: 1/6 killed" in text
    assert "killed: 1 · survived: 1 · unreached: 1 · stale: 1 · invalid: 1 · timeout: 1" in text
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert len(rows) == len(results)
    # Once the escaped pipe is removed, only the five borders of a four-cell row remain.
    survived = next(row for row in rows if "drop-call-record" in row)
    assert "every contract passed \\| none failed" in survived
    assert survived.replace("\\|", "").count("|") == 5
    assert f"| {ACCUMULATOR}:2 |" in rows[0]
    assert "| bridge/stream.go |" in next(row for row in rows if "stale-anchor" in row)


def test_markdown_lists_what_needs_attention_with_messages_fenced(results: list[MutantResult]) -> None:
    text = markdown(results)
    attention = text.split("### Needs attention", 1)[1]
    assert "accumulate-by-position" not in attention
    for result in results[1:]:
        assert f"#### `{result.mutant.id}` ({result.verdict.value})\n\n- {result.status_line}" in attention
    # The message holds a triple-backtick run, so the fence around it is longer; its ANSI escape is spelled out.
    fence = attention.split("````text\n", 1)[1].split("\n````", 1)[0]
    assert xml_safe(MESSAGE) in fence and "\x1b" not in fence


def test_all_killed_needs_no_attention(results: list[MutantResult]) -> None:
    text = markdown(results[:1])
    assert "Known bugs: 1/1 killed" in text
    assert "Needs attention" not in text


def test_the_sarif_file_puts_each_mutant_to_act_on_at_its_line(paths: dict[str, Path]) -> None:
    from sarif_check import assert_uploadable

    report = json.loads(paths["json"].read_text(encoding="utf-8"))
    act_on = [(f, m) for f, entry in report["files"].items() for m in entry["mutants"] if needs_attention(m)]
    found = assert_uploadable(json.loads(paths["sarif"].read_text(encoding="utf-8")))
    assert act_on, "the sample run has no mutant to act on, so this test would check nothing"
    assert [(r["properties"]["name"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
             r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in found] == [
        (m["id"], f, m["location"]["start"]["line"]) for f, m in act_on]


def test_every_file_of_a_known_bug_run_including_the_viewer_page(paths: dict[str, Path]) -> None:
    assert sorted(p.name for p in paths["json"].parent.iterdir()) == sorted(REPORT_FILES.values())
    page = paths["html"].read_text(encoding="utf-8")
    assert "<mutation-test-report-app" in page and "<title>known-bug mutation report</title>" in page
    inlined = re.search(r'report-app"\)\.report = (.*);</script>', page).group(1)
    assert json.loads(inlined.replace("<\\/", "</")) == json.loads(paths["json"].read_text(encoding="utf-8"))


def test_the_junit_suite_time_is_the_runs_wall_time_not_a_sum_over_jobs(tmp_path: Path) -> None:
    mutant = _mutant("m")
    results = [MutantResult(mutant, Verdict.KILLED, "why", duration=d) for d in (3.0, 4.0, 5.0)]
    timed, untimed = write(results, tmp_path / "a", wall=6.5), write(results, tmp_path / "b")
    assert 'time="6.500"' in timed["junit"].read_text().split("<testcase")[0]
    assert 'time="5.000"' in untimed["junit"].read_text().split("<testcase")[0]
