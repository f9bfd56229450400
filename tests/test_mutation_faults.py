"""Faults of the run reported for what they are: dead workers, malformed outputs, budgets, wall times.

A dead warm worker is replaced and its mutant retried once; a worker that dies
twice makes the mutant invalid with both deaths described, never a traceback.
A malformed JUnit file or malformed copy-run results are an invalid verdict. The
per-mutant budget never limits the baseline. Report times are wall times.
"""

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from test_mutation_adapter import EXAMPLE, SPEC, _git_project

from harness import exit_codes
from harness.cli.mutate import BUNDLED_CATALOGUE
from harness.mutation.catalogue import load_catalogue
from harness.mutation.copy_executor import read_copy_result
from harness.mutation.in_memory_executor import ContractsExecutor
from harness.mutation.known_bug_run import KnownBugRun
from harness.mutation.warm_pool import Reply
from harness.mutation.workspace import Project
from harness.outcomes.mutants import Mutant, RunOutcome, Verdict
from harness.processes import Children

SLOW_KILL = Mutant(
    id="slow-kill",
    title="the bug, after a pause long enough to kill the worker under it",
    incident="",
    file="tinyllm/messages.py",
    find='        if message.get("reasoning"):',
    replace='        __import__("time").sleep(1.5)\n        if "reasoning" in message:',
    contracts=("test_reasoning_omit_empty.py::test_no_reasoning_key_without_reasoning[empty-text]",),
)
KILLS_ITS_WORKER = Mutant(
    id="kills-its-worker",
    title="the patched code kills the process that forked it",
    incident="",
    file="tinyllm/messages.py",
    find='        if message.get("reasoning"):',
    replace='        __import__("os").kill(__import__("os").getppid(), 9)\n        if message.get("reasoning"):',
    contracts=("test_reasoning_omit_empty.py::test_no_reasoning_key_without_reasoning[empty-text]",),
)


@pytest.fixture(scope="module")
def team(tmp_path_factory):
    return Project.git_tracked(_git_project(tmp_path_factory.mktemp("team") / "p"))


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_a_worker_killed_while_idle_is_replaced(team):
    with Children() as children, KnownBugRun(team, ContractsExecutor(children, adapter=SPEC), jobs=1,
                                                baseline_contracts=list(SLOW_KILL.contracts)) as run:
        baseline = run.baseline()
        (worker,) = run.executor.pool._all
        os.kill(worker.pid, signal.SIGKILL)
        (result,) = run.run([SLOW_KILL], baseline, lambda r: None)
        assert result.verdict is Verdict.KILLED, result.status_line
        assert "retried on a fresh one" in result.engine and "SIGKILL" in result.engine, result.engine
    assert not children.running()


def test_a_worker_killed_during_a_mutant_is_replaced_and_the_mutant_retried(team):
    with Children() as children, KnownBugRun(team, ContractsExecutor(children, adapter=SPEC), jobs=1,
                                                baseline_contracts=list(SLOW_KILL.contracts)) as run:
        baseline = run.baseline()
        (worker,) = run.executor.pool._all
        forks: list[int] = []

        def kill_the_worker_under_its_fork():
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                running = children.running() - {worker.pid}
                if running:
                    forks.extend(running)
                    time.sleep(0.3)
                    os.kill(worker.pid, signal.SIGKILL)
                    return
                time.sleep(0.02)

        killer = threading.Thread(target=kill_the_worker_under_its_fork)
        killer.start()
        (result,) = run.run([SLOW_KILL], baseline, lambda r: None)
        killer.join()
        assert forks, "the mutant's fork was never seen"
        assert result.verdict is Verdict.KILLED, result.status_line
        assert "retried" in result.engine, result.engine
        assert not any(_alive(pid) for pid in forks), "the first attempt's fork outlived its worker"
    assert not children.running()


def test_a_worker_that_dies_twice_makes_the_mutant_invalid_with_both_deaths(team):
    with Children() as children, KnownBugRun(team, ContractsExecutor(children, adapter=SPEC), jobs=1,
                                                baseline_contracts=list(SLOW_KILL.contracts)) as run:
        (result,) = run.run([KILLS_ITS_WORKER], run.baseline(), lambda r: None)
    assert result.verdict is Verdict.INVALID, result.status_line
    assert result.message.count("killed by signal SIGKILL") == 2, result.message
    assert "retried once on a fresh worker" in result.message
    assert not children.running()


def test_malformed_copy_results_are_an_invalid_run_not_a_crash():
    for result, expected in [
        ({"tests": {"t": {"outcome": "exploded"}}, "collection_errors": [], "statements": [], "executed": {}},
         "unknown outcome 'exploded'"),
        ({"tests": []}, "malformed results (AttributeError"),
        (["not", "a", "dict"], "malformed results (TypeError"),
    ]:
        outcome = RunOutcome()
        read_copy_result(Reply(timed_out=False, exit=0, result=result, tail="last words"), outcome)
        assert outcome.collection_errors and expected in outcome.collection_errors[0], outcome.collection_errors
        assert "last words" in outcome.collection_errors[0]
    missing = RunOutcome()
    read_copy_result(Reply(timed_out=False, exit=-11, result=None), missing)
    assert "died before reporting (killed by signal SIGSEGV)" in missing.collection_errors[0]


@pytest.mark.parametrize(
    "result, expected",
    [
        ({"tests": {"t": {"outcome": "boom"}}, "errors": []}, "unknown outcome 'boom'"),
        ({"tests": "none"}, "malformed results"),
        ({"errors": []}, "malformed results (KeyError"),
    ],
)
def test_malformed_fork_results_are_an_invalid_run_not_a_crash(result, expected):
    executor = ContractsExecutor(Children())
    outcome = executor._outcome(Reply(timed_out=False, exit=0, result=result, wall=0.1), "")
    assert outcome.collection_errors and expected in outcome.collection_errors[0], outcome.collection_errors


MAKE_JUNIT = """\
import pathlib
broken = "broken" in pathlib.Path("flag.txt").read_text()
pathlib.Path("junit.xml").write_text(
    "<testsuite><testcase classname='t' name='flag'" if broken
    else "<testsuite><testcase classname='t' name='flag'/></testsuite>")
pathlib.Path("lcov.info").write_text("SF:flag.txt\\nDA:1,1\\nend_of_record\\n")
"""

FOREIGN = """\
[runner]
command = "{python} make_junit.py"
junit = "junit.xml"
coverage = "lcov.info"

[[mutant]]
id = "breaks-the-junit-file"
title = "the test command writes a JUnit file that is not XML"
file = "flag.txt"
find = "ok"
replace = "broken"
contracts = ["t::flag"]
"""


def test_a_malformed_junit_file_is_an_invalid_verdict(tmp_path):
    (tmp_path / "flag.txt").write_text("ok\n")
    (tmp_path / "make_junit.py").write_text(MAKE_JUNIT)
    (tmp_path / "mutants.toml").write_text(FOREIGN.format(python=sys.executable))
    for args in (["init", "-q"], ["add", "flag.txt", "make_junit.py", "mutants.toml"]):
        subprocess.run(["git", *args], cwd=tmp_path, check=True)
    run = subprocess.run(
        [sys.executable, "-m", "harness", "mutate", "--config", str(tmp_path / "mutants.toml"), "--jobs", "1"],
        capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == exit_codes.STALE_INVALID, run.stdout + run.stderr
    assert re.search(r"INVALID +breaks-the-junit-file", run.stdout) and "not readable XML" in run.stdout, run.stdout
    assert "Traceback" not in run.stdout + run.stderr


class _Recording:
    """An executor that records the budgets it is given."""

    def __init__(self) -> None:
        self.children = Children()
        self.budgets: list[tuple[str, float | None]] = []

    def prepare(self, project, jobs, contracts=None) -> None:
        pass

    def collected(self):
        return ["test_x.py::test_a"]

    def other_formats(self):
        return []

    def baseline(self, contracts, budget):
        self.budgets.append(("baseline", budget))
        return RunOutcome(tests={"test_x.py::test_a": {"outcome": "passed", "message": "", "duration": 0.5}}, wall=1.0)

    def mutant(self, mutant, patch, budget):
        self.budgets.append((mutant.id, budget))
        return RunOutcome(timed_out=True, wall=budget)

    def close(self) -> None:
        pass


def test_the_per_mutant_budget_never_limits_the_baseline(tmp_path):
    (tmp_path / "m.py").write_text("x = 1\n")
    project = Project(root=tmp_path, files=("m.py",))
    mutant = Mutant("m", "t", "", "m.py", "x = 1", "x = 2", ("test_x.py",))
    executor = _Recording()
    with KnownBugRun(project, executor, jobs=1, timeout=2.0, baseline_timeout=77.0) as run:
        (result,) = run.run([mutant], run.baseline(), lambda r: None)
    assert executor.budgets == [("baseline", 77.0), ("m", 2.0)]
    assert result.verdict is Verdict.TIMEOUT and "2.0s" in result.reason


def test_the_nightly_phases_share_one_set_of_workers_that_ends_with_the_run():
    from harness.cli.nightly import _known_bugs
    from harness.mutation.gate_plan import FormatPart

    catalogue = load_catalogue(BUNDLED_CATALOGUE)
    one = FormatPart("chat", "harness.reference:adapter", (catalogue.path,), tuple(catalogue.mutants[:1]), {})
    with Children() as children:
        with KnownBugRun(Project.bundled(), ContractsExecutor(children), jobs=1,
                         baseline_contracts=list(one.mutants[0].contracts)) as run:
            baseline = run.baseline(reach=True)
            workers = children.running()
            results = _known_bugs(run, baseline, one, None, "chat", None)
            assert results[0].verdict is Verdict.KILLED
            assert children.running() == workers, "the known-bug phase must hand its warm workers to the next one"
        assert not children.running(), "the run's warm workers outlived it"


def test_a_worker_that_dies_before_it_is_ready_is_described_by_the_end_of_its_output(tmp_path):
    from harness.mutation.warm_pool import WarmWorker, WorkerDied

    with Children() as children:
        worker = WarmWorker(children, "in_memory_worker", [str(tmp_path / "no-such-spec.json")], tmp_path,
                            dict(os.environ), tmp_path / "w.log")
        with pytest.raises(WorkerDied) as died:
            worker.wait_ready(budget=60)
    assert "exit status 1" in str(died.value)
    assert "FileNotFoundError" in str(died.value) and "no-such-spec.json" in str(died.value), str(died.value)
