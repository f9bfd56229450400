"""Which lines of the code under test each contract ran, measured once in a baseline fork.

The nightly picks the contracts a generic mutant runs from this: only those
that ran the mutated lines unpatched can reach them patched (the same
examples run, the gate's profile is derandomized). coverage.py measures it,
one dynamic context per contract; code run before the fork (imports,
collection) is not measured, so a line only that runs is covered by no contract.

Imports only coverage and the standard library (see :mod:`warm_fork`).
"""

from __future__ import annotations

import coverage


class LineReach:
    """Use around the contract loop: :meth:`switch` names the current contract; :meth:`result` what each ran."""

    def __init__(self, code_dirs: list[str]) -> None:
        self.cov = coverage.Coverage(data_file=None, include=[d.rstrip("/") + "/*" for d in code_dirs],
                                     config_file=False, branch=False)

    def __enter__(self) -> LineReach:
        self.cov.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.cov.stop()

    def switch(self, nodeid: str | None) -> None:
        self.cov.switch_context(nodeid or "")

    def result(self) -> dict[str, dict]:
        """file -> ``{"statements": [line...], "executed": {line: [contract...]}}`` for every measured file."""
        data = self.cov.get_data()
        found = {}
        for filename in sorted(data.measured_files()):
            try:
                statements = sorted(self.cov.analysis2(filename)[1])
            except coverage.CoverageException:
                statements = []
            executed = {str(n): sorted(c for c in contexts if c)
                        for n, contexts in data.contexts_by_lineno(filename).items()}
            found[filename] = {"statements": statements, "executed": {n: c for n, c in executed.items() if c}}
        return found
