"""A team's own Python adapter under the known-bug gate: ``harness mutate --adapter``.

The project is a git work tree of its own (a copy of ``examples/python-adapter``
made in the test's folder); what git tracks there is copied once, never
patched in place; the contracts run against the patched adapter with per-test
reach. The run's faults (a hung baseline, SIGTERM during the baseline, a
mutant that kills its own process) are reported for what they are, and no
process outlives the run.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness import exit_codes
from harness.mutation.workspace import Project
from test_mutation_verdicts import _leftovers, _tree_digest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "python-adapter"
SPEC = "tinyllm.adapter:adapter"

EXTRA = '''
[[mutant]]
id = "expect-unreached-per-test"
title = "named contracts that never serialize a tool message: unreached, not credited to the whole run"
file = "tinyllm/messages.py"
find = """        wire["tool_call_id"] = message["tool_call_id"]
"""
contracts = ["test_sse_framing.py"]

[[mutant]]
id = "expect-killed-covered-by-its-own-contract"
title = "two named contracts; only the one that serializes a tool message reached the patch"
file = "tinyllm/messages.py"
find = """        wire["tool_call_id"] = message["tool_call_id"]
"""
replace = """        wire["tool_call_id"] = None
"""
contracts = ["test_sse_framing.py::test_every_framing_parses_like_the_plain_one[crlf]",
             "test_wire_fields.py::test_tool_message_keeps_its_call_id"]

[[mutant]]
id = "expect-invalid-exit-at-import"
title = "the patched module ends the process while it is imported"
file = "tinyllm/sse.py"
find = """LINE_END = re.compile(rb"\\\\r\\\\n|\\\\r|\\\\n")"""
replace = """import os as _os, sys as _sys
print("tinyllm: giving up at import", file=_sys.stderr, flush=True)
_os._exit(3)"""
contracts = ["test_sse_framing.py"]
'''


def _git_project(root: Path, extra: str = "", edit=None) -> Path:
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("__pycache__"))
    catalogue = root / "mutants.toml"
    catalogue.write_text(catalogue.read_text() + extra)
    if edit:
        edit(root)
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "tinyllm"]):
        subprocess.run(["git", *args], cwd=root, check=True, env=env)
    return root


def _harness(args, scratch: Path, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "harness", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "TMPDIR": str(scratch)},
        **kwargs,
    )


def _processes_under(folder: Path) -> list[str]:
    """Processes whose working directory is inside ``folder``."""
    found = []
    for cwd in Path("/proc").glob("[0-9]*/cwd"):
        try:
            if folder in Path(os.readlink(cwd)).parents:
                found.append(cwd.parent.name)
        except OSError:
            continue
    return found


@pytest.fixture(scope="module")
def team_run(tmp_path_factory):
    root = _git_project(tmp_path_factory.mktemp("team") / "tinyllm-project", EXTRA)
    scratch = tmp_path_factory.mktemp("scratch")
    reports = tmp_path_factory.mktemp("reports")
    project = Project.git_tracked(root)
    before = _tree_digest(project)
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "pyproject.toml").write_text("[tool.harness.nightly]\nhigh = 97\nlow = 91\n")
    proc = _harness(["mutate", "--adapter", SPEC, "--config", str(root / "mutants.toml"), "--jobs", "2",
                     "--report-dir", str(reports)], scratch, cwd=elsewhere)
    output, _ = proc.communicate(timeout=600)
    assert _tree_digest(project) == before, "the run changed the team's tree"
    assert not _leftovers(scratch), f"left behind: {_leftovers(scratch)}"
    assert not _processes_under(scratch), "a process of the run outlived it"
    report = json.loads((reports / "mutation-report.json").read_text())
    assert report["thresholds"] == {"high": 97, "low": 91}, "thresholds must come from [tool.harness.nightly]"
    mutants = {m["id"]: m for f in report["files"].values() for m in f["mutants"]}
    return proc.returncode, output, mutants


def test_every_known_bug_of_the_example_is_killed(team_run):
    code, output, mutants = team_run
    assert code == exit_codes.STALE_INVALID, output  # the deliberately invalid entry below
    for mutant_id in ("accumulate-by-position", "reasoning-emitted-when-empty", "empty-content-on-tool-calls",
                      "tool-message-drops-call-id", "usage-chunk-read-as-first-choice", "lines-split-on-lf-only"):
        assert mutants[mutant_id]["status"] == "Killed", f"{mutant_id}: {mutants[mutant_id]['statusReason']}"
    for crash in ("usage-chunk-read-as-first-choice", "lines-split-on-lf-only"):
        assert mutants[crash]["statusReason"].startswith("killed (crash): "), mutants[crash]["statusReason"]
    assert "module re-import" in mutants["lines-split-on-lf-only"]["statusReason"]


def test_reach_is_per_test_not_per_run(team_run):
    _, output, mutants = team_run
    assert mutants["expect-unreached-per-test"]["status"] == "NoCoverage", output
    killed = mutants["expect-killed-covered-by-its-own-contract"]
    assert killed["status"] == "Killed", killed["statusReason"]
    assert killed["coveredBy"] == ["test_wire_fields.py::test_tool_message_keeps_its_call_id"], killed["coveredBy"]


def test_a_mutant_that_ends_its_process_shows_the_exit_status_and_its_output(team_run):
    _, output, mutants = team_run
    reason = mutants["expect-invalid-exit-at-import"]["statusReason"]
    assert reason.startswith("invalid: "), reason
    assert "exit status 3" in reason and "tinyllm: giving up at import" in reason, reason


def _hang_at_serialize(root: Path) -> None:
    messages = root / "tinyllm" / "messages.py"
    text = messages.read_text()
    messages.write_text(text.replace('    wire = {"role"', '    __import__("time").sleep(600)\n    wire = {"role"'))


def test_a_hung_baseline_says_it_ran_past_its_own_budget(tmp_path):
    root = _git_project(tmp_path / "hung", edit=_hang_at_serialize)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    proc = _harness(["mutate", "--adapter", SPEC, "--config", str(root / "mutants.toml"), "--jobs", "1",
                     "--timeout", "1", "--baseline-timeout", "4"], scratch)
    output, _ = proc.communicate(timeout=300)
    assert proc.returncode == exit_codes.TIMEOUT, output
    assert "baseline ran past its budget of 4s (--baseline-timeout)" in output, output
    assert "baseline is red" not in output, output
    assert not _processes_under(scratch) and not _leftovers(scratch), output


def test_sigterm_during_the_baseline_stops_everything(tmp_path):
    root = _git_project(tmp_path / "hung", edit=_hang_at_serialize)
    project = Project.git_tracked(root)
    before = _tree_digest(project)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    proc = _harness(["mutate", "--adapter", SPEC, "--config", str(root / "mutants.toml"), "--jobs", "2"], scratch)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        forks = [p for p in Path(scratch).glob("harness-run-*/harness-baseline-*")]
        if forks and _processes_under(scratch):
            break
        time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("the baseline never started:\n" + proc.communicate()[0])
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    output, _ = proc.communicate(timeout=60)
    assert proc.returncode == exit_codes.TERMINATED, output
    assert "interrupted" in output
    assert not _processes_under(scratch), "a worker or the baseline's fork outlived the run"
    assert not _leftovers(scratch), f"left behind: {_leftovers(scratch)}"
    assert _tree_digest(project) == before


@pytest.mark.parametrize(
    "args, catalogue_edit, message",
    [
        (["--adapter", "tinyllm"], None, "must look like 'package.module:attribute'"),
        (["--adapter", "tinyllm.nowhere:adapter"], None, "cannot import 'tinyllm.nowhere'"),
        (["--adapter", SPEC], '[runner]\ncommand = "true"\njunit = "j.xml"\ncoverage = "c.info"\n',
         "takes no --adapter"),
        ([], 'root = "."\n', "give its adapter with --adapter"),
        (["--adapter", SPEC], 'root = 7\n', "'root' must be a non-empty string"),
    ],
    ids=["spec-shape", "spec-import", "runner-and-adapter", "root-without-adapter", "root-not-a-string"],
)
def test_usage_errors_exit_2(tmp_path, args, catalogue_edit, message):
    root = _git_project(tmp_path / "p")
    catalogue = root / "mutants.toml"
    if catalogue_edit:
        catalogue.write_text(catalogue_edit + catalogue.read_text())
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    proc = _harness(["mutate", *args, "--config", str(catalogue), "--jobs", "1"], scratch)
    output, _ = proc.communicate(timeout=300)
    assert proc.returncode == exit_codes.USAGE, output
    assert message in output, output
    assert not _processes_under(scratch) and not _leftovers(scratch)


def test_a_project_git_does_not_track_is_a_usage_error(tmp_path):
    root = tmp_path / "untracked"
    shutil.copytree(EXAMPLE, root)
    proc = _harness(["mutate", "--adapter", SPEC, "--config", str(root / "mutants.toml")], tmp_path)
    output, _ = proc.communicate(timeout=120)
    assert proc.returncode == exit_codes.USAGE and "git work tree" in output, output
