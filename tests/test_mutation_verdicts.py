"""Proof that the known-bug runner's verdicts are right, on a deliberately bad catalogue.

Each entry below is built to earn exactly one verdict; one run decides them all.
The run also proves isolation: the package tree is byte-identical afterwards,
no copy is left behind and no process outlives the run.
"""

import hashlib
import shutil
import tempfile
from pathlib import Path

import pytest

from harness.mutation.catalogue import load_catalogue
from harness.mutation.in_memory_executor import Children, ContractsExecutor
from harness.mutation.known_bug_run import KnownBugRun
from harness.mutation.workspace import Project
from harness.outcomes.mutants import Verdict

MESSAGES = "harness/reference/messages.py"
TOP_LEVEL = "test_reasoning_top_level.py::test_reasoning_is_top_level_beside_content"
OMIT = "test_reasoning_omit_empty.py::test_no_reasoning_key_without_reasoning"

BAD_CATALOGUE = f'''
[[mutant]]
id = "expect-killed"
title = "reasoning emitted when empty"
incident = "control: a real bug the named contracts catch, each of them"
file = "{MESSAGES}"
find = "        if msg.reasoning:"
replace = "        if msg.reasoning is not None:"
contracts = ["{OMIT}[empty-text]", "{OMIT}[empty-tool-calls]"]

[[mutant]]
id = "expect-unreached"
title = "tool messages lose their call id, but the named contract never serializes one"
incident = "verdict proof"
file = "{MESSAGES}"
find = "        wire[\\"tool_call_id\\"] = msg.tool_call_id"
replace = "        wire[\\"tool_call_id\\"] = None"
contracts = ["{TOP_LEVEL}"]

[[mutant]]
id = "expect-survived"
title = "a behaviour change the named contract does not check"
incident = "verdict proof"
file = "{MESSAGES}"
find = "        \\"function\\": {{\\"name\\": call.name, \\"arguments\\": call.arguments}},"
replace = "        \\"function\\": {{\\"name\\": call.name.upper(), \\"arguments\\": call.arguments}},"
contracts = ["test_reasoning_top_level.py::test_reasoning_is_top_level_with_tool_calls"]

[[mutant]]
id = "expect-stale-missing"
title = "anchor not in the file"
incident = "verdict proof"
file = "{MESSAGES}"
find = "this text is nowhere in the reference"
replace = "x"
contracts = ["{TOP_LEVEL}"]

[[mutant]]
id = "expect-stale-ambiguous"
title = "anchor occurs more than once"
incident = "verdict proof"
file = "{MESSAGES}"
find = "wire["
replace = "wire.get("
contracts = ["{TOP_LEVEL}"]

[[mutant]]
id = "expect-invalid-syntax"
title = "patch breaks the syntax"
incident = "verdict proof"
file = "{MESSAGES}"
find = "def to_wire(msg: Message) -> dict:"
replace = "def to_wire(msg: Message) -> dict"
contracts = ["{TOP_LEVEL}"]

[[mutant]]
id = "expect-killed-crash"
title = "the code under test raises: a crash the bug causes is a kill"
file = "{MESSAGES}"
find = "    wire: dict = {{\\"role\\": msg.role, \\"content\\": msg.content}}"
replace = "    raise RuntimeError(\\"boom\\")"
contracts = ["{TOP_LEVEL}"]

[[mutant]]
id = "expect-killed-in-two-modules"
title = "two named contracts in two modules: each runs until it kills, and both are listed"
file = "{MESSAGES}"
find = "    wire: dict = {{\\"role\\": msg.role, \\"content\\": msg.content}}"
replace = "    raise RuntimeError(\\"boom\\")"
contracts = ["test_reasoning_top_level.py", "test_wire_fields.py::test_tool_message_keeps_its_call_id"]

[[mutant]]
id = "expect-invalid-outside"
title = "the contract machinery raises, not the code under test: red for the wrong reason"
incident = "verdict proof"
file = "harness/under_test/shapes.py"
find = "    error = next(iter(sorted(_validator(method).iter_errors(value), key=lambda e: len(e.absolute_path))), None)"
replace = "    raise RuntimeError(\\"the shape checker broke\\")"
contracts = ["{TOP_LEVEL}"]

[[mutant]]
id = "expect-timeout"
title = "endless loop"
incident = "verdict proof"
file = "{MESSAGES}"
find = "    wire: dict = {{\\"role\\": msg.role, \\"content\\": msg.content}}"
replace = "    while True:\\n        pass"
contracts = ["{TOP_LEVEL}"]

[[mutant]]
id = "expect-unreached-serial-path"
title = "the incident's weak test: tools not parallel-safe, so the batch path never runs"
incident = "batch-path-pairing: the first regression test went down the serial path and stayed green"
file = "harness/reference/frame.py"
find = """
            self.append_tool_call_record(call)
            self._record_result(call, future.result())"""
replace = """
            self._record_result(call, future.result())"""
contracts = ["test_batch_pairing.py::test_serial_path_pairs_calls_and_results"]
'''


def _tree_digest(project: Project) -> str:
    digest = hashlib.sha256()
    for relative in project.files:
        digest.update(relative.encode() + b"\0" + (project.root / relative).read_bytes())
    return digest.hexdigest()


def private_copy(project: Project, root: Path) -> Project:
    """The package in a folder of the test's own, so that nobody else's edit can change it during the run."""
    for relative in project.files:
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(project.root / relative, root / relative)
    return Project(root=root, files=project.files)


def _leftovers(scratch: Path) -> list[str]:
    """What a run left in its private temporary directory (the shared Hypothesis cache aside)."""
    return sorted(p.name for p in scratch.iterdir() if p.name != "harness-hypothesis-cache")


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    path = tmp_path_factory.mktemp("catalogue") / "mutants.toml"
    path.write_text(BAD_CATALOGUE)
    scratch = tmp_path_factory.mktemp("scratch")
    project = private_copy(Project.bundled(), tmp_path_factory.mktemp("project"))
    before = _tree_digest(project)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tempfile, "tempdir", str(scratch))  # where every mutant copy is made
        with Children() as children:
            with KnownBugRun(project, ContractsExecutor(children), jobs=2) as run:
                results = run.run(list(load_catalogue(path).mutants), run.baseline(), lambda r: None)
            assert not children.running(), f"process groups left running: {children.running()}"
    assert _tree_digest(project) == before, "the mutant run changed the package tree"
    assert not _leftovers(scratch), f"copies left behind: {_leftovers(scratch)}"
    return {r.mutant.id: r for r in results}


@pytest.mark.parametrize(
    "mutant_id, verdict",
    [
        ("expect-killed", Verdict.KILLED),
        ("expect-unreached", Verdict.UNREACHED),
        ("expect-survived", Verdict.SURVIVED),
        ("expect-stale-missing", Verdict.STALE),
        ("expect-stale-ambiguous", Verdict.STALE),
        ("expect-invalid-syntax", Verdict.INVALID),
        ("expect-killed-crash", Verdict.KILLED),
        ("expect-killed-in-two-modules", Verdict.KILLED),
        ("expect-invalid-outside", Verdict.INVALID),
        ("expect-timeout", Verdict.TIMEOUT),
        ("expect-unreached-serial-path", Verdict.UNREACHED),
    ],
)
def test_verdict(verdicts, mutant_id, verdict):
    result = verdicts[mutant_id]
    assert result.verdict is verdict, (
        f"{mutant_id}: verdict {result.verdict.value}, expected {verdict.value}; reason: {result.reason}\n{result.message}"
    )


def test_killed_names_every_killing_contract_and_its_message(verdicts):
    result = verdicts["expect-killed"]
    assert result.killed_by == [f"{OMIT}[empty-text]", f"{OMIT}[empty-tool-calls]"], result.killed_by
    assert result.kind == "assertion" and "reasoning_content" in result.message


def test_each_named_contract_runs_until_it_kills_even_across_modules(verdicts):
    result = verdicts["expect-killed-in-two-modules"]
    modules = sorted(k.split("::")[0] for k in result.killed_by)
    assert modules == ["test_reasoning_top_level.py", "test_wire_fields.py"], result.killed_by
    assert all(not m.startswith("setup:") for m in [result.message]), result.message


def test_a_crash_out_of_the_code_under_test_is_a_kill_of_kind_crash(verdicts):
    result = verdicts["expect-killed-crash"]
    assert result.kind == "crash" and result.killed_by == [TOP_LEVEL], (result.kind, result.killed_by)
    assert "RuntimeError: boom" in result.message and "harness/reference/messages.py" in result.message
    assert result.status_line.startswith("killed (crash): ")


def test_a_failure_outside_the_code_under_test_is_invalid_and_ran_in_a_copy(verdicts):
    result = verdicts["expect-invalid-outside"]
    assert "outside the code under test" in result.reason and "shape checker broke" in result.message
    assert result.engine.startswith("copy of the project"), result.engine


def test_in_memory_patches_say_how_they_were_applied(verdicts):
    assert verdicts["expect-killed"].engine == "in-memory: code swap"
    assert verdicts["expect-invalid-syntax"].verdict is Verdict.INVALID
    assert "does not compile" in verdicts["expect-invalid-syntax"].message


def test_stale_says_why(verdicts):
    assert "does not occur" in verdicts["expect-stale-missing"].reason
    assert "occurs" in verdicts["expect-stale-ambiguous"].reason and "times" in verdicts["expect-stale-ambiguous"].reason


def test_reports_of_a_real_run_are_schema_valid_and_junit_readable(verdicts, tmp_path):
    import json
    import xml.etree.ElementTree as ET

    from test_reports import _validator, write

    written = write(list(verdicts.values()), tmp_path)
    report = json.loads(written["json"].read_text())
    _validator().validate(report)
    mutants = {m["id"]: m for f in report["files"].values() for m in f["mutants"]}
    assert mutants["expect-killed"]["status"] == "Killed" and mutants["expect-killed"]["killedBy"]
    assert mutants["expect-unreached"]["status"] == "NoCoverage"
    suite = ET.parse(written["junit"]).getroot()
    suites = suite.findall("testsuite") if suite.tag == "testsuites" else [suite]
    assert len(suites) == 1 and len(suites[0].findall("testcase")) == len(verdicts)
    failed = {c.get("name") for c in suites[0].findall("testcase") if c.find("failure") is not None}
    assert failed == set(verdicts) - {"expect-killed", "expect-killed-crash", "expect-killed-in-two-modules"}
    assert "killed (crash)" in mutants["expect-killed-crash"]["statusReason"]
