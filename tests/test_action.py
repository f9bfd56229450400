"""The GitHub Action (``action.yml``) run the way the runner runs a composite action.

``Composite`` reads ``action.yml`` and plays its steps in order: each step's
``if:`` decided from the inputs and the outcomes and outputs of the steps
before it, its ``env:`` filled in from ``${{ ... }}``, its ``run:`` given to
``bash --noprofile --norc -eo pipefail`` in its working directory, with a
GITHUB_OUTPUT and a GITHUB_STEP_SUMMARY file of its own (the job summary is
the steps' files in order). A ``uses:`` step (setup-python, upload-artifact)
is not run, only recorded with its ``with:``: the Python on PATH is this
suite's, and the artifact is the folder the upload step names.

The real runs check an adapter that passes (the reference), and a team's
project whose adapter fails contracts and whose catalogue has known bugs the
contracts miss, so that check and mutate together have more problems than
GitHub annotates in a step.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from harness import exit_codes
from harness.cli import _parser
from harness.report.model import mutants, needs_attention
from test_mutation_adapter import _git_project

ROOT = Path(__file__).resolve().parents[1]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
RUN_SH = ROOT / ".github" / "action" / "run.sh"
STEPS = ACTION["runs"]["steps"]
CAP = 10  # GitHub keeps this many annotations of each level in a step
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
REFERENCE = re.compile(r"\b(inputs|steps)\.([A-Za-z0-9_-]+)(?:\.(outputs)\.([A-Za-z0-9_-]+)|\.(outcome))?")
STATUS_FUNCTIONS = ("success()", "failure()", "always()", "cancelled()")
COMMIT = "0123456789abcdef0123456789abcdef01234567"  # github.sha of the emulated run


@dataclass
class Step:
    name: str
    ran: bool
    code: int = 0
    outputs: dict[str, str] = field(default_factory=dict)
    log: str = ""
    uses: str = ""
    with_: dict[str, str] = field(default_factory=dict)

    @property
    def outcome(self) -> str:
        if not self.ran:
            return "skipped"
        return "success" if self.code == 0 else "failure"


@dataclass
class Composite:
    """One run of the action: its steps by id (or position), the log, the job summary and the action's outputs."""

    steps: list[Step]
    summary: str
    outputs: dict[str, str]

    @property
    def log(self) -> str:
        return "".join(s.log for s in self.steps)

    def step(self, step_id: str) -> Step:
        return next(s for s in self.steps if s.name == step_id)

    @property
    def failed(self) -> bool:
        return any(s.outcome == "failure" for s in self.steps)

    def annotations(self, level: str) -> list[str]:
        return [line for line in self.log.splitlines() if line.startswith(f"::{level} ") or line.startswith(f"::{level}::")]


def _value(reference: re.Match, inputs: dict, done: dict[str, Step]) -> str:
    kind, name, outputs, output, outcome = reference.groups()
    if kind == "inputs":
        return inputs[name]
    step = done.get(name)
    if step is None:
        return ""
    return step.outcome if outcome else step.outputs.get(output, "") if outputs else ""


def _evaluate(expression: str, inputs: dict, done: dict[str, Step]) -> bool:
    """An ``if:`` of the forms action.yml uses: terms joined by ``&&``, each a status function or a comparison.

    Without a status function the runner adds ``success()``; GitHub compares strings ignoring case.
    """
    terms = [term.strip() for term in expression.split("&&")]
    if not any(term.lstrip("!") in STATUS_FUNCTIONS for term in terms):
        terms.insert(0, "success()")
    return all(_term(term, inputs, done) for term in terms)


def _term(term: str, inputs: dict, done: dict[str, Step]) -> bool:
    failed = any(s.outcome == "failure" for s in done.values())
    status = {"success()": not failed, "failure()": failed, "always()": True, "cancelled()": False}
    if term.lstrip("!") in status:
        return status[term.lstrip("!")] != term.startswith("!")
    comparison = re.fullmatch(r"(\S+) (==|!=) '([^']*)'", term)
    reference = comparison and REFERENCE.fullmatch(comparison.group(1))
    assert reference, f"a condition the emulation does not know: {term!r}"
    equal = _value(reference, inputs, done).lower() == comparison.group(3).lower()
    return equal == (comparison.group(2) == "==")


def _fill(text: str, inputs: dict, done: dict[str, Step]) -> str:
    def one(match: re.Match) -> str:
        inner = match.group(1)
        if inner == "github.action_path":
            return str(ROOT)
        if inner == "github.sha":
            return COMMIT
        found = REFERENCE.fullmatch(inner)
        assert found, f"an expression the emulation does not know: {inner!r}"
        return _value(found, inputs, done)

    return EXPRESSION.sub(one, str(text))


def run_action(given: dict, workspace: Path, temp: Path, path: Sequence[Path] = ()) -> Composite:
    """The action's steps with ``given`` inputs, in ``workspace``, as GitHub Actions runs a composite action."""
    unknown = set(given) - set(ACTION["inputs"])
    assert not unknown, f"inputs the action does not declare: {unknown}"
    inputs = {name: str(given.get(name, spec.get("default", ""))) for name, spec in ACTION["inputs"].items()}
    base = {
        **os.environ,
        "PATH": os.pathsep.join([*map(str, path), str(Path(sys.executable).parent), os.environ["PATH"]]),
        "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": str(workspace), "RUNNER_TEMP": str(temp),
        "GITHUB_ACTION_PATH": str(ROOT), "XDG_CACHE_HOME": str(temp / "cache"), "PYTHONUNBUFFERED": "1",
    }
    temp.mkdir(parents=True, exist_ok=True)
    done: dict[str, Step] = {}
    steps, summary = [], []
    for number, spec in enumerate(STEPS):
        name = spec.get("id", f"step-{number}")
        if not _evaluate(str(spec.get("if", "success()")), inputs, done):
            step = Step(name, ran=False)
        elif "uses" in spec:
            step = Step(name, ran=True, uses=spec["uses"],
                        with_={k: _fill(v, inputs, done) for k, v in (spec.get("with") or {}).items()})
        else:
            output, step_summary, script = (temp / f"{name}.{suffix}" for suffix in ("output", "summary", "sh"))
            for file in (output, step_summary):
                file.write_text("")
            script.write_text(spec["run"] + "\n")
            step_env = {**base, "GITHUB_OUTPUT": str(output), "GITHUB_STEP_SUMMARY": str(step_summary),
                        **{k: _fill(v, inputs, done) for k, v in (spec.get("env") or {}).items()}}
            cwd = workspace / _fill(spec.get("working-directory", "."), inputs, done)
            proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=cwd,
                                  env=step_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  timeout=900)
            outputs = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
            step = Step(name, ran=True, code=proc.returncode, outputs=outputs, log=proc.stdout)
            summary.append(step_summary.read_text())
        done[name] = step
        steps.append(step)
    outputs = {k: _fill(v["value"], inputs, done) for k, v in ACTION["outputs"].items()}
    return Composite(steps, "".join(summary), outputs)


def _harness_stub(folder: Path) -> Path:
    """A ``harness`` that records each run's arguments (a JSON list a line, in the file returned) and exits 0."""
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "harness.args"
    (folder / "harness").write_text(f"#!{sys.executable}\nimport json, sys\n"
                                    f"open({str(log)!r}, 'a').write(json.dumps(sys.argv[1:]) + '\\n')\n")
    (folder / "harness").chmod(0o755)
    return log


def _pip_stub(folder: Path) -> Path:
    """A ``python`` whose ``-m pip`` only logs its arguments (a line a run, in the file returned); else this Python.

    The finish step asks the Python on PATH what an exit code means.
    """
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "pip.args"
    (folder / "python").write_text(f'#!/usr/bin/env bash\nif [ "$1" = -m ] && [ "$2" = pip ]; then\n'
                                   f'    printf "%s\\n" "$*" >> "{log}"; exit 0\nfi\nexec "{sys.executable}" "$@"\n')
    (folder / "python").chmod(0o755)
    return log


def _runs(log: Path) -> list[list[str]]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def _parses(args: list[str]) -> None:
    try:
        _parser().parse_args(args)
    except SystemExit:
        pytest.fail(f"`harness {' '.join(args)}` is not a command line the harness accepts")


def _failed_contracts(junit: Path) -> int:
    cases = ET.parse(junit).getroot().iter("testcase")
    return sum(1 for case in cases if case.find("failure") is not None or case.find("error") is not None)


# -- the action file ----------------------------------------------------------------------------------------------

def _text(node) -> str:
    return yaml.safe_dump(node, sort_keys=True)


def test_every_input_is_used_and_every_reference_is_declared():
    used = {m.group(2) for m in REFERENCE.finditer(_text(STEPS)) if m.group(1) == "inputs"}
    assert used == set(ACTION["inputs"]), (
        f"expected every input used by a step and nothing else; unused {set(ACTION['inputs']) - used}, "
        f"undeclared {used - set(ACTION['inputs'])}")


def test_every_step_output_read_is_written_by_an_earlier_step():
    ids = [s.get("id") for s in STEPS]
    script = RUN_SH.read_text(encoding="utf-8")
    for position, spec in enumerate([*STEPS, {"id": None, "outputs": ACTION["outputs"]}]):
        for ref in REFERENCE.finditer(_text({k: v for k, v in spec.items() if k != "id"})):
            if ref.group(1) != "steps":
                continue
            assert ref.group(2) in ids[:position], f"step {spec.get('id')!r} reads step {ref.group(2)!r}, not before it"
            if ref.group(3):
                assert f"output {ref.group(4)} " in script, f"no run.sh step writes the output {ref.group(4)!r}"


def test_every_run_step_calls_run_sh_with_a_subcommand_it_has():
    script = RUN_SH.read_text(encoding="utf-8")
    dispatch = re.search(r"^    ([a-z |]+)\) \"\$1\" ;;$", script, re.M)
    assert dispatch, "run.sh must dispatch its subcommands in one case line"
    subcommands = {s.strip() for s in dispatch.group(1).split("|")}
    called = []
    for spec in STEPS:
        if "run" not in spec:
            assert "uses" in spec, f"a step with neither run nor uses: {spec}"
            continue
        assert spec.get("shell") == "bash", f"expected shell bash, got {spec.get('shell')!r} in {spec['run']!r}"
        found = re.fullmatch(r'bash "\$GITHUB_ACTION_PATH/\.github/action/run\.sh" ([a-z]+)', spec["run"])
        assert found, f"expected the step to call run.sh and nothing else, got {spec['run']!r}"
        called.append(found.group(1))
    assert sorted(called) == sorted(subcommands), f"expected each subcommand called once: {subcommands}, got {called}"


def test_the_actions_used_are_the_pinned_majors():
    uses = sorted(s["uses"] for s in STEPS if "uses" in s)
    assert uses == ["actions/cache@v4", "actions/setup-python@v5", "actions/upload-artifact@v4"], uses


def test_run_sh_is_valid_bash():
    proc = subprocess.run(["bash", "-n", str(RUN_SH)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


# -- the command lines the steps build (harness and pip stubbed) ---------------------------------------------------

def test_check_passes_every_input_on_to_harness_check(tmp_path):
    harness_log, pip_log = _harness_stub(tmp_path / "bin"), _pip_stub(tmp_path / "bin")
    run = run_action({"adapter-cmd": "node bridge.js --flag", "levels": "wire,robust",
                      "expectations": "ci/expected failures.toml", "hypothesis-profile": "nightly"},
                     tmp_path, tmp_path, path=[tmp_path / "bin"])
    assert not run.failed, run.log
    reports = run.outputs["report-dir"] + "/check"
    expected = ["check", "--hypothesis-profile", "nightly", "--adapter-cmd", "node bridge.js --flag",
                "--levels", "wire,robust", "--expectations", "ci/expected failures.toml",
                "--junitxml", f"{reports}/junit.xml", "--markdown", f"{reports}/summary.md",
                "--sarif", f"{reports}/check.sarif"]
    assert _runs(harness_log) == [expected], f"expected harness {expected}, got {_runs(harness_log)}"
    _parses(expected)
    assert pip_log.read_text().splitlines() == [f"-m pip install --disable-pip-version-check {ROOT}"], (
        f"expected the harness installed from the action's checkout, got {pip_log.read_text()!r}")


def test_check_without_expectations_is_a_command_line_the_harness_accepts(tmp_path):
    harness_log, _ = _harness_stub(tmp_path / "bin"), _pip_stub(tmp_path / "bin")
    run = run_action({"adapter": "pkg.mod:adapter", "levels": "wire"}, tmp_path, tmp_path, path=[tmp_path / "bin"])
    assert not run.failed, run.log
    (args,) = _runs(harness_log)
    assert args[args.index("--adapter") + 1] == "pkg.mod:adapter" and "--expectations" not in args, args
    _parses(args)


@pytest.mark.parametrize("version, requirement", [
    ("", str(ROOT)),
    ("0.2.0", "agent-contract-harness==0.2.0"),
    ("1.0.0rc1", "agent-contract-harness==1.0.0rc1"),
    ("agent-contract-harness[openai]>=0.2", "agent-contract-harness[openai]>=0.2"),
    ("git+https://example.invalid/harness.git@main", "git+https://example.invalid/harness.git@main"),
])
def test_install_picks_the_harness_from_harness_version(tmp_path, version, requirement):
    pip_log, _ = _pip_stub(tmp_path / "bin"), _harness_stub(tmp_path / "bin")
    run = run_action({"adapter": "pkg.mod:adapter", "harness-version": version, "install": "-e .  -r req.txt"},
                     tmp_path, tmp_path, path=[tmp_path / "bin"])
    assert not run.failed, run.log
    expected = f"-m pip install --disable-pip-version-check {requirement} -e . -r req.txt"
    assert pip_log.read_text().splitlines() == [expected], (
        f"harness-version {version!r}: expected python {expected}, got {pip_log.read_text()!r}")


def test_mutate_runs_the_teams_catalogue_with_the_adapter_when_there_is_one(tmp_path):
    harness_log, _ = _harness_stub(tmp_path / "bin"), _pip_stub(tmp_path / "bin")
    run = run_action({"adapter": "pkg.mod:adapter", "mutants": "ci/mutants.toml", "check": "false"},
                     tmp_path, tmp_path / "t1", path=[tmp_path / "bin"])
    foreign = run_action({"mutants": "node/mutants.toml", "check": "false"}, tmp_path, tmp_path / "t2",
                         path=[tmp_path / "bin"])
    assert not run.failed and not foreign.failed, run.log + foreign.log
    reports = run.outputs["report-dir"] + "/mutate"
    assert _runs(harness_log) == [
        ["mutate", "--config", "ci/mutants.toml", "--report-dir", reports, "--adapter", "pkg.mod:adapter"],
        ["mutate", "--config", "node/mutants.toml", "--report-dir", reports],
    ], _runs(harness_log)
    for args in _runs(harness_log):
        _parses(args)
    assert not run.step("check").ran, "check: false must skip harness check"


def test_the_verdict_store_mutate_writes_is_cached_before_mutate_runs_and_only_then(tmp_path):
    from harness.mutation.verdict_store import DEFAULT_PATH

    _harness_stub(tmp_path / "bin"), _pip_stub(tmp_path / "bin")
    given = {"adapter": "pkg.mod:adapter", "mutants": "ci/mutants.toml", "working-directory": "svc",
             "artifact-name": "reports-py312"}
    (tmp_path / "svc").mkdir()
    run = run_action(given, tmp_path, tmp_path / "t1", path=[tmp_path / "bin"])
    without = run_action({"adapter": "pkg.mod:adapter"}, tmp_path, tmp_path / "t2", path=[tmp_path / "bin"])
    (at,) = [n for n, spec in enumerate(STEPS) if spec.get("uses", "").startswith("actions/cache@")]
    cache = run.steps[at]
    assert cache.ran and at < [s.name for s in run.steps].index("mutate"), [s.name for s in run.steps]
    assert cache.with_["path"] == f"svc/{DEFAULT_PATH.as_posix()}", (
        f"expected the store harness mutate writes in the working directory, got {cache.with_['path']!r}")
    assert cache.with_["key"] == f"harness-verdicts-reports-py312-{COMMIT}", cache.with_
    assert cache.with_["key"].startswith(cache.with_["restore-keys"]), cache.with_
    assert not without.steps[at].ran, "without a catalogue there is no store to cache"


@pytest.mark.parametrize("given, says", [
    ({}, "set the input adapter"),
    ({"adapter": "a:b", "adapter-cmd": "node b.js"}, "not both"),
    ({"check": "false"}, "nothing to run"),
    ({"adapter": "a:b", "check": "yes"}, "'true' or 'false'"),
])
def test_inputs_that_cannot_work_stop_before_anything_is_installed(tmp_path, given, says):
    pip_log, harness_log = _pip_stub(tmp_path / "bin"), _harness_stub(tmp_path / "bin")
    run = run_action(given, tmp_path, tmp_path, path=[tmp_path / "bin"])
    prepare = run.step("prepare")
    assert prepare.code == exit_codes.USAGE, f"inputs {given}: expected exit 2, got {prepare.code}: {prepare.log}"
    assert any(says in line for line in run.annotations("error")), f"inputs {given}: expected {says!r} in {run.log}"
    assert not pip_log.exists() and not harness_log.exists(), f"inputs {given}: ran on after the usage error"
    assert [s.name for s in run.steps if s.ran] == ["prepare"], [s.name for s in run.steps if s.ran]


# -- real runs -----------------------------------------------------------------------------------------------------

# A team's adapter: the stream parser of the harness's crashing sample (it fails every contract that streams two
# or more tool calls), tinyllm's message serializer (it passes the message contracts its catalogue names).
TEAM_ADAPTER = '''\
from sample_adapters import CrashingStream
from tinyllm.messages import serialize_message


class Team(CrashingStream):
    name = "team"

    def serialize_message(self, message: dict) -> dict:
        return serialize_message(message)


adapter = Team()
'''

# Two of tinyllm's known bugs, which its message contracts kill, and three patches of code the team's adapter never
# runs (its stream parser is not tinyllm's): unreached, each a problem to annotate.
TEAM_CATALOGUE = r'''
[[mutant]]
id = "reasoning-emitted-when-empty"
title = "reasoning_content is sent whenever the message has the key"
file = "tinyllm/messages.py"
find = """        if message.get("reasoning"):"""
replace = """        if "reasoning" in message:"""
contracts = ["test_reasoning_omit_empty.py::test_no_reasoning_key_without_reasoning"]

[[mutant]]
id = "tool-message-drops-call-id"
title = "Tool results go out without the id of the call they answer"
file = "tinyllm/messages.py"
find = """        wire["tool_call_id"] = message["tool_call_id"]
"""
contracts = ["test_wire_fields.py::test_tool_message_keeps_its_call_id"]

[[mutant]]
id = "unreached-object-check"
title = "a chunk that is not an object is read on"
file = "tinyllm/stream.py"
find = """            raise StreamError(f"event {number} is not an object")
"""
contracts = ["test_wire_fields.py::test_tool_message_keeps_its_call_id"]

[[mutant]]
id = "unreached-index-less-fragment"
title = "an index-less fragment opens call 0"
file = "tinyllm/calls.py"
find = """                index = 0 if self.last is None else self.last"""
replace = """                index = 0"""
contracts = ["test_wire_fields.py::test_tool_message_keeps_its_call_id"]

[[mutant]]
id = "unreached-last-index"
title = "the latest call is never remembered"
file = "tinyllm/calls.py"
find = """            self.last = index
"""
contracts = ["test_wire_fields.py::test_tool_message_keeps_its_call_id"]
'''


def _team_files(root: Path) -> None:
    shutil.copy(ROOT / "tests" / "sample_adapters.py", root)  # mutate imports the adapter from its copy of the project
    (root / "team.py").write_text(TEAM_ADAPTER)
    (root / "team-mutants.toml").write_text(TEAM_CATALOGUE)


@pytest.fixture(scope="module")
def team(tmp_path_factory):
    """The action over the team's project: check fails past GitHub's cap on its own, mutate adds unreached bugs."""
    root = _git_project(tmp_path_factory.mktemp("team") / "project", edit=_team_files)
    temp = tmp_path_factory.mktemp("runner-temp")
    bin_dir = tmp_path_factory.mktemp("bin")
    _pip_stub(bin_dir)
    run = run_action({"adapter": "team:adapter", "format": "chat", "mutants": "team-mutants.toml",
                      "report-dir": "reports", "artifact-name": "team-reports"},
                     root, temp, path=[bin_dir])
    return run, Path(run.outputs["report-dir"])


def test_the_team_run_fails_on_its_contracts_and_on_its_unreached_bugs(team):
    run, reports = team
    assert run.outputs["check-exit-code"] == str(exit_codes.CONTRACTS_FAILED), run.step("check").log
    assert run.outputs["mutate-exit-code"] == str(exit_codes.SURVIVED), run.step("mutate").log
    assert run.failed, "a failing check and a survived bug must fail the action"
    assert reports == Path(run.step("prepare").outputs["report-dir"]), run.outputs


def test_the_team_run_annotates_within_githubs_cap_with_a_count_of_the_rest(team):
    run, reports = team
    failing = _failed_contracts(reports / "check" / "junit.xml")
    report = json.loads((reports / "mutate" / "mutation-report.json").read_text())
    unkilled = sum(1 for _, m in mutants(report) if needs_attention(m))
    assert failing > CAP and unkilled > 0, (
        f"the scenario needs more failing contracts than the cap and a bug to annotate; got {failing}, {unkilled}")
    errors, warnings, notices = (run.annotations(level) for level in ("error", "warning", "notice"))
    assert len(errors) == CAP, f"expected {CAP} ::error lines of {failing + unkilled} problems, got {len(errors)}"
    assert len(warnings) <= CAP, f"expected at most {CAP} ::warning lines, got {len(warnings)}"
    assert [line for line in run.step("check").log.splitlines() if line.startswith("::error")] == errors, (
        "expected the check's failing contracts first (the most important), the known bugs past the cap")
    assert len(notices) == 1, f"expected one notice counting the rest, got {notices}"
    left = failing + unkilled - CAP
    assert notices[0].startswith(f"::notice title={left} more "), f"expected {left} left off, got {notices[0]}"
    assert run.outputs["annotations-left-off"] == str(left), run.outputs
    full = (reports / "mutate" / "console.log").read_text()
    assert sum(line.startswith("::error") for line in full.splitlines()) == unkilled, (
        "expected the mutate log in the reports to keep every annotation the harness printed")


def test_the_team_run_writes_the_job_summary(team):
    run, reports = team
    for part in ("check", "mutate"):
        markdown = (reports / part / "summary.md").read_text()
        assert markdown.strip() and markdown in run.summary, f"expected {part}'s summary in the job summary"
    assert "| `harness check` | 1 | a contract failed" in run.summary, run.summary[-800:]
    assert "| `harness mutate` | 3 | a known bug survived" in run.summary, run.summary[-800:]
    assert "`team-reports`" in run.summary, run.summary[-800:]


def test_the_team_run_fills_the_report_folder_the_artifact_uploads(team):
    run, reports = team
    expected = {"check": {"console.log", "junit.xml", "summary.md", "check.sarif"},
                "mutate": {"console.log", "junit.xml", "summary.md", "mutation.sarif", "mutation-report.json",
                           "mutation-report.html"}}
    for part, names in expected.items():
        present = {p.name for p in (reports / part).iterdir() if p.stat().st_size > 0}
        assert names <= present, f"expected {sorted(names)} in {part}/, got {sorted(present)}"
    (upload,) = [s for s in run.steps if s.uses.startswith("actions/upload-artifact")]
    assert upload.ran and upload.with_["path"] == str(reports), f"expected the upload of {reports}, got {upload}"
    assert upload.with_["name"] == "team-reports", upload.with_


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    temp = tmp_path_factory.mktemp("runner-temp")
    bin_dir = tmp_path_factory.mktemp("bin")
    _pip_stub(bin_dir)
    workspace = tmp_path_factory.mktemp("workspace")
    (workspace / "adapter").mkdir()
    return workspace, run_action({"adapter": "harness.reference:adapter", "format": "chat", "levels": "policy",
                                  "working-directory": "adapter"}, workspace, temp, path=[bin_dir])


def test_the_reference_passes_without_an_annotation(reference):
    workspace, run = reference
    assert not run.failed, run.log
    assert run.outputs["check-exit-code"] == "0", run.step("check").log
    problems = [line for line in run.log.splitlines() if line.startswith(("::error", "::warning", "::notice"))]
    assert problems == [], f"expected no annotation for a passing run, got {problems}"
    assert run.outputs["annotations-left-off"] == "0", run.outputs
    assert not run.step("mutate").ran, "no mutants input: mutate must not run"
    reports = Path(run.outputs["report-dir"])
    assert reports == workspace / "adapter" / "harness-reports", f"expected the reports in working-directory: {reports}"
    assert (reports / "check" / "summary.md").read_text() in run.summary, run.summary
    assert "| `harness check` | 0 | everything ran and held |" in run.summary, run.summary


def test_an_adapter_of_another_format_than_the_workflow_says_fails_the_step(tmp_path):
    _pip_stub(tmp_path / "bin")
    run = run_action({"adapter": "harness.reference:adapter", "format": "anthropic", "levels": "policy"},
                     tmp_path, tmp_path / "temp", path=[tmp_path / "bin"])
    assert run.outputs["check-exit-code"] == str(exit_codes.USAGE), run.step("check").log
    (error,) = run.annotations("error")
    assert "format 'anthropic'" in error and "speaks 'chat'" in error, error


def test_the_example_workflow_uses_only_inputs_the_action_declares():
    workflow = yaml.safe_load((ROOT / "examples" / "github-action" / "workflow.yml").read_text(encoding="utf-8"))
    uses = [step for job in workflow["jobs"].values() for step in job["steps"]
            if step.get("uses", "").startswith("OWNER/REPO@")]
    assert uses, "expected the example to use the action as OWNER/REPO@REF"
    for step in uses:
        unknown = set(step.get("with") or {}) - set(ACTION["inputs"])
        assert not unknown, f"the example sets inputs the action does not declare: {sorted(unknown)}"
        check = step["with"].get("check", "true") == "true"
        has_adapter = bool(step["with"].get("adapter")) != bool(step["with"].get("adapter-cmd"))
        assert has_adapter or not check, f"expected adapter or adapter-cmd (one of them) in {step['with']}"


def test_a_usage_error_of_the_check_step_is_annotated_with_what_the_harness_said(tmp_path):
    _pip_stub(tmp_path / "bin")
    run = run_action({"adapter": "harness.reference:adapter", "expectations": "missing.toml", "levels": "policy"},
                     tmp_path, tmp_path / "temp", path=[tmp_path / "bin"])
    assert run.outputs["check-exit-code"] == str(exit_codes.USAGE), run.step("check").log
    (error,) = run.annotations("error")
    assert "usage error (exit 2)" in error and "missing.toml: cannot read the expectations file" in error, error
