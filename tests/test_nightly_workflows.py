"""The CI workflows: valid YAML, and every ``harness`` command they run parses with the real CLI."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import yaml

from harness.cli import _parser

WORKFLOWS = Path(__file__).parents[1] / ".github" / "workflows"


def _workflow(name: str) -> dict:
    return yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))


def _runs(workflow: dict) -> list[str]:
    return [step["run"] for job in workflow["jobs"].values() for step in job["steps"] if "run" in step]


def _harness_commands(workflow: dict) -> list[list[str]]:
    commands = []
    for script in _runs(workflow):
        # GitHub expressions become a sample value, as the runner substitutes them before the shell runs.
        script = re.sub(r"\$\{\{[^}]*\}\}", "1", script)
        for line in script.splitlines():
            words = shlex.split(line, comments=True)
            if words and words[0] == "harness":
                commands.append(words[1:])
    return commands


@pytest.mark.parametrize("name", ["gate.yml", "nightly.yml"])
def test_every_harness_command_exists_in_the_cli(name: str) -> None:
    commands = _harness_commands(_workflow(name))
    assert commands, f"{name} runs no harness command"
    for args in commands:
        try:
            _parser().parse_args(args)
        except SystemExit:
            pytest.fail(f"{name}: `harness {' '.join(args)}` is not a valid harness command line")


def test_the_gate_runs_on_every_push_and_pull_request_and_publishes_its_reports() -> None:
    workflow = _workflow("gate.yml")
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert set(triggers) == {"push", "pull_request"}
    assert ["gate", "--report-dir", "reports"] in _harness_commands(workflow)
    scripts = "\n".join(_runs(workflow))
    # The gate appends its own summary under GitHub Actions; a second append would show it twice.
    assert "GITHUB_STEP_SUMMARY" not in scripts
    uploads = [s for s in workflow["jobs"]["gate"]["steps"] if s.get("uses", "").startswith("actions/upload-artifact")]
    assert uploads and uploads[0]["with"]["path"] == "reports/"


def test_nightly_shards_cover_the_matrix_and_are_merged() -> None:
    workflow = _workflow("nightly.yml")
    assert "schedule" in workflow.get("on", workflow.get(True))
    shards = workflow["jobs"]["shard"]["strategy"]["matrix"]["shard"]
    (nightly,) = [c for c in _harness_commands(workflow) if c[0] == "nightly"]
    total = int(nightly[nightly.index("--shard") + 1].split("/")[1])
    assert shards == list(range(1, total + 1))
    report = workflow["jobs"]["report"]
    assert report["needs"] == "shard"
    merge = "\n".join(s.get("run", "") for s in report["steps"])
    assert "harness report merge shards/*/mutation-report.json -o report" in merge
    assert 'summary.md >> "$GITHUB_STEP_SUMMARY"' in merge
    assert any(s.get("uses", "").startswith("actions/upload-artifact") for s in report["steps"])
