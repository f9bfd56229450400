"""How the nightly judges one of mutmut's mutants: which contracts it runs, the retry, the exempted single run.

The engine itself is the known bugs' (its own tests, and the slice test, run
it for real); these tests hold the nightly's decisions around it with a run
that answers as told.
"""

from __future__ import annotations

from harness.mutation.known_bug_run import Baseline
from harness.nightly.equivalents import parse_exemptions
from harness.nightly.generic_run import covering, plan_generic, run_generic
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
        self.executor = type("Executor", (), {"properties": staticmethod(lambda: properties)})()

    def run_patched(self, mutant, patch, source, baseline, *, any_kill=False, explore=None) -> MutantResult:
        assert any_kill, "a generic mutant is settled by its first kill"
        assert patch.text != source, "the mutant is applied"
        self.calls.append((mutant.id, mutant.contracts, explore is not None))
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
    assert "a retry with 1000 examples per property (seed 77) found nothing either" in records[survivor.name].how
    assert records[dies_late.name].status == "killed"
    assert "on a retry with 1000 examples per property (seed 77), after surviving the gate's 50" \
        in records[dies_late.name].how
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
