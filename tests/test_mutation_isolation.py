"""The runner never touches the user's tree: not when interrupted, not with a hung mutant.

Also: a contract whose guarding assertion is deleted lets its mutant survive,
and the gate says so with its exit code.
"""

import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from harness.mutation.catalogue import load_catalogue
from harness.exit_codes import INTERRUPTED as EXIT_INTERRUPTED
from harness.exit_codes import SURVIVED as EXIT_SURVIVED
from harness.mutation.command import BUNDLED_CATALOGUE, exit_code
from harness.mutation.executor import Children, ContractsExecutor
from harness.mutation.outcome import Verdict
from harness.mutation.runner import KnownBugRun
from harness.mutation.workspace import Project
from test_mutation_verdicts import _leftovers, _tree_digest

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


def test_sigint_during_a_hung_mutant_leaves_the_tree_identical(tmp_path):
    catalogue = tmp_path / "mutants.toml"
    catalogue.write_text(HUNG)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    project = Project.bundled()
    before = _tree_digest(project)
    proc = subprocess.Popen(
        [sys.executable, "-m", "harness", "mutate", "--config", str(catalogue), "--jobs", "1", "--timeout", "120"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "TMPDIR": str(scratch)},
    )
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("baseline:"):
            break
    deadline = time.monotonic() + 30
    while not _processes_in("harness-expect-hang") and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _processes_in("harness-expect-hang"), "the hung mutant never started:\n" + "".join(lines)
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    output, _ = proc.communicate(timeout=60)
    assert proc.returncode == EXIT_INTERRUPTED, "".join(lines) + output
    assert "interrupted" in output
    assert not _processes_in("harness-expect-hang"), "the hung mutant's process outlived the run"
    assert _tree_digest(project) == before, "the interrupted run changed the package tree"
    assert not _leftovers(scratch), f"copies left behind: {_leftovers(scratch)}"


def test_deleting_the_guarding_assertion_makes_the_mutant_survive(tmp_path):
    bundled = Project.bundled()
    for relative in bundled.files:
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(bundled.root / relative, tmp_path / relative)
    contract = tmp_path / "harness/contracts/test_reasoning_omit_empty.py"
    text = contract.read_text()
    guard = '    assert "reasoning_content" not in wire, (\n        f"reasoning_content={wire[\'reasoning_content\']!r} present, but should be absent "'
    assert guard in text, "the guarding assertion moved; update this test"
    contract.write_text(text.replace(guard, '    (\n        f"reasoning_content present, but should be absent "'))
    weakened = Project(root=tmp_path, files=bundled.files)
    (mutant,) = load_catalogue(BUNDLED_CATALOGUE).select(["reasoning-emitted-when-empty"])
    mutant = replace(mutant, contracts=("test_reasoning_omit_empty.py::test_no_reasoning_key_without_reasoning",))
    with KnownBugRun(weakened, ContractsExecutor(Children()), jobs=1) as run:
        results = run.run([mutant], run.baseline(), lambda r: None)
    assert results[0].verdict is Verdict.SURVIVED, f"{results[0].verdict}: {results[0].reason}\n{results[0].message}"
    assert exit_code(results) == EXIT_SURVIVED
