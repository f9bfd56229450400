"""How the nightly judges one of mutmut's mutants: which contracts it runs, the retry, the exempted single run.

The engine itself is the known bugs' (its own tests, and the slice test, run
it for real); these tests hold the nightly's decisions around it with a run
that answers as told.
"""

from __future__ import annotations

import threading

from harness.mutation.known_bug_run import Baseline
from harness.nightly.equivalents import parse_exemptions
from harness.nightly.explore_budget import RETRY_BOUND_FACTOR, RETRY_MIN_BOUND, RETRY_SECONDS
from harness.nightly.explore_budget import Plan as ExplorePlan
from harness.nightly.generic_run import covering, plan_generic, run_generic, schedule
from harness.nightly.locate import Change
from harness.nightly.mutmut_run import Generated, GeneratedMutant
from harness.outcomes.mutants import MutantResult, Position, RunOutcome, Verdict

FILE = "harness/reference/demo.py"
SOURCE = (
    "def decode(raw):\n"
    "    if not raw:\n"
    "        raise ValueError('empty')  # pragma: no mutate (out of scope: `'empty'` -> *: error wording)\n"
    "    return raw.strip()\n"
)
# Line 2 ran under three contracts, line 3 under two, line 4 under one; durations pick the cheapest.
LINES = {FILE: {"statements": [1, 2, 3, 4],
                "executed": {"2": ["a.py::t1", "a.py::t2", "b.py::t3"], "3": ["a.py::t2", "b.py::t3"],
                             "4": ["a.py::t1"]}}}
DURATIONS = {"a.py::t1": 0.5, "a.py::t2": 2.0, "b.py::t3": 0.1}


def _baseline() -> Baseline:
    tests = {t: {"outcome": "passed", "message": "", "duration": d} for t, d in DURATIONS.items()}
    return Baseline(RunOutcome(tests=tests, lines=LINES))


def _mutant(n: int, line: int, original: str, replacement: str) -> GeneratedMutant:
    text = SOURCE.splitlines()[line - 1]
    column = text.index(original) + 1
    change = Change(Position(line, column), Position(line, column + len(original)), original, replacement)
    return GeneratedMutant(f"harness.reference.demo.x_decode__mutmut_{n}", FILE, "decode", f"diff {n}", change)


def _generated(*mutants: GeneratedMutant) -> Generated:
    return Generated(list(mutants), len(mutants), {FILE: SOURCE}, tuple(parse_exemptions(SOURCE, FILE)))


class _Run:
    """Answers ``run_patched`` with the verdicts it was given, first run then retry, and records each call."""

    jobs = 1

    def __init__(self, verdicts: dict[str, list[Verdict]], properties: list[str]) -> None:
        self.verdicts = verdicts
        self.calls: list[tuple[str, tuple[str, ...], bool]] = []
        self.retries: list[tuple[dict, float | None]] = []  # each retry's examples and time bound
        children = type("Children", (), {"stop_all": staticmethod(lambda: None)})()
        self.executor = type("Executor", (), {"properties": staticmethod(lambda: properties), "children": children})()

    def run_patched(self, mutant, patch, source, baseline, *, any_kill=False, explore=None,
                    budget=None) -> MutantResult:
        assert any_kill, "a generic mutant is settled by its first kill"
        assert patch.text != source, "the mutant is applied"
        self.calls.append((mutant.id, mutant.contracts, explore is not None))
        if explore is not None:
            self.retries.append((explore["examples"], budget))
        verdict = self.verdicts[mutant.id].pop(0)
        killed = [mutant.contracts[0]] if verdict is Verdict.KILLED else []
        return MutantResult(mutant, verdict, f"told {verdict.value}", killed_by=killed, duration=1.0)

    def map(self, items, one, on_result):
        return [one(item) for item in items]


def test_a_mutant_runs_only_the_contracts_that_ran_its_lines() -> None:
    line4 = _mutant(1, 4, "raw.strip()", "None")
    assert covering(LINES, FILE, line4.change) == ["a.py::t1"]
    assert covering(LINES, FILE, _mutant(2, 2, "not raw", "raw").change) == ["a.py::t1", "a.py::t2", "b.py::t3"]
    assert covering(LINES, "harness/reference/other.py", line4.change) == []


def test_a_survivor_with_properties_is_retried_and_a_kill_on_the_retry_says_so() -> None:
    survivor, dies_late = _mutant(1, 4, "raw.strip()", "None"), _mutant(2, 2, "not raw", "raw")
    run = _Run({survivor.name: [Verdict.SURVIVED, Verdict.SURVIVED],
                dies_late.name: [Verdict.SURVIVED, Verdict.KILLED]}, properties=["a.py::t1"])
    plan = plan_generic(_generated(survivor, dies_late), _baseline())
    result = run_generic(run, _baseline(), plan, 77, lambda _: None)
    records = {m.name: m for m in result.mutants}
    assert records[survivor.name].status == "survived"
    assert "a retry with up to 1000 examples per property (seed 77) found nothing either" \
        in records[survivor.name].how
    assert records[dies_late.name].status == "killed"
    assert "on a retry with up to 1000 examples per property (seed 77), after surviving the gate's 50" \
        in records[dies_late.name].how
    assert run.retries == [({}, None), ({}, None)], "without an exploration: the profile's examples, the run's budget"
    assert [(name[-1], retry) for name, _, retry in run.calls] == [("1", False), ("1", True), ("2", False),
                                                                   ("2", True)]


def test_a_survivor_without_a_property_among_its_contracts_is_not_retried() -> None:
    survivor = _mutant(1, 4, "raw.strip()", "None")
    run = _Run({survivor.name: [Verdict.SURVIVED]}, properties=["b.py::t3"])
    result = run_generic(run, _baseline(), plan_generic(_generated(survivor), _baseline()), 1, lambda _: None)
    assert result.mutants[0].status == "survived" and len(run.calls) == 1


def test_an_out_of_scope_mutant_runs_once_under_its_cheapest_contract() -> None:
    wording = _mutant(1, 3, "'empty'", "'XXemptyXX'")
    run = _Run({wording.name: [Verdict.SURVIVED]}, properties=list(DURATIONS))
    result = run_generic(run, _baseline(), plan_generic(_generated(wording), _baseline()), 1, lambda _: None)
    (record,) = result.mutants
    assert run.calls == [(wording.name, ("b.py::t3",), False)], "one run, the cheapest covering contract, no retry"
    assert record.covered_by == ("a.py::t2", "b.py::t3")
    assert "out of scope: run under the cheapest of the 2 contracts that cover it only" in record.how


def test_a_mutant_no_contract_ran_is_no_tests_without_a_run() -> None:
    unrun = _mutant(1, 1, "decode", "XXdecodeXX")
    run = _Run({}, properties=[])
    result = run_generic(run, _baseline(), plan_generic(_generated(unrun), _baseline()), 1, lambda _: None)
    assert result.mutants[0].status == "no tests" and run.calls == []


def test_a_retry_takes_the_examples_and_the_bound_the_exploration_gives_and_one_that_runs_out_is_undecided() -> None:
    late, dies = _mutant(1, 4, "raw.strip()", "None"), _mutant(2, 2, "not raw", "raw")
    run = _Run({late.name: [Verdict.SURVIVED, Verdict.TIMEOUT], dies.name: [Verdict.SURVIVED, Verdict.KILLED]},
               properties=["a.py::t1"])
    explored = ExplorePlan(60.0, {"a.py::t1": 0.125}, {"a.py::t1": 3})
    plan = plan_generic(_generated(late, dies), _baseline())
    records = {m.name: m for m in run_generic(run, _baseline(), plan, 5, lambda _: None, explored).mutants}
    assert run.retries == [({"a.py::t1": 160}, RETRY_BOUND_FACTOR * 20.0)] * 2, \
        f"retries ran with {run.retries}: expected the 160 examples 20s buy at 0.125s, whatever the exploration got"
    assert records[late.name].status == "survived", "a retry that ran out is no kill: the gate's survival stands"
    assert "a retry with up to 160 examples per property (seed 5) ran out of its time bound" in records[late.name].how
    assert records[late.name].how.endswith(": undecided"), records[late.name].how
    assert records[dies.name].status == "killed"


def test_a_retrys_examples_are_what_its_seconds_buy_shared_over_its_properties() -> None:
    explored = ExplorePlan(600.0, {"p1": 0.001, "p2": 0.1, "p3": 0.3}, {"p1": 1, "p2": 1, "p3": 1})
    examples, bound = explored.retry(["p1", "p2", "p3", "not a property"])
    expected = sum(explored.costs[p] * n for p, n in examples.items())
    assert set(examples) == {"p1", "p2", "p3"} and examples["p1"] == 1000, examples
    assert RETRY_SECONDS - 0.5 <= expected <= RETRY_SECONDS, f"retry {examples}: {expected:.1f}s expected"
    assert bound == max(RETRY_MIN_BOUND, RETRY_BOUND_FACTOR * expected), (examples, bound)
    cheap, cheap_bound = explored.retry(["p1"])
    assert cheap == {"p1": 1000} and cheap_bound == RETRY_MIN_BOUND, (cheap, cheap_bound)


def test_a_follow_up_runs_before_the_tasks_not_yet_started() -> None:
    order: list[str] = []

    def task(name: str, follow_up=None):
        def run_it():
            order.append(name)
            return MutantResult(None, Verdict.KILLED, name), follow_up
        return run_it

    tasks = [task("a", task("a-retry")), task("b"), task("c")]
    told: list[str] = []
    schedule(_Run({}, []), tasks, lambda result: told.append(result.reason))
    assert order == ["a", "a-retry", "b", "c"], f"ran in the order {order}"
    assert sorted(told) == ["a-retry", "b", "c"], f"results told: {told} (a's is its retry's)"


def test_a_retry_runs_beside_a_mutant_still_running_instead_of_after_it() -> None:
    # b holds its job until the retry has started: a scheduler that ran retries after every first run would hang.
    retry_started = threading.Event()

    def a():
        def retry():
            retry_started.set()
            return MutantResult(None, Verdict.KILLED, "a-retry"), None
        return MutantResult(None, Verdict.SURVIVED, "a"), retry

    def b():
        assert retry_started.wait(30), "the retry did not start while b was running"
        return MutantResult(None, Verdict.KILLED, "b"), None

    run = _Run({}, [])
    run.jobs = 2
    told: list[str] = []
    schedule(run, [a, b], lambda result: told.append(result.reason))
    assert sorted(told) == ["a-retry", "b"], told
