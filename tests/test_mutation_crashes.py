"""A contract that goes red because the patched code raises has caught the bug: a kill of kind ``crash``.

Stryker, PIT and mutmut count a test that errors because of the mutant as a
kill. These three realistic bugs make the reference raise (IndexError, its own
StreamError, an unmatched request inside the HTTP client); each is a bundled
known bug and must be killed with kind ``crash``, in memory and in a copy.
"""

import pytest
from test_mutation_verdicts import private_copy

from harness.cli.mutate import BUNDLED_CATALOGUE
from harness.mutation.catalogue import load_catalogue
from harness.mutation.in_memory_executor import ContractsExecutor
from harness.mutation.known_bug_run import KnownBugRun
from harness.mutation.workspace import Project
from harness.outcomes.mutants import Verdict
from harness.processes import Children

CRASHES = {
    "usage-chunk-read-as-first-choice": "IndexError",
    "sse-lines-split-on-lf-only": "StreamError",
    "base-url-trailing-slash-doubled": "harness/reference/transport.py",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return private_copy(Project.bundled(), tmp_path_factory.mktemp("project"))


@pytest.mark.parametrize("mode", ["auto", "copy"])
def test_bugs_that_make_the_code_raise_are_killed_with_kind_crash(project, mode):
    mutants = load_catalogue(BUNDLED_CATALOGUE).select(list(CRASHES))
    with Children() as children, KnownBugRun(project, ContractsExecutor(children, mode=mode), jobs=2) as run:
        results = run.run(mutants, run.baseline(), lambda r: None)
    for result in results:
        assert (result.verdict, result.kind) == (Verdict.KILLED, "crash"), (
            f"{result.mutant.id} ({mode}): {result.status_line}\n{result.message}"
        )
        assert CRASHES[result.mutant.id] in result.message, result.message
