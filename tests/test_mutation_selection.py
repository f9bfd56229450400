"""A selection of known bugs (``--only``, a shard) baselines and collects only the contracts its mutants name.

The full run still checks every contract the catalogue names, and a misspelt
name is a usage error wherever it is: the module or the test of a selected
mutant, or any mutant of a full run.
"""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness import CONTRACTS_DIR, exit_codes
from harness.mutation.in_memory_executor import ContractsExecutor, collection_targets
from harness.mutation.known_bug_run import KnownBugRun
from harness.mutation.workspace import Project
from harness.processes import Children

BATCH = "test_batch_pairing.py::test_batch_path_pairs_calls_and_results"  # one test of a two-test module
INDEX = "test_sse_index_accumulation.py"  # a whole module


def _catalogue(contracts: str) -> str:
    """Two known bugs of the bundled reference; the second names ``contracts``."""
    return textwrap.dedent(f'''
        [[mutant]]
        id = "batch-drops-call-record"
        title = "The concurrent batch path records results but never the calls"
        file = "harness/reference/frame.py"
        find = """
                    self.append_tool_call_record(call)
                    self._record_result(call, future.result())"""
        replace = """
                    self._record_result(call, future.result())"""
        contracts = ["{BATCH}"]

        [[mutant]]
        id = "accumulate-by-position"
        title = "Streamed tool-call fragments are accumulated by list position"
        file = "harness/reference/accumulator.py"
        find = "self.accs[index]"
        replace = "self.accs[i]"
        contracts = [{contracts}]
    ''')


def _mutate(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", "mutate", "--jobs", "1", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=600)


def test_only_baselines_just_the_contract_its_mutant_names(tmp_path):
    run = _mutate("--only", "batch-drops-call-record", "--report-dir", str(tmp_path), cwd=tmp_path)
    out = run.stdout + run.stderr
    assert run.returncode == exit_codes.OK, out
    assert "baseline: 1 contracts green" in out, out  # the whole bundled baseline is hundreds


def test_the_workers_collect_only_the_modules_named():
    named = [BATCH, INDEX]
    with Children() as children, KnownBugRun(Project.bundled(), ContractsExecutor(children), jobs=1,
                                             baseline_contracts=named) as run:
        run.prepare()
        collected = run.executor.collected()
        baseline = run.baseline()
    assert {t.split("::")[0] for t in collected} == {"test_batch_pairing.py", INDEX}, collected
    assert sorted(baseline.outcome.tests) == sorted(t for t in collected if t == BATCH or t.startswith(INDEX)), (
        baseline.outcome.tests)


@pytest.mark.parametrize(
    ("contracts", "narrowed"),
    [
        ([BATCH, INDEX, BATCH.replace("batch_path", "serial_path")], ["test_batch_pairing.py", INDEX]),
        ([BATCH, "test_batch_path_pairs_calls_and_results"], None),  # a bare test name: any module may hold it
        ([BATCH, "test_batch_pairng.py"], None),  # misspelt: told apart from the real modules by name
        (["__init__.py::x", "turns.py"], ["__init__.py", "turns.py"]),
        (["../__init__.py"], None),  # outside the contracts
        (None, None),
    ],
    ids=["modules", "bare-name", "misspelt-module", "any-python-file", "outside", "all"],
)
def test_collection_targets_are_the_named_modules_or_the_whole_folder(contracts, narrowed):
    expected = [str(CONTRACTS_DIR / m) for m in sorted(narrowed)] if narrowed else [str(CONTRACTS_DIR)]
    assert collection_targets(CONTRACTS_DIR, contracts) == expected


@pytest.mark.parametrize(
    ("contracts", "only"),
    [
        ('"test_sse_index_accumulation.py::test_no_such_test"', ["--only", "accumulate-by-position"]),
        ('"test_sse_index_acumulation.py"', ["--only", "accumulate-by-position"]),
        ('"test_sse_index_accumulation.py::test_no_such_test"', []),  # the full run checks every mutant's names
    ],
    ids=["selected-misspelt-test", "selected-misspelt-module", "full-run"],
)
def test_a_misspelt_contract_is_a_usage_error_with_its_mutant(tmp_path, contracts, only):
    catalogue = tmp_path / "mutants.toml"
    catalogue.write_text(_catalogue(contracts))
    run = _mutate("--config", str(catalogue), *only, "--report-dir", str(tmp_path / "reports"), cwd=tmp_path)
    out = run.stdout + run.stderr
    assert run.returncode == exit_codes.USAGE, out
    assert f"mutant 'accumulate-by-position': field 'contracts' names {contracts.strip(chr(34))!r}" in out, out
    assert "which matches no contract (known: " in out and "Traceback" not in out, out
    assert "baseline:" not in out, out  # told before any contract ran


@pytest.mark.parametrize(("extra", "code"), [
    ('"test_anthropic_history_render.py"', exit_codes.OK),  # another format's contract: named, not run here
    ('"test_anthropic_histroy_render.py"', exit_codes.USAGE),  # no format's contract: misspelt
], ids=["other-format", "misspelt"])
def test_a_contract_of_another_format_is_known_but_not_run(tmp_path, extra, code):
    """A bug of shared code names each format's contract; a run against one format's adapter runs its own only."""
    catalogue = tmp_path / "mutants.toml"
    catalogue.write_text(_catalogue(f'"{INDEX}", {extra}'))
    run = _mutate("--config", str(catalogue), "--only", "accumulate-by-position", "--report-dir",
                  str(tmp_path / "reports"), cwd=tmp_path)
    out = run.stdout + run.stderr
    assert run.returncode == code, out
    if code == exit_codes.OK:
        assert "killed    accumulate-by-position" in out, out
