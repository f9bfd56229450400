"""A run with many failures names the place to start first: the first failure of the lowest rule level.

Results print as they are decided, so robust failures may come long before the
wire failure that causes them; the summary starts by naming that wire failure.
"""

from __future__ import annotations

from harness.outcomes.results import FAILED, PASSED, Result
from harness.report.results_console import summary_lines


def _result(name: str, status: str, level: str) -> Result:
    return Result(name=name, suite="s", status=status, level=level, capability="stream", message="m")


def test_the_summary_starts_with_the_first_failure_of_the_lowest_level_whatever_came_first():
    results = [_result(f"test_robust.py::test_{n}", FAILED, "robust") for n in range(12)]
    results += [_result("test_ok.py::test_ok", PASSED, "wire"), _result("test_wire.py::test_index", FAILED, "wire"),
                _result("test_wire.py::test_later", FAILED, "wire")]
    lines = summary_lines(results, "contracts", by_capability=True)
    assert lines[1] == ("start here: [wire, stream] test_wire.py::test_index: of 14 failing contracts, the first of "
                        "the lowest rule level; the others may follow from it"), lines[:3]
    assert lines[2] == "by rule level and capability:", lines[:3]


def test_one_failure_needs_no_pointer():
    lines = summary_lines([_result("test_wire.py::test_index", FAILED, "wire")], "contracts", by_capability=True)
    assert not any(line.startswith("start here") for line in lines), lines
