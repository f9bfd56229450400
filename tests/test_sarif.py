"""SARIF 2.1.0 from every command: valid against the official schema, with what GitHub's upload requires.

GitHub's code scanning refuses a result without a location, a rule index that
names another rule, or a log without ``version`` and a driver name; each run
below is checked for all of it, and against the OASIS schema
(``sarif_check``). A mutation run's file: ``test_reports.py``.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

from sarif_check import assert_uploadable

from harness.outcomes.results import FAILED, PASSED, Result
from harness.report.sarif import program_source, rule_id, sarif_log

TESTS = Path(__file__).parent
REPO = TESTS.parent
AGENT = REPO / "examples" / "anthropic-agent" / "agent.py"


def _harness(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    env = {**{k: v for k, v in os.environ.items() if k not in ("HARNESS_ADAPTER", "GITHUB_WORKSPACE")},
           "PYTHONPATH": str(TESTS)}
    return subprocess.run([sys.executable, "-m", "harness", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=600)


def test_a_failing_contract_sits_at_the_adapter_line_that_raised(tmp_path):
    sarif = tmp_path / "check.sarif"
    run = _harness("check", "--hypothesis-profile", "ci", "--adapter", "sample_adapters:crashing_stream",
                   "-k", "index_accumulation", "--sarif", str(sarif))
    assert run.returncode == 1, run.stdout + run.stderr
    results = assert_uploadable(json.loads(sarif.read_text()))
    assert results, "a failing run wrote no result"
    raised = (TESTS / "sample_adapters.py").read_text().splitlines().index(
        next(line for line in (TESTS / "sample_adapters.py").read_text().splitlines() if "the crash:" in line)) + 1
    places = {(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
               r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results}
    assert ("tests/sample_adapters.py", raised) in places, places
    assert all(r["ruleId"].startswith("test_sse_index_accumulation.py::test_") and "[" not in r["ruleId"]
               for r in results), [r["ruleId"] for r in results]


def test_a_passing_check_writes_a_log_with_no_result(tmp_path):
    sarif = tmp_path / "check.sarif"
    run = _harness("check", "--hypothesis-profile", "ci", "--adapter", "sample_adapters:stream_only",
                   "-k", "framing", "--sarif", str(sarif))
    assert run.returncode == 0, run.stdout + run.stderr
    log = json.loads(sarif.read_text())
    assert assert_uploadable(log) == [] and log["runs"][0]["invocations"][0]["executionSuccessful"] is True


def test_a_failing_probe_check_sits_at_the_agent_program(tmp_path):
    sarif = tmp_path / "probe.sarif"
    agent = f"{sys.executable} {AGENT.relative_to(REPO)} --bug drop-signature --base-url {{base_url}} --session {{session}} {{prompt}}"
    run = _harness("probe", "--format", "anthropic", "--tool", "get_weather", "--tool", "list_cities",
                   "--agent-cmd", agent, "--sarif", str(sarif))
    assert run.returncode == 1, run.stdout + run.stderr
    results = assert_uploadable(json.loads(sarif.read_text()))
    assert results and all(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                           == "examples/anthropic-agent/agent.py" for r in results), results


def test_rule_ids_are_stable_and_every_rule_is_described_once():
    failed = [Result(name=f"test_x.py::test_y[{n}]", suite="test_x", status=FAILED, level="wire",
                     capability="stream", title="holds", message=f"case {n}", location=("a.py", 3)) for n in range(3)]
    survived = Result(name="bug-1", suite="mutants.sse", status=FAILED, kind="survived", message="m",
                      location=("harness/reference/sse.py", 9))
    passed = Result(name="test_x.py::test_z", suite="test_x", status=PASSED, level="wire")
    log = sarif_log([*failed, survived, passed], "harness check")
    results = assert_uploadable(log)
    assert [r["ruleId"] for r in results] == ["test_x.py::test_y"] * 3 + ["mutant/survived"]
    assert [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]] == ["test_x.py::test_y", "mutant/survived"]
    assert rule_id(failed[0]) == "test_x.py::test_y"


def test_a_run_that_tested_nothing_is_not_a_successful_execution():
    log = sarif_log([], "harness check", tested=False)
    assert assert_uploadable(log) == []
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False, log["runs"][0]["invocations"]


def test_a_mutant_rule_is_described_by_its_verdict_not_by_one_mutant():
    one = Result(name="bug-1", suite="mutants.sse", status=FAILED, kind="survived", title="drops the last piece",
                 location=("a.py", 1))
    rules = sarif_log([one], "harness mutate")["runs"][0]["tool"]["driver"]["rules"]
    assert rules == [{"id": "mutant/survived", "shortDescription": {"text": "survived"}}], rules


def test_the_program_of_a_command_is_its_first_file_argument(tmp_path):
    script = tmp_path / "agent.py"
    script.write_text("")
    assert program_source(f"{sys.executable} {script} --flag {{base_url}}") == (str(script), 1)
    assert program_source("no-such-program --flag") is None
