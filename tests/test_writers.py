"""The writers every command shares, over a result of each: a contract of check, a check of probe, a mutant.

Each result quotes text the harness does not control (an exception, an agent's
request, a contract's message) holding what breaks each format: an ANSI escape
and NUL (illegal in XML), ``<`` and ``&`` (markup), ``|`` (a table cell's end),
a backtick and a line break. Every writer (JUnit, the Markdown page of check
and probe, the known-bug Markdown of a mutation run, the console) is run over
each of them.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from harness.cli.check_session import contract_result
from harness.outcomes.checks import FAILED, CheckResult, Finding
from harness.outcomes.results import Result
from harness.report import annotations
from harness.report.junit import write_junit
from harness.report.markdown import KNOWN_BUG_COLUMNS
from harness.report.model import as_result
from harness.report.results_console import result_lines, summary_lines
from harness.report.results_markdown import failure_lines, render_markdown, results_table

AFTER_BREAK = "after the break"
NASTY = f"a|b <c> & d \x1b[31mred\x1b[0m\x00 `tick`\r\n{AFTER_BREAK}"


def _contract() -> Result:
    return contract_result("test_x.py::test_y[p|q]", FAILED, [f"AssertionError: {NASTY}", "second line"],
                           "wire", "stream|chat")


def _probe() -> Result:
    finding = Finding(1, 0, f"bad call {NASTY}", excerpt=f"{NASTY}\nmore", label="sent")
    return CheckResult("parallel-12", "calls-carried", "wire", f"calls | carried {NASTY}", FAILED, [finding]).result()


def _mutant() -> Result:
    entry = {"id": "bug|1", "description": f"the bug {NASTY}", "status": "Survived",
             "statusReason": f"survived: {NASTY}\nAssertionError: {NASTY}", "coveredBy": ["t.py::t"],
             "location": {"start": {"line": 3, "column": 1}, "end": {"line": 3, "column": 2}}, "duration": 20}
    return as_result("harness/reference/x.py", entry)


RESULTS = pytest.mark.parametrize("make", [_contract, _probe, _mutant], ids=["check", "probe", "mutation"])


def _junit(results: list[Result], tmp_path) -> str:
    path = tmp_path / "junit.xml"
    write_junit(results, path, "suite", properties=[("header", NASTY)])
    return path.read_text(encoding="utf-8")


def _markdown(results: list[Result], _) -> str:
    return render_markdown("title", [f"header: {NASTY}"], results, "result", by_capability=True, every=True)


def _mutation_markdown(results: list[Result], _) -> str:
    """The rows and sections a mutation run composes its summary around."""
    return "\n".join([*results_table(results, KNOWN_BUG_COLUMNS),
                      *failure_lines(results, "####", lambda r: r.kind or r.status, fenced_details=True)])


def _console(results: list[Result], _) -> str:
    return "\n".join([*(line for r in results for line in result_lines(r, verbose=True)),
                      *summary_lines(results, "results", by_capability=True)])


WRITERS = pytest.mark.parametrize("write", [_junit, _markdown, _mutation_markdown, _console],
                                  ids=["junit", "markdown", "mutation-markdown", "console"])
# How a writer says a result failed: one status word in every format.
STATUS_WORDS = pytest.mark.parametrize(("write", "failed"), [
    (_junit, "<failure "), (_markdown, "\n| failed | "), (_console, "         FAILED  "),
], ids=["junit", "markdown", "console"])
TEXT_WRITERS = pytest.mark.parametrize("write", [_markdown, _mutation_markdown, _console],
                                       ids=["markdown", "mutation-markdown", "console"])


@WRITERS
@RESULTS
def test_every_writer_shows_control_characters_as_escapes(tmp_path, write, make):
    text = write([make()], tmp_path)
    assert not any(ord(c) < 32 and c != "\n" for c in text), repr(text)
    assert "\\x1b[31mred" in text and "\\x00" in text, "a control character is spelled out, never dropped"


@STATUS_WORDS
@RESULTS
def test_every_writer_says_failed_in_the_same_word(tmp_path, write, failed, make):
    assert failed in write([make()], tmp_path)


def _outside_fences(text: str) -> list[str]:
    lines, fence = [], ""
    for line in text.splitlines():
        opens = re.match(r"`{3,}", line)
        if fence:
            fence = "" if line == fence else fence
        elif opens:
            fence = opens.group()
        else:
            lines.append(line)
    return lines


@TEXT_WRITERS
@RESULTS
def test_a_line_break_or_a_backtick_of_the_text_never_ends_a_line_item_or_code_span(tmp_path, write, make):
    for line in _outside_fences(write([make()], tmp_path)):
        assert not line.startswith(AFTER_BREAK), f"a line break of the text started a line of its own: {line!r}"
        assert line.count("`") % 2 == 0, f"a backtick of the text opens a code span it never closes: {line!r}"
        if line.startswith("|"):
            assert len(_cells(line)) in (4, 5, 6), f"a pipe of the text split a row: {line!r}"


@RESULTS
def test_junit_parses_and_keeps_markup_and_control_characters_visible(tmp_path, make):
    result = make()
    path = tmp_path / "junit.xml"
    write_junit([result], path, "suite", properties=[("header", NASTY)])
    raw = path.read_text(encoding="utf-8")
    assert "\x1b" not in raw and "\x00" not in raw, "characters XML 1.0 forbids must be spelled out"
    suite = ET.parse(path).getroot().find("testsuite")
    assert suite.get("failures") == "1" and suite.get("tests") == "1"
    failure = suite.find("testcase").find("failure")
    text = failure.get("message") + "\n" + failure.text
    assert "<c> & d \\x1b[31mred" in text and "\\x00" in text, text


def _cells(row: str) -> list[str]:
    return re.split(r"(?<!\\)\|", row.strip())[1:-1]  # a pipe not escaped ends a cell


@RESULTS
def test_markdown_tables_escape_pipes_and_hold_no_control_characters(make):
    text = render_markdown("title", [f"header: {NASTY}"], [make()], "result", by_capability=True, every=True)
    assert not any(ord(c) < 32 and c != "\n" for c in text), repr(text)
    tables = [[line for line in block.splitlines() if line.startswith("|")] for block in text.split("\n\n")]
    tables = [rows for rows in tables if rows]
    assert len(tables) == 2, text  # the tallies, and the results
    for rows in tables:
        assert len({len(_cells(row)) for row in rows}) == 1, f"a pipe of the text split a row: {rows}"
    assert text.count("`") % 2 == 0, "a backtick of the text would open a code span it never closes"


@RESULTS
def test_annotations_are_capped_with_one_notice_counting_the_rest(make):
    many = [make()] * (annotations.SHOWN_ANNOTATIONS + 3)
    lines = annotations.annotations(many, "things")
    errors = [line for line in lines if line.startswith("::error")]
    notices = [line for line in lines if line.startswith("::notice")]
    assert len(errors) == annotations.SHOWN_ANNOTATIONS and len(notices) == 1, lines
    assert lines[-1] == notices[0] and "3 more things" in notices[0], notices
    assert all("\n" not in line for line in lines), "a line break would end the workflow command"


def test_every_annotation_is_written_when_there_are_few():
    lines = annotations.annotations([_contract(), _probe(), _mutant()])
    assert len(lines) == 3 and all(line.startswith("::error") for line in lines), lines
