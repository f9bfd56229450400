"""Known bugs on foreign code: a project's own test command, JUnit outcomes, LCOV/Cobertura reach."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from harness.mutation.catalogue import CatalogueError, load_catalogue
from harness.mutation.coverage_files import read_line_coverage
from harness.mutation.junit_read import DEFAULT_ASSERTION_PATTERN, read_junit


def test_lcov_lines_of_one_file_relative_or_absolute(tmp_path):
    target = tmp_path / "src" / "codec.js"
    target.parent.mkdir()
    target.write_text("x\n")
    lcov = tmp_path / "lcov.info"
    lcov.write_text(
        f"SF:{tmp_path}/other.js\nDA:1,5\nend_of_record\n"
        "SF:src/codec.js\nDA:3,2\nDA:4,0\nDA:9,1\nend_of_record\n"
    )
    assert read_line_coverage(lcov, "lcov", target, tmp_path) == ({3, 4, 9}, {3, 9})


def test_cobertura_lines_resolved_against_sources(tmp_path):
    target = tmp_path / "pkg" / "calc.py"
    xml = tmp_path / "coverage.xml"
    xml.write_text(
        f'<coverage><sources><source>{tmp_path}</source></sources><packages><package><classes>'
        '<class filename="pkg/calc.py"><lines><line number="1" hits="1"/><line number="2" hits="0"/></lines></class>'
        '<class filename="pkg/other.py"><lines><line number="7" hits="1"/></lines></class>'
        "</classes></package></packages></coverage>"
    )
    assert read_line_coverage(xml, "cobertura", target, tmp_path) == ({1, 2}, {1})


def test_junit_failures_are_split_into_assertions_and_errors(tmp_path):
    junit = tmp_path / "junit.xml"
    junit.write_text(
        '<testsuites><testsuite name="s">'
        '<testcase classname="t" name="ok" time="0.1"/>'
        '<testcase classname="t" name="asserts"><failure type="testCodeFailure" message="AssertionError [ERR_ASSERTION]: 1 == 2"/></testcase>'
        '<testcase classname="t" name="crashes"><failure type="testCodeFailure" message="TypeError: x is undefined"/></testcase>'
        '<testcase classname="t" name="errors"><error message="setup blew up"/></testcase>'
        "</testsuite></testsuites>"
    )
    tests = read_junit(junit, DEFAULT_ASSERTION_PATTERN)
    assert {k: v["outcome"] for k, v in tests.items()} == {
        "t::ok": "passed",
        "t::asserts": "assertion",
        "t::crashes": "error",
        "t::errors": "error",
    }


CALC = """\
def add_call(calls, index, piece):
    calls.setdefault(index, "")
    calls[index] += piece
    return calls
"""

TEST_CALC = """\
from calc import add_call

def test_pieces_join_by_index():
    calls = {}
    add_call(calls, 1, "{")
    add_call(calls, 0, "[")
    add_call(calls, 1, "}")
    assert calls == {0: "[", 1: "{}"}, f"calls={calls}"
"""

RUNNER = """\
[runner]
command = "{python} -m coverage run -m pytest -q -p no:cacheprovider --junitxml=junit.xml; {python} -m coverage xml -o coverage.xml"
junit = "junit.xml"
coverage = "coverage.xml"

[[mutant]]
id = "by-position"
title = "pieces land in the first call"
incident = "a foreign project's own known bug"
file = "calc.py"
find = "    calls[index] += piece"
replace = "    calls[0] = calls.get(0, '') + piece"
contracts = ["test_pieces_join_by_index"]
"""


@pytest.fixture
def foreign_project(tmp_path):
    (tmp_path / "calc.py").write_text(CALC)
    (tmp_path / "test_calc.py").write_text(TEST_CALC)
    (tmp_path / "mutants.toml").write_text(RUNNER.format(python=sys.executable))
    (tmp_path / "ignored.txt").write_text("never copied")
    (tmp_path / ".gitignore").write_text("ignored.txt\n")
    for args in (["init", "-q"], ["add", "calc.py", "test_calc.py", "mutants.toml", ".gitignore"]):
        subprocess.run(["git", *args], cwd=tmp_path, check=True)
    return tmp_path


def _mutate(project: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "harness", "mutate", "--config", str(project / "mutants.toml"), "--jobs", "1",
         "--report-dir", str(project / "reports")],
        capture_output=True, text=True, timeout=300,
    )


def test_foreign_known_bug_is_killed_with_reach_from_cobertura(foreign_project):
    run = _mutate(foreign_project)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1/1 known bugs killed" in run.stdout
    assert not (foreign_project / "junit.xml").exists(), "the test command ran in the user's tree"


def test_foreign_known_bug_survives_when_the_assertion_is_gone(foreign_project):
    test = foreign_project / "test_calc.py"
    test.write_text(TEST_CALC.replace("    assert calls ==", "    calls =="))
    subprocess.run(["git", "add", "test_calc.py"], cwd=foreign_project, check=True)
    run = _mutate(foreign_project)
    assert run.returncode == 3, run.stdout + run.stderr
    assert re.search(r"SURVIVED +by-position", run.stdout), run.stdout


def test_runner_table_errors_name_the_field(tmp_path):
    path = tmp_path / "mutants.toml"
    path.write_text(RUNNER.format(python="python").replace('junit = "junit.xml"\n', ""))
    with pytest.raises(CatalogueError, match=r"\[runner\]: field 'junit' must be a non-empty string"):
        load_catalogue(path)
    path.write_text(RUNNER.format(python="python").replace('coverage = "coverage.xml"', 'coverage = "cov.out"\ncoverage_format = "gcov"'))
    with pytest.raises(CatalogueError, match="field 'coverage_format' must be one of"):
        load_catalogue(path)


NODE_EXAMPLE = Path(__file__).parent.parent / "examples" / "node-adapter"


@pytest.fixture
def node_project(tmp_path):
    tracked = subprocess.run(["git", "ls-files"], cwd=NODE_EXAMPLE, capture_output=True, text=True, check=True)
    for relative in tracked.stdout.split():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_bytes((NODE_EXAMPLE / relative).read_bytes())
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    return tmp_path


def test_node_example_known_bugs_are_killed_with_reach_from_lcov(node_project):
    run = _mutate(node_project)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2/2 known bugs killed" in run.stdout


def test_node_example_bug_survives_without_its_guarding_assertions(node_project):
    test = node_project / "test" / "codec.test.js"
    text = test.read_text()
    guards = [line for line in text.splitlines() if "assert.equal('reasoning_content' in" in line]
    assert len(guards) == 2, f"the guarding assertions moved: {guards}"
    for line in guards:
        text = text.replace(line + "\n", "")
    test.write_text(text)
    run = _mutate(node_project)
    assert run.returncode == 3, run.stdout + run.stderr
    assert re.search(r"SURVIVED +reasoning-emitted-when-empty", run.stdout), run.stdout
