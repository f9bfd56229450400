"""Verdicts never depend on the order of a known bug's contracts list.

Reach that depends on which test happened to import a module first made a
bundled bug killed with ``contracts = ["test_vector_text.py"]`` and invalid
with ``["test_batch_pairing.py", "test_vector_text.py"]``. Here every bundled
bug runs twice in one run: as catalogued, and with its list reversed behind a
contract module that runs first.
"""

from dataclasses import replace

import pytest

from harness.mutation.catalogue import load_catalogue
from harness.children import Children
from harness.mutation.command import BUNDLED_CATALOGUE
from harness.mutation.executor import ContractsExecutor
from harness.mutation.outcome import Verdict
from harness.mutation.runner import KnownBugRun
from harness.mutation.workspace import Project
from test_mutation_verdicts import private_copy

FIRST = "test_batch_pairing.py"  # runs first in every permuted list: it drives most of the reference


def _permuted(mutant):
    contracts = [c for c in reversed(mutant.contracts) if c != FIRST]
    return replace(mutant, id=f"{mutant.id}-permuted", contracts=(FIRST, *contracts))


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return private_copy(Project.bundled(), tmp_path_factory.mktemp("project"))


def _run(project, mutants, mode="auto"):
    with Children() as children, KnownBugRun(project, ContractsExecutor(children, mode=mode), jobs=2) as run:
        return {r.mutant.id: r for r in run.run(mutants, run.baseline(), lambda r: None)}


def test_permuting_every_bundled_bugs_contracts_changes_no_verdict(project):
    bundled = list(load_catalogue(BUNDLED_CATALOGUE).mutants)
    results = _run(project, bundled + [_permuted(m) for m in bundled])
    differ = []
    for mutant in bundled:
        original, permuted = results[mutant.id], results[f"{mutant.id}-permuted"]
        own = [k for k in permuted.killed_by if any(k.startswith(c.split("::")[0]) for c in mutant.contracts)]
        if permuted.verdict is not original.verdict or (original.verdict is Verdict.KILLED and not own):
            differ.append(
                f"{mutant.id}: {original.verdict.value} as catalogued, {permuted.verdict.value} permuted "
                f"({permuted.reason}) killed by {permuted.killed_by}"
            )
    assert not differ, "\n".join(differ)


def test_the_copy_fallback_kills_a_module_level_bug_in_either_order(project):
    """The copy-per-mutant fallback credits import-time lines to every contract, whatever comes first."""
    (mutant,) = load_catalogue(BUNDLED_CATALOGUE).select(["vector-text-without-reasoning"])
    results = _run(project, [mutant, _permuted(mutant)], mode="copy")
    for result in results.values():
        assert result.verdict is Verdict.KILLED, f"{result.mutant.id}: {result.status_line}\n{result.message}"
        assert result.engine.startswith("copy of the project")
