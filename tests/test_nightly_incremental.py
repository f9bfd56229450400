"""The incremental nightly: mutmut's mutants' verdicts and the exploration reused from the verdict store while
everything they depend on is unchanged, and run again as soon as any of it changes.

A run that answers as told stands in for the warm workers (the engine has its own tests); a part of the store
with fixed contract keys stands in for :class:`~harness.mutation.incremental.PartReuse`, whose own keys
``tests/test_verdict_store.py`` holds.
"""

from __future__ import annotations

import json
from dataclasses import replace
from types import SimpleNamespace

import pytest

from harness.cli import nightly as nightly_cli
from harness.mutation.incremental import PartReuse
from harness.mutation.known_bug_run import Baseline
from harness.mutation.tree_digest import tree_digest
from harness.mutation.verdict_store import VerdictStore
from harness.mutation.workspace import Project
from harness.nightly.explore_budget import ExploreBudget
from harness.nightly.generic_run import plan_generic, reuse_stored, run_generic
from harness.nightly.locate import Change
from harness.nightly.mutant_reuse import REUSED_NOTE, MutantReuse
from harness.nightly.mutmut_run import Generated, GeneratedMutant
from harness.outcomes.mutants import MutantResult, Position, RunOutcome, Verdict

FILE = "harness/reference/demo.py"
SOURCE = "def decode(raw):\n    if not raw:\n        return ''\n    return raw.strip()\n"
PROPERTY, EXAMPLE = "a.py::t1", "b.py::t2"  # t1 is a Hypothesis property, t2 is not
LINES = {FILE: {"statements": [1, 2, 3, 4], "executed": {"2": [PROPERTY, EXAMPLE], "3": [EXAMPLE], "4": [PROPERTY]}}}


def _mutant(n: int, line: int, original: str, replacement: str) -> GeneratedMutant:
    column = SOURCE.splitlines()[line - 1].index(original) + 1
    change = Change(Position(line, column), Position(line, column + len(original)), original, replacement)
    return GeneratedMutant(f"harness.reference.demo.x_decode__mutmut_{n}", FILE, "decode", f"diff {n}", change)


KILLED = _mutant(1, 2, "not raw", "raw")  # covered by both; killed by its first run
SURVIVOR = _mutant(2, 4, "raw.strip()", "raw")  # covered by the property: survives its retry too
UNDECIDED = _mutant(3, 4, "raw.strip()", "None")  # its retry runs out of its time bound
EXAMPLE_ONLY = _mutant(4, 3, "''", "'XX'")  # covered by the example contract alone: never retried
MUTANTS = (KILLED, SURVIVOR, UNDECIDED, EXAMPLE_ONLY)
FIRST = {KILLED.name: Verdict.KILLED, SURVIVOR.name: Verdict.SURVIVED, UNDECIDED.name: Verdict.SURVIVED,
         EXAMPLE_ONLY.name: Verdict.SURVIVED}
RETRY = {SURVIVOR.name: Verdict.SURVIVED, UNDECIDED.name: Verdict.TIMEOUT}


class _Run:
    """Answers each mutant's first run and retry as told; records which mutants ran and whether workers started."""

    jobs = 1

    def __init__(self) -> None:
        self.ran: list[str] = []
        self.prepared = 0
        children = SimpleNamespace(stop_all=lambda: None)
        self.executor = SimpleNamespace(properties=lambda: [PROPERTY], children=children)

    def prepare(self) -> None:
        self.prepared += 1

    def run_patched(self, mutant, patch, source, baseline, *, any_kill=False, explore=None, budget=None):
        if explore is None:
            self.ran.append(mutant.id)
        verdict = (RETRY if explore is not None else FIRST)[mutant.id]
        killed = [mutant.contracts[0]] if verdict is Verdict.KILLED else []
        return MutantResult(mutant, verdict, f"told {verdict.value}", killed_by=killed, duration=1.0)


def _baseline() -> Baseline:
    tests = {t: {"outcome": "passed", "message": "", "duration": 0.5} for t in (PROPERTY, EXAMPLE)}
    return Baseline(RunOutcome(tests=tests, lines=LINES))


def _part(stored: dict, keys: dict[str, str]) -> SimpleNamespace:
    """A part of the store: what an earlier run kept, and the contracts' keys as this run's baseline has them."""
    tree = SimpleNamespace(shared="shared", whole=lambda name: f"whole {name}")
    return SimpleNamespace(name="gate:demo", stored=stored, state={}, tree=tree, contract_key=keys.__getitem__,
                           properties=lambda: [PROPERTY])


def _nightly(stored: dict, seed: int = 7, keys: dict[str, str] | None = None,
             mutants: tuple[GeneratedMutant, ...] = MUTANTS):
    """One format's mutmut phase over the store's part ``stored``: (what ran, the records, what it keeps)."""
    part = _part(stored, keys or {PROPERTY: "k1", EXAMPLE: "k2"})
    reuse = MutantReuse(part, seed)
    run = _Run()
    plan = plan_generic(Generated(list(mutants), len(mutants), {FILE: SOURCE}, ()), _baseline())
    reuse_stored(plan, reuse, [PROPERTY], None)
    records = {m.name: m for m in run_generic(run, _baseline(), plan, seed, lambda _: None, None, reuse,
                                                [PROPERTY]).mutants}
    reuse.keep_all()
    # What the store writes is JSON: the next run reads it back from there.
    return run, records, json.loads(json.dumps(part.state)), reuse


def test_an_unchanged_nightly_reuses_every_decided_verdict_and_reruns_the_undecided_one() -> None:
    first, records, kept, _ = _nightly({})
    assert sorted(first.ran) == sorted(m.name for m in MUTANTS) and first.prepared == 1
    assert set(kept["mutmut"]) == {KILLED.name, SURVIVOR.name, EXAMPLE_ONLY.name}, (
        f"stored {sorted(kept['mutmut'])}: a retry cut at its time bound may come from the machine, never stored")
    again, reused, _, reuse = _nightly(kept)
    assert again.ran == [UNDECIDED.name], f"an unchanged nightly ran {again.ran}: expected only the undecided one"
    assert (reuse.reused, reuse.of) == (3, 4)
    for m in (KILLED, SURVIVOR, EXAMPLE_ONLY):
        assert replace(reused[m.name], how="") == replace(records[m.name], how=""), (
            f"{m.name}: the reused record differs from the one the full run made")
        assert reused[m.name].how == f"{records[m.name].how}; {REUSED_NOTE}"
    assert reused[UNDECIDED.name].status == records[UNDECIDED.name].status == "survived"
    assert _nightly(kept_again := _nightly(kept)[2])[0].ran == [UNDECIDED.name], "what was reused is kept again"
    assert set(kept_again["mutmut"]) == set(kept["mutmut"])


def test_nothing_to_run_starts_no_worker() -> None:
    decided = (KILLED, SURVIVOR, EXAMPLE_ONLY)
    _, _, kept, _ = _nightly({}, mutants=decided)
    again, _, _, _ = _nightly(kept, mutants=decided)
    assert again.ran == [] and again.prepared == 0, f"ran {again.ran}, started workers {again.prepared} time(s)"


def test_a_new_seed_reruns_only_the_verdicts_a_retry_reached() -> None:
    _, _, kept, _ = _nightly({}, seed=7)
    other, _, _, _ = _nightly(kept, seed=8)
    assert sorted(other.ran) == sorted([SURVIVOR.name, UNDECIDED.name]), (
        f"under a new seed {other.ran} ran: a kill by the gate's examples and a survivor without a property do not "
        "depend on the seed; a survivor whose retry ran does")


def test_a_changed_contract_reruns_every_mutant_it_judges() -> None:
    _, _, kept, _ = _nightly({})
    changed, _, _, _ = _nightly(kept, keys={PROPERTY: "k1", EXAMPLE: "k2 after an edit"})
    assert sorted(changed.ran) == sorted([KILLED.name, UNDECIDED.name, EXAMPLE_ONLY.name]), (
        f"{changed.ran} ran after the example contract changed: expected the mutants it covers and the undecided one")


@pytest.mark.parametrize("damage", [
    lambda part: part["mutmut"].update({"x": {"key": "k", "record": {"status": "timeout"}}}),
    lambda part: part["mutmut"].update({"x": {"record": {}}}),
    lambda part: part.update({"mutmut": []}),
    lambda part: part.update({"exploration": {"key": "k", "ran": {"p": "many"}, "wall": 1.0}}),
], ids=["a timeout stored", "no key", "not an object", "examples not counted"])
def test_a_damaged_nightly_share_makes_the_store_unused(tmp_path, damage) -> None:
    path = tmp_path / "verdicts.json"
    part = {"collection": {"key": "c", "items": [], "others": []}, "statements": {}, "contracts": {},
            "startup": 0.0, "mutants": {}, "mutmut": {}}
    VerdictStore(path, {"gate:demo": part}).save()
    assert VerdictStore.load(path).note == "", "the undamaged store is read"
    damage(part)
    VerdictStore(path, {"gate:demo": part}).save()
    loaded = VerdictStore.load(path)
    assert loaded.parts == {} and "damaged" in loaded.note and "a full run" in loaded.note, loaded.note


def test_a_gate_run_keeps_the_nightlys_share_of_the_part(tmp_path) -> None:
    (tmp_path / "harness" / "reference").mkdir(parents=True)
    (tmp_path / FILE).write_text(SOURCE)
    project = Project(tmp_path, (FILE,))
    tree = tree_digest({FILE: tmp_path / FILE}, [FILE], "harness/contracts/", {})
    nightly_share = {"mutmut": {"m": {"key": "k"}}, "exploration": {"key": "e", "ran": {}, "wall": 1.0}}
    store = VerdictStore(tmp_path / "verdicts.json", {"gate:demo": {"collection": {"key": "c"}, **nightly_share}})
    reuse = PartReuse(store, "gate:demo", SimpleNamespace(project=project), tree)
    reuse.state["collection"] = {"key": "c", "items": [], "others": []}
    reuse.keep()
    assert {k: store.parts["gate:demo"][k] for k in nightly_share} == nightly_share


class _ExploringRun:
    jobs = 1

    def __init__(self) -> None:
        self.explored: list[int] = []

    def explore(self, profile, seed, examples, costs) -> RunOutcome:
        self.explored.append(seed)
        return RunOutcome(tests={p: {"outcome": "passed", "message": "", "duration": 1.0, "examples": n}
                                 for p, n in examples.items()})


def test_a_green_exploration_is_reused_under_its_seed_and_run_under_another() -> None:
    baseline = Baseline(RunOutcome(tests={PROPERTY: {"outcome": "passed", "message": "", "duration": 0.5,
                                                     "examples": 50}}))

    def explore(stored: dict, seed: int) -> tuple[_ExploringRun, ExploreBudget, dict]:
        run, budget = _ExploringRun(), ExploreBudget(10.0, 1)
        reuse = MutantReuse(_part(stored, {PROPERTY: "k1"}), seed)
        green, _ = nightly_cli._explore(run, baseline, budget, "demo", seed, reuse)
        assert green
        return run, budget, json.loads(json.dumps(reuse.part.state))

    first, budget, kept = explore({}, 7)
    assert first.explored == [7] and kept["exploration"]["ran"] == budget.ran["demo"]
    again, reused_budget, kept_again = explore(kept, 7)
    assert again.explored == [], "the same seed, examples and contracts: the green exploration is reused"
    assert reused_budget.ran == budget.ran and kept_again["exploration"] == kept["exploration"]
    other, _, _ = explore(kept, 8)
    assert other.explored == [8], "a new seed explores anew"
