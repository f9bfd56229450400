"""Expectations files of ``harness check``: read and checked, written back, and the judgement of a run's results."""

import json
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness import exit_codes
from harness.cli import main
from harness.cli.check_session import contract_result
from harness.cli.expectations import ERRORING, FAILING, PASSING, judge, outcomes, reported, summary_lines
from harness.cli.expectations_file import (
    FAIL,
    PENDING,
    Expectation,
    ExpectationsError,
    empty_expectations,
    read_expectations,
    write_expectations,
)
from harness.outcomes.results import ERROR, FAILED, NOT_APPLICABLE, PASSED, SKIPPED

GOOD_TOML = """\
# langchain-openai, robust level
[contracts."test_stream_end.py::test_usage_keeps_every_key_sent"]
status = "fail"   # the usage object is not kept
reason = "LangChain keeps no copy of the usage object"
finding = "langchain-core-tool-call-chunks-merged-by-arrival"

[contracts."test_sse_framing.py::test_every_framing_parses_like_the_plain_one"]
status = "pending"
"""
GOOD_ENTRIES = {
    "test_stream_end.py::test_usage_keeps_every_key_sent": Expectation(
        FAIL, "LangChain keeps no copy of the usage object", "langchain-core-tool-call-chunks-merged-by-arrival"),
    "test_sse_framing.py::test_every_framing_parses_like_the_plain_one": Expectation(PENDING),
}


def _file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _error(path: Path) -> str:
    with pytest.raises(ExpectationsError) as info:
        read_expectations(path)
    return str(info.value)


# --- reading -------------------------------------------------------------------------------------


def test_a_toml_and_a_json_file_with_the_same_entries_read_the_same(tmp_path):
    toml = read_expectations(_file(tmp_path, "e.toml", GOOD_TOML))
    as_json = {"contracts": {cid: {k: v for k, v in vars(e).items() if v} for cid, e in GOOD_ENTRIES.items()}}
    json_file = read_expectations(_file(tmp_path, "e.json", json.dumps(as_json)))
    assert toml.entries == GOOD_ENTRIES, toml.entries
    assert json_file.entries == GOOD_ENTRIES, json_file.entries
    assert list(toml.entries) == list(GOOD_ENTRIES), "entries keep the file's order"


def test_an_empty_file_expects_nothing(tmp_path):
    assert read_expectations(_file(tmp_path, "e.toml", "")).entries == {}
    assert read_expectations(_file(tmp_path, "e.json", '{"contracts": {}}')).entries == {}


BAD_TOML = [
    ('[contracts."a.py::test_x"]\nstatus = "fail"\n',
     ":1: contract 'a.py::test_x': field 'reason' must be a non-empty string (it is missing)"),
    ('[contracts."a.py::test_x"]\nstatus = "xfail"\nreason = "r"\n',
     ":2: contract 'a.py::test_x': field 'status' must be one of fail, pending, got 'xfail'"),
    ('[contracts."a.py::test_x"]\nstatus = "fail"\nreasn = "r"\n',
     ":3: contract 'a.py::test_x': unknown field 'reasn' (did you mean 'reason'?); known: finding, reason, status"),
    ('[contracts."a.py::test_x"]\nstatus = "fail"\nreason = " "\n',
     ":3: contract 'a.py::test_x': field 'reason' must be a non-empty string, got ' '"),
    ('[contracts."a.py::test_x"]\nstatus = "fail"\nreason = "r"\nfinding = "See Issue 4"\n',
     ":4: contract 'a.py::test_x': field 'finding' must be a docs/findings/ name (lower-case letters, digits and "
     "'-') or an http(s) URL, got 'See Issue 4'"),
    ('[contracts."a.py::test_x[case]"]\nstatus = "pending"\n',
     ":1: contract 'a.py::test_x[case]': not a contract id: module.py::test_name, without parameters"),
    ('[contracts]\n"a.py" = {status = "pending"}\n',
     ":2: contract 'a.py': not a contract id: module.py::test_name, without parameters"),
    ('[contracts]\n"a.py::test_x" = "fail"\n',
     ":2: contract 'a.py::test_x': field 'a.py::test_x' must be a table, got 'fail'"),
    ('adapter = "mine"\n[contracts]\n', ":1: top level: unknown field 'adapter'; known: contracts"),
    # A field a later entry has is not this entry's: the line is the entry's own.
    ('[contracts."a.py::test_x"]\nstatus = "fail"\n\n[contracts."b.py::test_y"]\nstatus = "fail"\nreason = "r"\n',
     ":1: contract 'a.py::test_x': field 'reason' must be a non-empty string (it is missing)"),
]


@pytest.mark.parametrize(("text", "message"), BAD_TOML)
def test_each_problem_names_the_file_the_line_the_contract_and_the_field(tmp_path, text, message):
    path = _file(tmp_path, "e.toml", text)
    assert _error(path) == f"{path}{message}", text


def test_every_problem_is_listed_at_once_and_a_json_file_is_placed_too(tmp_path):
    path = _file(tmp_path, "e.json", '{\n "contracts": {\n  "a.py::test_x": {"status": "fail"},\n'
                                     '  "b.py::test_y": {"status": "pending", "why": 1}\n }\n}\n')
    assert _error(path) == (
        f"2 problems:\n  {path}:3: contract 'a.py::test_x': field 'reason' must be a non-empty string (it is missing)"
        f"\n  {path}:4: contract 'b.py::test_y': unknown field 'why'; known: finding, reason, status")


def test_a_json_file_that_repeats_a_contract_is_refused(tmp_path):
    path = _file(tmp_path, "e.json", '{"contracts": {"a.py::test_x": {"status": "pending"}, '
                                     '"a.py::test_x": {"status": "fail", "reason": "r"}}}')
    assert _error(path) == f"{path}: not valid JSON: key 'a.py::test_x' is given twice"


@pytest.mark.parametrize(("name", "text", "message"), [
    ("e.toml", "[contracts\n", "not valid TOML"),
    ("e.json", "{", "not valid JSON"),
    ("e.yaml", "contracts: {}", "an expectations file ends in .toml or .json, got '.yaml'"),
    ("e.toml", b"# caf\xe9\n", ":1: not UTF-8"),
])
def test_a_file_that_cannot_be_read_is_named(tmp_path, name, text, message):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    error = _error(path)
    assert error.startswith(str(path)) and message in error, error


# --- writing -------------------------------------------------------------------------------------


def test_a_toml_file_keeps_its_comments_and_reasons_when_written(tmp_path):
    path = _file(tmp_path, "e.toml", GOOD_TOML)
    added = {"test_stream_end.py::test_usage_chunk_is_kept": Expectation(FAIL, "recorded")}
    write_expectations(path, ["test_sse_framing.py::test_every_framing_parses_like_the_plain_one"], added)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# langchain-openai, robust level\n"), text
    assert 'status = "fail"   # the usage object is not kept' in text, text
    expected = read_expectations(path).entries
    assert expected == {
        "test_stream_end.py::test_usage_keeps_every_key_sent": GOOD_ENTRIES[
            "test_stream_end.py::test_usage_keeps_every_key_sent"],
        "test_stream_end.py::test_usage_chunk_is_kept": Expectation(FAIL, "recorded"),
    }, text


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_a_missing_file_is_created(tmp_path, suffix):
    path = tmp_path / f"new{suffix}"
    assert empty_expectations(path).entries == {}
    write_expectations(path, [], {"a.py::test_x": Expectation(FAIL, "r")})
    assert read_expectations(path).entries == {"a.py::test_x": Expectation(FAIL, "r")}


# Any text a reason may hold (control characters, quotes, backslashes, DEL, astral characters).
REASONS = st.text(st.characters(exclude_categories=("Cs",)), min_size=1).filter(str.strip)
IDS = st.from_regex(r"\A[a-z_]{1,8}\.py::test_[a-z0-9_]{1,8}\Z")


@given(entries=st.dictionaries(IDS, st.builds(Expectation, st.sampled_from([FAIL, PENDING]), REASONS), max_size=4),
       suffix=st.sampled_from([".toml", ".json"]))
def test_what_is_written_reads_back_the_same(tmp_path_factory, entries, suffix):
    path = tmp_path_factory.mktemp("w") / f"e{suffix}"
    write_expectations(path, [], entries)
    assert read_expectations(path).entries == entries, path.read_text(encoding="utf-8")
    if suffix == ".toml":
        assert tomllib.loads(path.read_text(encoding="utf-8")).get("contracts", {}).keys() == entries.keys()


# --- judging -------------------------------------------------------------------------------------

X, Y, Z = "test_stream_end.py::test_usage_keeps_every_key_sent", "test_stream_end.py::test_usage_chunk_is_kept", \
    "test_sse_framing.py::test_every_framing_parses_like_the_plain_one"


def _result(nodeid: str, status: str, message: str = "", level: str = "robust"):
    return contract_result(nodeid, status, [message] if message else [], level, "stream")


def test_an_id_fails_when_any_case_fails_errors_when_one_errs_and_none_fails_and_passes_only_when_every_case_ran():
    results = [
        _result(f"{X}", FAILED, "boom"),
        _result(f"{Y}[a]", PASSED), _result(f"{Y}[b]", NOT_APPLICABLE),
        _result(f"{Z}[a]", PASSED), _result(f"{Z}[b]", ERROR, "the adapter hung"),
        _result("test_a.py::test_only_na", NOT_APPLICABLE),
        _result("test_a.py::test_partial[a]", PASSED), _result("test_b.py::test_partial[a]", FAILED),
        _result("test_c.py", ERROR, "module did not import", level=""),
    ]
    found = outcomes(results, partial={"test_a.py::test_partial", "test_b.py::test_partial"})
    assert found == {X: FAILING, Y: PASSING, Z: ERRORING, "test_b.py::test_partial": FAILING}, found


def _expectations(tmp_path, entries):
    path = tmp_path / "e.toml"
    write_expectations(path, [], entries)
    return read_expectations(path)


def test_the_judgement_sorts_every_entry_and_every_failure(tmp_path):
    entries = {
        X: Expectation(FAIL, "known"), Y: Expectation(FAIL, "fixed since"), Z: Expectation(PENDING),
        "test_stream_end.py::test_usage_null_on_every_chunk_before_the_usage_chunk": Expectation(PENDING),
        "test_stream_end.py::test_renamed_away": Expectation(FAIL, "gone"),  # its module was collected
        "test_no_such_module.py::test_x": Expectation(FAIL, "gone"),  # its module is gone
        "test_sse_events.py::test_not_selected": Expectation(FAIL, "its module was not in the run"),
    }
    results = [_result(X, FAILED, "boom"), _result(Y, PASSED), _result(f"{Z}[a]", FAILED, "new rule"),
               _result("test_stream_end.py::test_usage_null_on_every_chunk_before_the_usage_chunk", PASSED),
               _result("test_stream_end.py::test_finish_reason_is_the_last_one_sent[a]", FAILED, "a regression")]
    known = {rule for rule in (X, Y, Z, "test_stream_end.py::test_usage_null_on_every_chunk_before_the_usage_chunk",
                               "test_stream_end.py::test_finish_reason_is_the_last_one_sent")}
    judgement = judge(_expectations(tmp_path, entries), results, known)
    assert judgement.xfail == [X], judgement
    assert judgement.xpass == [Y], judgement
    assert judgement.pending == [Z], judgement
    assert judgement.pending_passed == ["test_stream_end.py::test_usage_null_on_every_chunk_before_the_usage_chunk"]
    assert judgement.unexpected == ["test_stream_end.py::test_finish_reason_is_the_last_one_sent"], judgement
    assert judgement.stale == ("test_stream_end.py::test_renamed_away", "test_no_such_module.py::test_x"), judgement
    assert judgement.loose


def test_reports_show_an_expected_failure_skipped_with_its_reason_and_a_strict_xpass_failed(tmp_path):
    entries = {X: Expectation(FAIL, "known", "langchain-core-tool-call-chunks-merged-by-arrival"),
               Y: Expectation(FAIL, "fixed since"), Z: Expectation(PENDING)}
    results = [_result(X, FAILED, "usage lost"), _result(Y, PASSED), _result(f"{Z}[a]", FAILED, "new rule"),
               _result("test_stream_end.py::test_finish_reason_is_the_last_one_sent", FAILED, "a regression")]
    judgement = judge(_expectations(tmp_path, entries), results, {X, Y, Z})
    lenient = reported(results, judgement, strict=False)
    assert [r.status for r in lenient] == [SKIPPED, PASSED, SKIPPED, FAILED], lenient
    assert lenient[0].message == ("expected to fail: known; "
                                  "docs/findings/langchain-core-tool-call-chunks-merged-by-arrival.md"), lenient[0]
    assert lenient[0].details == ("usage lost",), "the failure itself is kept under the reason"
    assert lenient[2].message == "pending, not yet passed for this adapter", lenient[2]
    assert lenient[3] == results[3], "a failure the file does not expect is reported as it is"
    strict = reported(results, judgement, strict=True)
    assert strict[1].status == FAILED and strict[1].kind == "XPASS", strict[1]
    assert strict[1].message.startswith("XPASS (strict): expected to fail (fixed since), but passed"), strict[1]
    lines = "\n".join(summary_lines(judgement, strict=True))
    assert f"XPASS       {Y}: expected to fail (fixed since), but passed (fails the run" in lines, lines
    assert "UNEXPECTED  test_stream_end.py::test_finish_reason_is_the_last_one_sent" in lines, lines


def test_an_update_adds_new_failures_drops_what_passed_or_is_gone_and_keeps_the_rest(tmp_path):
    entries = {X: Expectation(FAIL, "known"), Y: Expectation(FAIL, "fixed since"), Z: Expectation(PENDING),
               "test_stream_end.py::test_usage_null_on_every_chunk_before_the_usage_chunk": Expectation(PENDING),
               "test_stream_end.py::test_renamed_away": Expectation(FAIL, "gone")}
    results = [_result(X, FAILED), _result(Y, PASSED), _result(Z, FAILED),
               _result("test_stream_end.py::test_usage_null_on_every_chunk_before_the_usage_chunk", PASSED),
               _result("test_stream_end.py::test_finish_reason_is_the_last_one_sent", FAILED)]
    known = {X, Y, Z, "test_stream_end.py::test_usage_null_on_every_chunk_before_the_usage_chunk",
             "test_stream_end.py::test_finish_reason_is_the_last_one_sent"}
    removed, added = judge(_expectations(tmp_path, entries), results, known).updates("2026-12-02")
    assert removed == [Y, "test_stream_end.py::test_usage_null_on_every_chunk_before_the_usage_chunk",
                       "test_stream_end.py::test_renamed_away"], removed
    assert added == {"test_stream_end.py::test_finish_reason_is_the_last_one_sent": Expectation(
        FAIL, "recorded by --update-expectations on 2026-12-02")}, added


# --- the command line ----------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "said"), [
    (["--strict-expectations"], "--strict-expectations and --update-expectations need --expectations FILE"),
    (["--update-expectations"], "--strict-expectations and --update-expectations need --expectations FILE"),
    (["--expectations", "{tmp}/missing.toml"], "{tmp}/missing.toml: cannot read the expectations file"),
    (["--expectations", "{tmp}/bad.toml"], "{tmp}/bad.toml:2: contract 'a.py::test_x': field 'status' must be one of"),
])
def test_a_bad_expectations_option_is_a_usage_error_before_anything_runs(tmp_path, capsys, args, said):
    _file(tmp_path, "bad.toml", '[contracts."a.py::test_x"]\nstatus = "passed"\n')
    code = main(["check", *(a.format(tmp=tmp_path) for a in args)])
    out = capsys.readouterr().out
    assert code == exit_codes.USAGE, out
    assert out.startswith("expectations error: ") and said.format(tmp=tmp_path) in out, out
