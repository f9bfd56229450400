"""The nightly's exploration within its budget: each property's examples from what one of its examples costs,
the budget's parts per format, and the jobs sharing the properties by expected time."""

from __future__ import annotations

import pytest

from harness.config.hypothesis_profiles import CI_EXAMPLES
from harness.mutation.in_memory_executor import _by_cost
from harness.nightly.explore_budget import CEILING, FLOOR, ExploreBudget, allot, per_example


def _seconds(costs: dict[str, float], examples: dict[str, int]) -> float:
    return sum(costs[p] * n for p, n in examples.items())


def test_cheap_properties_get_every_example_and_the_rest_of_the_budget_goes_to_the_costly_ones() -> None:
    costs = {"cheap": 0.001, "mid": 0.03, "dear": 0.2}
    examples = allot(costs, seconds=60.0, jobs=1)
    assert examples["cheap"] == CEILING, f"a property whose full run fits gets every example: {examples}"
    assert FLOOR < examples["dear"] < examples["mid"] < CEILING, examples
    used = _seconds(costs, examples)
    assert 59.5 <= used <= 60, f"the job's 60s are filled, not exceeded: {used:.1f}s of {examples}"


def test_no_property_gets_more_than_one_jobs_part() -> None:
    examples = allot({"huge": 1.0, "tiny": 0.0001}, seconds=100.0, jobs=4)
    assert _seconds({"huge": 1.0}, {"huge": examples["huge"]}) <= 100.0, f"a property runs on one job: {examples}"


@pytest.mark.parametrize("seconds", [0.0, 0.3])
def test_a_budget_too_small_leaves_no_property_out_and_gives_each_the_floor(seconds: float) -> None:
    assert allot({"a": 0.5, "b": 0.2}, seconds=seconds, jobs=2) == {"a": FLOOR, "b": FLOOR} == {"a": 1, "b": 1}


def test_a_thin_budget_is_held_not_overrun() -> None:
    costs = {f"p{n}": 0.05 for n in range(40)}  # 40 properties whose 50 examples would take 100s
    examples = allot(costs, seconds=10.0, jobs=2)
    assert _seconds(costs, examples) <= 20.0, f"2 jobs x 10s: {examples} take {_seconds(costs, examples):.1f}s"
    assert min(examples.values()) >= 1, "no property is left out"


def test_a_budget_large_enough_runs_the_profiles_full_examples() -> None:
    assert allot({"a": 0.01, "b": 0.02}, seconds=10_000.0, jobs=1) == {"a": CEILING, "b": CEILING}


def test_one_examples_cost_is_the_baselines_seconds_over_the_examples_it_counted() -> None:
    tests = {"p": {"duration": 2.0, "examples": 40}, "q": {"duration": 1.0}, "plain": {"duration": 9.0}}
    assert per_example(tests, ["p", "q", "gone"]) == {"p": 0.05, "q": 1.0 / CI_EXAMPLES}


def test_each_format_gets_an_equal_part_of_what_is_left_and_what_one_leaves_goes_to_the_next() -> None:
    budget = ExploreBudget(90.0, formats=3)
    first = budget.plan("a", {"p": {"duration": 1.0, "examples": 50}}, ["p"], jobs=1)
    assert first.seconds == 30.0
    budget.spend(10.0)
    second = budget.plan("b", {}, [], jobs=1)
    assert second.seconds == 40.0 and second.examples == {}, "the 20s a left unused is shared by b and c"
    budget.spend(0.0)
    assert budget.plan("c", {}, [], jobs=1).seconds == 80.0


def test_the_jobs_share_properties_by_expected_seconds_not_by_count() -> None:
    costs = {"m.py::a": 10.0, "m.py::b": 1.0, "m.py::c": 1.0, "n.py::d": 1.0, "n.py::e": 7.0}
    shares = _by_cost(list(costs), costs, 2)
    loads = sorted(sum(costs[t] for t in share) for share in shares)
    assert loads == [10.0, 10.0], f"shares {shares} take {loads} seconds"
