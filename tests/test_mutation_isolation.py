"""The runner never touches the user's tree: not when interrupted, not with a hung mutant.

The user's tree is a private copy the run starts from (its own ``harness``
package), so the digest changes only by what the run writes, never by an
edit someone makes to the shared working tree meanwhile.

Also: a contract whose guarding assertion is deleted lets its mutant survive,
and the gate says so with its exit code.
"""

import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from test_mutation_verdicts import _leftovers, _tree_digest, private_copy

from harness.cli.mutate import BUNDLED_CATALOGUE, exit_code
from harness.exit_codes import INTERRUPTED as EXIT_INTERRUPTED, SURVIVED as EXIT_SURVIVED
from harness.mutation.catalogue import load_catalogue
from harness.mutation.in_memory_executor import Children, ContractsExecutor
from harness.mutation.known_bug_run import KnownBugRun
from harness.mutation.workspace import Project
from harness.outcomes.mutants import Verdict

HUNG = '''
[[mutant]]
id = "expect-hang"
title = "endless loop"
incident = "isolation proof"
file = "harness/reference/messages.py"
find = "    wire: dict = {\\"role\\": msg.role, \\"content\\": msg.content}"
replace = "    while True:\\n        pass"
contracts = ["test_reasoning_top_level.py::test_reasoning_is_top_level_beside_content"]
'''


def _processes_in(prefix: str) -> list[str]:
    """Processes whose working directory is a mutant copy named ``prefix``."""
    found = []
    for cwd in Path("/proc").glob("[0-9]*/cwd"):
        try:
            if Path(os.readlink(cwd)).name.startswith(prefix):
                found.append(cwd.parent.name)
        except OSError:
            continue
    return found


def _run_from(project: Project) -> dict:
    """An environment in which ``python -m harness`` is the package in ``project``, not the shared tree's."""
    env = {**os.environ, "PYTHONPATH": str(project.root), "PYTHONUNBUFFERED": "1"}
    where = subprocess.run([sys.executable, "-c", "import harness; print(harness.__file__)"], env=env,
                           cwd=project.root, capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where).is_relative_to(project.root), f"the run would import {where}, not the private copy"
    return env


def test_sigint_during_a_hung_mutant_leaves_the_tree_identical(tmp_path):
    catalogue = tmp_path / "mutants.toml"
    catalogue.write_text(HUNG)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    # The run's own tree is a private copy: others may edit the shared one while this runs, and only
    # the run's writes may change the digest.
    project = private_copy(Project.bundled(), tmp_path / "user-tree")
    before = _tree_digest(project)
    proc = subprocess.Popen(
        [sys.executable, "-m", "harness", "mutate", "--config", str(catalogue), "--jobs", "1", "--timeout", "120"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=project.root,
        env={**_run_from(project), "TMPDIR": str(scratch)},
    )
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("baseline:"):
            break
    deadline = time.monotonic() + 120  # a loaded machine may take a while
    while not _processes_in("harness-expect-hang") and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _processes_in("harness-expect-hang"), "the hung mutant never started:\n" + "".join(lines)
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    output, _ = proc.communicate(timeout=60)
    assert proc.returncode == EXIT_INTERRUPTED, "".join(lines) + output
    assert "interrupted" in output
    assert not _processes_in("harness-expect-hang"), "the hung mutant's process outlived the run"
    assert _tree_digest(project) == before, "the interrupted run changed the tree it ran from"
    assert not _leftovers(scratch), f"copies left behind: {_leftovers(scratch)}"


def test_deleting_the_guarding_assertion_makes_the_mutant_survive(tmp_path):
    weakened = private_copy(Project.bundled(), tmp_path)
    contract = tmp_path / "harness/contracts/test_reasoning_omit_empty.py"
    text = contract.read_text()
    guard = '    assert "reasoning_content" not in wire, (\n        f"reasoning_content={shown(wire[\'reasoning_content\'])} present, but should be absent "'
    assert guard in text, "the guarding assertion moved; update this test"
    contract.write_text(text.replace(guard, '    (\n        f"reasoning_content present, but should be absent "'))
    (mutant,) = load_catalogue(BUNDLED_CATALOGUE).select(["reasoning-emitted-when-empty"])
    mutant = replace(mutant, contracts=("test_reasoning_omit_empty.py::test_no_reasoning_key_without_reasoning",))
    with KnownBugRun(weakened, ContractsExecutor(Children()), jobs=1) as run:
        results = run.run([mutant], run.baseline(), lambda r: None)
    assert results[0].verdict is Verdict.SURVIVED, f"{results[0].verdict}: {results[0].reason}\n{results[0].message}"
    assert exit_code(results) == EXIT_SURVIVED
