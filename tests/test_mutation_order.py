"""Verdicts never depend on the order of a known bug's contracts list.

Reach that depends on which test happened to import a module first made a
bundled bug killed with ``contracts = ["test_vector_text.py"]`` and invalid
with ``["test_batch_pairing.py", "test_vector_text.py"]``. Here every bundled
bug's list, with a contract module that drives most of the reference added to
it, runs in every order (for a longer list: reversed and every rotation), all
in one run beside the lists as catalogued; each must keep the catalogued
verdict, and a kill must still come from the bug's own contracts.
"""

import itertools
from dataclasses import replace

import pytest
from test_mutation_verdicts import private_copy

from harness.cli.mutate import BUNDLED_CATALOGUE
from harness.mutation.catalogue import load_catalogue
from harness.mutation.in_memory_executor import ContractsExecutor
from harness.mutation.known_bug_run import KnownBugRun
from harness.mutation.workspace import Project
from harness.outcomes.mutants import Verdict
from harness.processes import Children

LEAD = "test_batch_pairing.py"  # added to every list: it drives most of the reference, so it imports it first
ALL_ORDERS_UP_TO = 3  # longer lists: reversed and every rotation (n + 1 orders, not n!)


def orderings(contracts: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every order of a short list; of a longer one its reversal and every rotation; each once."""
    if len(contracts) <= ALL_ORDERS_UP_TO:
        found = itertools.permutations(contracts)
    else:
        found = [*(contracts[i:] + contracts[:i] for i in range(len(contracts))), contracts[::-1]]
    return list(dict.fromkeys(found))


def _reordered(mutant):
    """The mutant once per order of its contracts with :data:`LEAD` among them, the catalogued order left out."""
    contracts = mutant.contracts if LEAD in mutant.contracts else (*mutant.contracts, LEAD)
    return [replace(mutant, id=f"{mutant.id}@{n}", contracts=order)
            for n, order in enumerate(o for o in orderings(contracts) if o != mutant.contracts)]


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return private_copy(Project.bundled(), tmp_path_factory.mktemp("project"))


def _run(project, mutants, mode="auto"):
    with Children() as children, KnownBugRun(project, ContractsExecutor(children, mode=mode), jobs=2) as run:
        return {r.mutant.id: r for r in run.run(mutants, run.baseline(), lambda r: None)}


def test_orderings_are_every_permutation_of_a_short_list_and_rotations_of_a_long_one():
    assert orderings(("a",)) == [("a",)]
    assert sorted(orderings(("a", "b", "c"))) == sorted(itertools.permutations("abc"))
    assert orderings(("a", "b", "c", "d")) == [
        ("a", "b", "c", "d"), ("b", "c", "d", "a"), ("c", "d", "a", "b"), ("d", "a", "b", "c"), ("d", "c", "b", "a"),
    ]


def test_no_order_of_any_bundled_bugs_contracts_changes_its_verdict(project):
    bundled = list(load_catalogue(BUNDLED_CATALOGUE).mutants)
    variants = {m.id: _reordered(m) for m in bundled}
    results = _run(project, bundled + [v for vs in variants.values() for v in vs])
    differ = []
    for mutant in bundled:
        original = results[mutant.id]
        for variant in variants[mutant.id]:
            reordered = results[variant.id]
            own = [k for k in reordered.killed_by if any(k.startswith(c.split("::")[0]) for c in mutant.contracts)]
            if reordered.verdict is not original.verdict or (original.verdict is Verdict.KILLED and not own):
                differ.append(
                    f"{mutant.id}: {original.verdict.value} as catalogued, {reordered.verdict.value} with "
                    f"{list(variant.contracts)} ({reordered.reason}) killed by {reordered.killed_by}"
                )
    assert not differ, "\n".join(differ)


def test_the_copy_fallback_kills_a_module_level_bug_in_every_order(project):
    """The copy-per-mutant fallback credits import-time lines to every contract, whatever comes first."""
    (mutant,) = load_catalogue(BUNDLED_CATALOGUE).select(["vector-text-without-reasoning"])
    results = _run(project, [mutant, *_reordered(mutant)], mode="copy")
    assert len(results) == 3
    for result in results.values():
        assert result.verdict is Verdict.KILLED, f"{result.mutant.id}: {result.status_line}\n{result.message}"
        assert result.engine.startswith("copy of the project")
