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
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from harness import exit_codes
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
    """An ``if:`` of the forms action.yml uses: references, ``==``/``!=`` on strings, ``&&``, status functions."""
    failed = any(s.outcome == "failure" for s in done.values())
    if not any(f in expression for f in STATUS_FUNCTIONS):
        expression = f"success() && ({expression})"  # the runner's implicit status check
    python = REFERENCE.sub(lambda m: repr(_value(m, inputs, done)), expression)
    python = (python.replace("!cancelled()", "True").replace("cancelled()", "False").replace("always()", "True")
              .replace("success()", repr(not failed)).replace("failure()", repr(failed))
              .replace("&&", " and ").replace("||", " or "))
    return bool(eval(python, {"__builtins__": {}}))  # only the action's own conditions, rewritten above


def _fill(text: str, inputs: dict, done: dict[str, Step], action_path: Path) -> str:
    def one(match: re.Match) -> str:
        inner = match.group(1)
        if inner == "github.action_path":
            return str(action_path)
        found = REFERENCE.fullmatch(inner)
        assert found, f"an expression the emulation does not know: {inner!r}"
        return _value(found, inputs, done)

    return EXPRESSION.sub(one, str(text))


def run_action(given: dict, workspace: Path, temp: Path, path: list[Path] = (), env: dict | None = None) -> Composite:
    """The action's steps with ``given`` inputs, in ``workspace``, as GitHub Actions runs a composite action."""
    unknown = set(given) - set(ACTION["inputs"])
    assert not unknown, f"inputs the action does not declare: {unknown}"
    inputs = {name: str(given.get(name, spec.get("default", ""))) for name, spec in ACTION["inputs"].items()}
    base = {
        **os.environ, **(env or {}),
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
                        with_={k: _fill(v, inputs, done, ROOT) for k, v in (spec.get("with") or {}).items()})
        else:
            output, step_summary, script = (temp / f"{name}.{suffix}" for suffix in ("output", "summary", "sh"))
            for file in (output, step_summary):
                file.write_text("")
            script.write_text(spec["run"] + "\n")
            step_env = {**base, "GITHUB_OUTPUT": str(output), "GITHUB_STEP_SUMMARY": str(step_summary),
                        **{k: _fill(v, inputs, done, ROOT) for k, v in (spec.get("env") or {}).items()}}
            cwd = workspace / _fill(spec.get("working-directory", "."), inputs, done, ROOT)
            proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=cwd,
                                  env=step_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  timeout=900)
            outputs = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
            step = Step(name, ran=True, code=proc.returncode, outputs=outputs, log=proc.stdout)
            summary.append(step_summary.read_text())
        done[name] = step
        steps.append(step)
    outputs = {k: _fill(v["value"], inputs, done, ROOT) for k, v in ACTION["outputs"].items()}
    return Composite(steps, "".join(summary), outputs)


def _stub(folder: Path, name: str, body: str, logged: str = "true") -> Path:
    """An executable ``name`` in ``folder``: logs its arguments (one run a line, when ``logged`` holds), then ``body``.

    Returns the log's path.
    """
    folder.mkdir(parents=True, exist_ok=True)
    args = folder / f"{name}.args"
    (folder / name).write_text(f'#!/usr/bin/env bash\nif {logged}; then printf "%s\\n" "$*" >> "{args}"; fi\n{body}\n')
    (folder / name).chmod(0o755)
    return args


def _pip_stub(folder: Path) -> Path:
    """A ``python`` whose ``-m pip`` only logs its arguments; anything else runs this Python (the finish step's)."""
    is_pip = '[ "$1" = -m ] && [ "$2" = pip ]'
    return _stub(folder, "python", f'if {is_pip}; then exit 0; fi; exec "{sys.executable}" "$@"', logged=is_pip)


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
    assert uses == ["actions/setup-python@v5", "actions/upload-artifact@v4"], uses


def test_run_sh_is_valid_bash():
    proc = subprocess.run(["bash", "-n", str(RUN_SH)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


# -- the command lines the steps build (harness and pip stubbed) ---------------------------------------------------

def test_check_passes_every_input_on_to_harness_check(tmp_path):
    harness_args = _stub(tmp_path / "bin", "harness", "exit 0")
    pip_args = _pip_stub(tmp_path / "bin")
    run = run_action({"adapter-cmd": "node bridge.js --flag", "levels": "wire,robust",
                      "expectations": "ci/expected failures.toml", "hypothesis-profile": "nightly"},
                     tmp_path, tmp_path, path=[tmp_path / "bin"])
    assert not run.failed, run.log
    (line,) = harness_args.read_text().splitlines()
    reports = run.outputs["report-dir"] + "/check"
    expected = (f"check --hypothesis-profile nightly --adapter-cmd node bridge.js --flag --levels wire,robust "
                f"--expectations ci/expected failures.toml --junitxml {reports}/junit.xml "
                f"--markdown {reports}/summary.md --sarif {reports}/check.sarif")
    assert line == expected, f"expected harness {expected}\ngot      harness {line}"
    assert pip_args.read_text().splitlines()[-1] == f"-m pip install --disable-pip-version-check {ROOT}", (
        f"expected the harness installed from the action's checkout, got {pip_args.read_text()!r}")


def test_an_input_with_spaces_stays_one_argument(tmp_path):
    _pip_stub(tmp_path / "bin")
    (tmp_path / "bin" / "harness").write_text('#!/usr/bin/env bash\nfor a in "$@"; do echo "[$a]"; done\n')
    (tmp_path / "bin" / "harness").chmod(0o755)
    run = run_action({"adapter": "pkg.mod:adapter", "expectations": "a b.toml"}, tmp_path, tmp_path,
                     path=[tmp_path / "bin"])
    log = run.step("check").log
    assert "[--expectations]\n[a b.toml]\n" in log, f"expected 'a b.toml' as one argument, got\n{log}"
    assert "[--adapter]\n[pkg.mod:adapter]\n" in log, log


@pytest.mark.parametrize("version, requirement", [
    ("", str(ROOT)),
    ("0.2.0", "agent-contract-harness==0.2.0"),
    ("1.0.0rc1", "agent-contract-harness==1.0.0rc1"),
    ("agent-contract-harness[openai]>=0.2", "agent-contract-harness[openai]>=0.2"),
    ("git+https://example.invalid/harness.git@main", "git+https://example.invalid/harness.git@main"),
])
def test_install_picks_the_harness_from_harness_version(tmp_path, version, requirement):
    pip_args = _pip_stub(tmp_path / "bin")
    _stub(tmp_path / "bin", "harness", "exit 0")
    run = run_action({"adapter": "pkg.mod:adapter", "harness-version": version, "install": "-e .  -r req.txt"},
                     tmp_path, tmp_path, path=[tmp_path / "bin"])
    assert not run.failed, run.log
    expected = f"-m pip install --disable-pip-version-check {requirement} -e . -r req.txt"
    assert pip_args.read_text().splitlines() == [expected], (
        f"harness-version {version!r}: expected python {expected}, got {pip_args.read_text()!r}")


def test_mutate_runs_the_teams_catalogue_with_the_adapter_when_there_is_one(tmp_path):
    harness_args = _stub(tmp_path / "bin", "harness", "exit 0")
    _pip_stub(tmp_path / "bin")
    run = run_action({"adapter": "pkg.mod:adapter", "mutants": "ci/mutants.toml", "check": "false"},
                     tmp_path, tmp_path / "t1", path=[tmp_path / "bin"])
    foreign = run_action({"mutants": "node/mutants.toml", "check": "false"}, tmp_path, tmp_path / "t2",
                         path=[tmp_path / "bin"])
    assert not run.failed and not foreign.failed, run.log + foreign.log
    reports = run.outputs["report-dir"] + "/mutate"
    assert harness_args.read_text().splitlines() == [
        f"mutate --config ci/mutants.toml --report-dir {reports} --adapter pkg.mod:adapter",
        f"mutate --config node/mutants.toml --report-dir {reports}",
    ], harness_args.read_text()
    assert not run.step("check").ran, "check: false must skip harness check"


@pytest.mark.parametrize("given, says", [
    ({}, "set the input adapter"),
    ({"adapter": "a:b", "adapter-cmd": "node b.js"}, "not both"),
    ({"check": "false"}, "nothing to run"),
    ({"adapter": "a:b", "check": "yes"}, "'true' or 'false'"),
])
def test_inputs_that_cannot_work_stop_before_anything_is_installed(tmp_path, given, says):
    pip_args = _stub(tmp_path / "bin", "python", "exit 0")
    harness_args = _stub(tmp_path / "bin", "harness", "exit 0")
    run = run_action(given, tmp_path, tmp_path, path=[tmp_path / "bin"])
    prepare = run.step("prepare")
    assert prepare.code == exit_codes.USAGE, f"inputs {given}: expected exit 2, got {prepare.code}: {prepare.log}"
    assert any(says in line for line in run.annotations("error")), f"inputs {given}: expected {says!r} in {run.log}"
    assert not pip_args.exists() and not harness_args.exists(), f"inputs {given}: ran on after the usage error"
    assert [s.name for s in run.steps if s.ran] == ["prepare"], [s.name for s in run.steps if s.ran]
