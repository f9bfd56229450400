"""``harness check`` and the plugin show an adapter the contracts of its own wire format only.

For each format a tiny adapter (the format's reference stream parser and no other
method) runs a few contracts: one of its format it can pass, one of its format it
lacks the capability for (still *not applicable*), and one of every other format
(left out, counted in one line, listed with ``-v``, in no report as a result).
The contracts are picked from ``docs/rules.md`` (``rules_page``), the formats from
:data:`harness.adapter.FORMATS`.
"""

import os
import re
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET

import pytest

from harness import CONTRACTS_DIR
from harness.adapter import FORMATS
from harness.cli.check_session import CheckSession
from harness.plugin.contract_items import level_key
from harness.plugin.other_formats import OtherFormat, other_format_key
from rules_page import contract_of, contracts

CONTRACT = re.compile(r"test_\w+\.py::test_\w+")
STATUS = re.compile(r"^ +(PASSED|FAILED|ERROR|NOT APPLICABLE|SKIPPED) +\[\w+\] (\S+)$")
COUNT = re.compile(r"^(\d+) (?:contracts of other formats|contract of another format) \(([^)]*)\) not run")
TABLE_COUNT = re.compile(r"(\d+) (?:passed|failed|error|not applicable|skipped)")

TINY = """
from harness.formats import spec_for

_reference = spec_for({format!r}).reference_adapter()


class Tiny:
    name = "tiny"
    format = {format!r}

    def parse_stream(self, body):
        return _reference.parse_stream(body)


adapter = Tiny()
"""


def _picks(format: str) -> tuple[list[str], list[str]]:
    """Contracts (``module::function``) to select: of ``format`` (one stream, one other), and of each other format."""
    table = contracts()
    own = [next(c for c, (cap, held) in table.items() if format in held and cap == "stream"),
           next(c for c, (cap, held) in table.items() if format in held and "stream" not in cap.split("+"))]
    others = [next(c for c, (_, held) in table.items() if other in held and format not in held)
              for other in FORMATS if other != format]
    return own, others


def _keyword(picked: list[str]) -> str:
    return " or ".join(c.split("::")[1] for c in picked)


@pytest.fixture
def tiny(tmp_path, request):
    """Runs ``harness check`` (or pytest) against a tiny adapter of the format ``request.param``."""
    format = request.param
    (tmp_path / "tiny.py").write_text(TINY.format(format=format))
    env = {**{k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}, "PYTHONPATH": str(tmp_path)}

    def run(*args: str, pytest_path: bool = False) -> subprocess.CompletedProcess:
        command = (["-m", "pytest", "--pyargs", "harness.contracts", "-p", "no:cacheprovider", "--harness-profile", "ci"]
                   if pytest_path else ["-m", "harness", "check", "--hypothesis-profile", "ci"])
        return subprocess.run([sys.executable, *command, "--adapter", "tiny:adapter", *args],
                              cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)

    run.format = format
    return run


def _holds(line: str, format: str) -> bool:
    return format in contracts()[contract_of(line)][1]


def _table_total(out: str) -> int:
    """The sum of the counts of the level table's rows."""
    after = out.split("by rule level and capability:\n", 1)[1].splitlines()
    rows = after[:next(i for i, line in enumerate(after) if not line.startswith("  "))]
    return sum(int(n) for row in rows for n in TABLE_COUNT.findall(row))


@pytest.mark.parametrize("tiny", list(FORMATS), indirect=True)
def test_check_shows_the_adapters_format_only_and_counts_the_others_in_one_line(tiny, tmp_path):
    format = tiny.format
    own, others = _picks(format)
    junit, markdown = tmp_path / "junit.xml", tmp_path / "summary.md"
    run = tiny("-k", _keyword(own + others), "--junitxml", str(junit), "--markdown", str(markdown))
    out = run.stdout
    assert run.returncode == 0, out[-3000:] + run.stderr
    named = [line for line in out.splitlines() if CONTRACT.search(line)]
    assert named and all(_holds(line, format) for line in named), "\n".join(named)
    statuses = [STATUS.match(line) for line in out.splitlines() if STATUS.match(line)]
    seen = {m.group(1) for m in statuses}
    assert {"PASSED", "NOT APPLICABLE"} <= seen, out  # its own format: a contract it passes, one it lacks a method for
    counted = [COUNT.match(line) for line in out.splitlines() if COUNT.match(line)]
    assert len(counted) == 1 and counted[0].string.endswith("; -v lists them"), out
    shown = set(counted[0].group(2).split(", "))
    assert format not in shown and shown >= {f for f in FORMATS if f != format}, counted[0].string
    assert _table_total(out) == len(statuses), out

    verbose = tiny("-k", _keyword(own + others), "-v")
    assert verbose.returncode == 0, verbose.stdout[-3000:] + verbose.stderr
    lines = verbose.stdout.splitlines()
    start = lines.index(counted[0].string.removesuffix("; -v lists them") + ":")
    listed = lines[start + 1:start + 1 + int(counted[0].group(1))]
    assert listed and all(line.startswith("  [") and not _holds(line, format) for line in listed), "\n".join(listed)
    assert {contract_of(line) for line in listed} >= set(others)
    assert [m.group(2) for m in map(STATUS.match, lines) if m] == [m.group(2) for m in statuses]

    suite = ET.parse(junit).getroot().find("testsuite")
    cases = [f"{c.get('classname')}.py::{c.get('name')}" for c in suite.iter("testcase")]
    assert len(cases) == len(statuses) and all(_holds(case, format) for case in cases), cases
    properties = {p.get("name"): p.get("value") for p in suite.findall("properties/property")}
    assert properties.get("other formats") == counted[0].string.removesuffix("; -v lists them"), properties
    summary = markdown.read_text()
    assert f"- {properties['other formats']}" in summary
    assert all(_holds(line, format) for line in summary.splitlines() if CONTRACT.search(line)), summary


@pytest.mark.parametrize("tiny", list(FORMATS), indirect=True)
def test_plain_pytest_deselects_other_formats_and_says_how_many(tiny):
    own, others = _picks(tiny.format)
    run = tiny("-k", _keyword(own + others), "-rA", pytest_path=True)
    out = run.stdout
    assert run.returncode == 0, out[-3000:] + run.stderr
    counted = [line for line in out.splitlines() if line.startswith("harness: ") and COUNT.match(line[9:])]
    assert len(counted) == 1, out
    named = [line for line in out.splitlines() if CONTRACT.search(line)]
    assert named and all(_holds(line, tiny.format) for line in named), "\n".join(named)
    assert re.search(r"\d+ passed.* \d+ deselected", out.splitlines()[-1]), out.splitlines()[-1]


@pytest.mark.parametrize("tiny", list(FORMATS), indirect=True)
def test_a_selection_of_other_formats_only_tests_nothing_and_says_why(tiny):
    _, others = _picks(tiny.format)
    run = tiny("-k", _keyword(others))
    assert run.returncode == 9, run.stdout[-3000:] + run.stderr
    assert f"nothing was tested: adapter tiny speaks {tiny.format}, and every contract selected holds for other formats" \
        in run.stdout, run.stdout
    assert not [line for line in run.stdout.splitlines() if STATUS.match(line)], run.stdout


class _Item:
    """As much of a pytest item as :meth:`CheckSession.pytest_deselected` reads."""

    def __init__(self, case: str, other: bool) -> None:
        self.path = CONTRACTS_DIR / "test_mixed.py"
        self.nodeid = f"test_mixed.py::test_rule[{case}]"
        self.stash = {level_key: "wire"}
        if other:
            self.stash[other_format_key] = OtherFormat(self.nodeid, "wire", ("gemini",))


def test_cases_of_other_formats_leave_a_contract_whole_for_the_expectations():
    # A contract with a case per format: its other formats' cases never run against this adapter, so
    # its own case decides it (an XPASS can be found); a case -k left out makes it partial.
    session = CheckSession(verbose=False)
    session.pytest_deselected([_Item("gemini", other=True)])
    assert session.known == {"test_mixed.py::test_rule"} and session.partial == set()
    assert [other.nodeid for other in session.others] == ["test_mixed.py::test_rule[gemini]"]
    session.pytest_deselected([_Item("chat-2", other=False)])
    assert session.partial == {"test_mixed.py::test_rule"}
