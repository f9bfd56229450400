"""``harness mutate`` run incrementally on a team's project, as a user runs it, one run after another.

The project is a git work tree of its own (a copy of ``examples/python-adapter``)
with its whole catalogue. The runs, in order: a first run (no store yet), the
same again on the unchanged tree, one line of the adapter changed (a function
body, behaviour unchanged), a full run of the changed tree (``--no-incremental``),
and a run with the store damaged. Every run must give every bug the verdict
the full run gives it; what each reused is the subject.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from test_mutation_adapter import SPEC, _git_project

CHANGED = "tinyllm/messages.py"
OLD = '    wire = {"role": message["role"], "content": message.get("content")}\n'
NEW = '    wire = {"content": message.get("content"), "role": message["role"]}\n'
RUN_LINE = "known-bug verdicts reused from the verdict store"


def _mutate(root: Path, cwd: Path, reports: Path, *store: str) -> tuple[str, dict]:
    proc = subprocess.run(
        [sys.executable, "-m", "harness", "mutate", "--adapter", SPEC, "--config", str(root / "mutants.toml"),
         "--jobs", "1", "--report-dir", str(reports), *store],
        cwd=cwd, capture_output=True, text=True, timeout=900, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.returncode == 0, f"exit {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout, json.loads((reports / "mutation-report.json").read_text())


def _verdicts(report: dict) -> dict[str, str]:
    return {m["id"]: m["status"] for f in report["files"].values() for m in f["mutants"]}


def _ran(output: str) -> set[str]:
    """The bugs a run ran (its progress lines ``[k/n] verdict id (s)``); a reused one has no such line."""
    return {line.split()[2] for line in output.splitlines() if line.startswith("[") and "/" in line.split()[0]}


def _reused(report: dict) -> dict:
    (run,) = report["config"]["harness"]["runs"]
    return run.get("reused", {})


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = _git_project(tmp_path_factory.mktemp("team") / "tinyllm-project")
    cwd = tmp_path_factory.mktemp("ci")  # where the command runs: the store's default folder is made here
    reports = tmp_path_factory.mktemp("reports")
    done = {"first": _mutate(root, cwd, reports / "first"), "unchanged": _mutate(root, cwd, reports / "unchanged")}
    store = cwd / ".harness" / "verdicts.json"
    done["stored"] = json.loads(store.read_text())
    path = root / CHANGED
    path.write_text(path.read_text().replace(OLD, NEW, 1))
    done["changed"] = _mutate(root, cwd, reports / "changed")
    kept = store.read_bytes()
    done["full"] = _mutate(root, cwd, reports / "full", "--no-incremental")
    done["store untouched"] = store.read_bytes() == kept
    store.write_text(kept.decode()[:100])
    done["damaged"] = _mutate(root, cwd, reports / "damaged")
    done["rewritten"] = json.loads(store.read_text())
    return done


def test_the_first_run_runs_everything_and_says_there_was_no_store(runs):
    output, report = runs["first"]
    assert "verdict store .harness/verdicts.json: none yet, a full run" in output, output
    assert _ran(output) == set(_verdicts(report)), output
    assert _reused(report)["known_bugs"] == 0, _reused(report)


def test_an_unchanged_tree_reuses_every_verdict_and_the_whole_baseline(runs):
    (_, first), (output, report) = runs["first"], runs["unchanged"]
    reused = _reused(report)
    assert _ran(output) == set(), f"expected no bug run on an unchanged tree, ran {_ran(output)}"
    assert (reused["known_bugs"], reused["contracts"]) == (reused["of_known_bugs"], reused["of_contracts"]), reused
    assert f"{reused['known_bugs']} of {reused['known_bugs']} {RUN_LINE}; 0 run" in output, output
    assert _verdicts(report) == _verdicts(first)
    assert "reused from the verdict store .harness/verdicts.json: " in output, "the summary must say what was reused"


def test_a_one_line_change_reruns_only_the_bugs_whose_contracts_ran_the_changed_file(runs):
    (part,) = runs["stored"]["parts"].values()
    reaching = {t for t, c in part["contracts"].items() if CHANGED in c["lines"]}
    expected = {m for m, record in part["mutants"].items() if reaching & set(record["result"]["tests"])}
    assert expected and expected != set(part["mutants"]), (
        f"the change must reach some bugs and not others for this test to mean anything: {expected}")
    output, report = runs["changed"]
    assert _ran(output) == expected, f"expected exactly {sorted(expected)} run again, ran {sorted(_ran(output))}"
    reused = _reused(report)
    assert reused["contracts"] == reused["of_contracts"] - len(reaching), (reused, sorted(reaching))
    assert _verdicts(report) == _verdicts(runs["full"][1]), "an incremental run must give the full run's verdicts"


def test_no_incremental_runs_everything_and_leaves_the_store_alone(runs):
    output, report = runs["full"]
    assert _ran(output) == set(_verdicts(report)), output
    assert RUN_LINE not in output and not _reused(report), output
    assert runs["store untouched"], "--no-incremental must neither read nor write the store"


def test_a_damaged_store_is_a_full_run_said_in_one_line_and_written_anew(runs):
    output, report = runs["damaged"]
    said = [line for line in output.splitlines() if line.startswith("verdict store ")]
    assert len(said) == 1 and "unreadable" in said[0] and said[0].endswith("a full run"), said
    assert "Traceback" not in output, output
    assert _ran(output) == set(_verdicts(report)), output
    assert _verdicts(report) == _verdicts(runs["full"][1])
    assert runs["rewritten"]["parts"], "the full run must write a store the next run can read"
