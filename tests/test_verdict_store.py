"""The verdict store and what an incremental run reuses from it (:mod:`harness.mutation.incremental`).

A scripted run stands in for the engine: a small tree of two contract modules
and two files of code, each contract reaching one file, each known bug judged
by one contract. What the run asks the engine to do again after a change is
the subject: exactly what the change can have touched, nothing it cannot.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

import harness
from harness.mutation.incremental import PartReuse
from harness.mutation.known_bug_run import Baseline
from harness.mutation.tree_digest import tree_digest
from harness.mutation.verdict_store import VerdictStore
from harness.mutation.workspace import Project
from harness.outcomes.mutants import Mutant, MutantResult, RunOutcome, Verdict, matches

FILES = {
    "harness/contracts/test_a.py": "def test_one():\n    assert True\n",
    "harness/contracts/test_b.py": "def test_two():\n    assert True\n",
    "harness/contracts/helpers.py": "LIMIT = 3\n",
    "harness/reference/x.py": "def parse(body):\n    return body.split()\n",
    "harness/reference/y.py": "SIZE = 2\n\n\ndef build():\n    return {'size': SIZE}\n\n\ndef render(turn):\n"
                              "    return [turn] * SIZE\n\n\nTABLE = build()\n",
}
T1, T2 = "test_a.py::test_one", "test_b.py::test_two"
REACH = {T1: {"harness/reference/x.py": [2]}, T2: {"harness/reference/y.py": [9]}}
M1 = Mutant("split-on-space", "t", "i", "harness/reference/x.py", "body.split()", "body.split(' ')", ("test_a.py",))
M3 = Mutant("parse-none", "t", "i", "harness/reference/x.py", "return body", "return None and body", ("test_b.py",))
BOTH = ("test_a.py", "test_b.py")
M4 = Mutant("split-first", "t", "i", "harness/reference/x.py", "body.split()", "body.split()[:1]", BOTH)
M5 = Mutant("split-kept", "t", "i", "harness/reference/x.py", "body.split()", "list(body.split())", BOTH)
SURVIVORS = (M5,)
M2 = Mutant("render-once", "t", "i", "harness/reference/y.py", "[turn] * SIZE", "[turn]", ("test_b.py",))


class ScriptedRun:
    """What :class:`PartReuse` asks of a :class:`KnownBugRun`, recorded."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.executor = SimpleNamespace(collected=self._collect, other_formats=lambda: [])
        self.baseline_contracts: list[str] | None = None
        self.prepared = 0
        self.collects: list[str] | None = None  # what the workers collected (None: every contract)
        self.baselines: list[list[str]] = []
        self.mutants: list[str] = []

    def prepare(self, contracts: list[str] | None = None) -> None:
        if not self.prepared:  # as KnownBugRun's: the workers start once
            self.collects = contracts
        self.prepared += 1

    def _collect(self) -> list[str]:
        """The test functions of each contract module, as the tree holds them now."""
        return [f"{Path(name).name}::{line[4:].partition('(')[0]}" for name in self.project.files
                if Path(name).name.startswith("test_")
                for line in (self.project.root / name).read_text().splitlines() if line.startswith("def test_")]

    def baseline(self, reach: bool = False) -> Baseline:
        assert reach, "an incremental baseline must measure the reach of what it runs"
        ran = list(self.baseline_contracts)
        self.baselines.append(ran)
        lines: dict[str, dict] = {}
        for t in ran:
            for file, numbers in REACH.get(t, {}).items():
                into = lines.setdefault(file, {"statements": [1, 2, 4, 5, 8, 9, 12], "executed": {}})
                for n in numbers:
                    into["executed"].setdefault(str(n), []).append(t)
        tests = {t: {"outcome": "passed", "message": "", "duration": 0.5, "reached": False} for t in ran}
        return Baseline(RunOutcome(tests=tests, wall=2.0, reach_measured=True, lines=lines))

    def run_rest(self, mutants: list[Mutant]) -> list[MutantResult]:
        self.mutants += [m.id for m in mutants]
        results = []
        for m in mutants:
            candidates = [t for t in self._collect() if any(matches(t, c) for c in m.contracts)]
            if m in SURVIVORS:
                results.append(MutantResult(m, Verdict.SURVIVED, "every contract stayed green", tests=candidates))
            else:  # as the engine does: the first kill settles it
                results.append(MutantResult(m, Verdict.KILLED, f"{candidates[0]} failed", tests=candidates[:1]))
        return results


def _tree(root: Path):
    project = Project(root.resolve(), tuple(sorted(FILES)))
    files = {name: project.root / name for name in project.files}
    code = [n for n in files if n.startswith("harness/reference/")]
    return project, tree_digest(files, code, "harness/contracts/", {"profile": "ci"})


def _run(root: Path, store_path: Path, narrow: bool = False) -> tuple[ScriptedRun, list[MutantResult], PartReuse]:
    """One incremental run over the tree at ``root``, the store read from and written back to ``store_path``."""
    project, tree = _tree(root)
    run = ScriptedRun(project)
    store = VerdictStore.load(store_path)
    reuse = PartReuse(store, "gate:x", run, tree, narrow)
    reuse.check_contracts([M1, M2])
    baseline = reuse.baseline(None)
    results = reuse.run_mutants([M1, M2], baseline, run.run_rest)
    reuse.keep()
    assert store.save() == ""
    return run, results, reuse


@pytest.fixture
def tree(tmp_path) -> Path:
    root = tmp_path / "tree"
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def _edit(root: Path, name: str, old: str, new: str) -> None:
    path = root / name
    text = path.read_text()
    assert old in text, f"{old!r} is not in {name}"
    path.write_text(text.replace(old, new, 1))


def test_an_unchanged_tree_reuses_everything_and_starts_no_worker(tree, tmp_path):
    store = tmp_path / "verdicts.json"
    first, before, _ = _run(tree, store)
    assert first.baselines == [[T1, T2]] and first.mutants == [M1.id, M2.id], (first.baselines, first.mutants)
    again, after, reuse = _run(tree, store)
    assert (again.prepared, again.baselines, again.mutants) == (0, [], []), (
        f"expected nothing run on an unchanged tree, got {again.prepared} worker starts, baselines "
        f"{again.baselines}, mutants {again.mutants}")
    assert [(r.mutant.id, r.verdict, r.reason) for r in after] == [(r.mutant.id, r.verdict, r.reason) for r in before]
    assert reuse.counts.as_json() == {"known_bugs": 2, "of_known_bugs": 2, "contracts": 2, "of_contracts": 2}


@pytest.mark.parametrize("name, old, new, contracts, mutants", [
    # a line in a function body: only the contracts that ran that file, and the bugs they judge
    ("harness/reference/x.py", "body.split()", "body.split(None)", [T1], [M1.id]),
    ("harness/reference/y.py", "[turn] * SIZE", "[turn] * SIZE  # one per size", [T2], [M2.id]),
    # a contract module: its contracts, and the bugs they covered
    ("harness/contracts/test_a.py", "assert True", "assert 1", [T1], [M1.id]),
    # what importing runs (a constant; a function called at import), or a helper no reach sees: everything
    ("harness/reference/y.py", "SIZE = 2", "SIZE = 3", [T1, T2], [M1.id, M2.id]),
    ("harness/reference/y.py", "{'size': SIZE}", "{'size': SIZE + 1}", [T1, T2], [M1.id, M2.id]),
    ("harness/contracts/helpers.py", "LIMIT = 3", "LIMIT = 4", [T1, T2], [M1.id, M2.id]),
])
def test_a_change_reruns_what_it_can_have_touched(tree, tmp_path, name, old, new, contracts, mutants):
    store = tmp_path / "verdicts.json"
    _run(tree, store)
    _edit(tree, name, old, new)
    again, _, _ = _run(tree, store)
    assert again.baselines == [contracts] and again.mutants == mutants, (
        f"{name}: {old!r} -> {new!r}: expected the baseline of {contracts} and the known bugs {mutants} run again, "
        f"got {again.baselines} and {again.mutants}")
    third, _, _ = _run(tree, store)
    assert (third.baselines, third.mutants) == ([], []), "the store must hold what the changed run measured"


@pytest.mark.parametrize("narrow, collects", [(True, ["test_a.py"]), (False, None)])
def test_the_workers_collect_only_the_modules_of_what_runs_when_no_bug_is_narrowed_later(tree, tmp_path, narrow,
                                                                                         collects):
    store = tmp_path / "verdicts.json"
    _run(tree, store)
    _edit(tree, "harness/reference/x.py", "body.split()", "body.split(None)")
    again, _, _ = _run(tree, store, narrow)
    assert again.collects == collects, (
        f"narrow={narrow}: expected the workers to collect {collects}, they collected {again.collects}")
    assert again.mutants == [M1.id], again.mutants


def test_a_kill_stands_while_the_contracts_before_it_and_its_killer_are_unchanged(tree, tmp_path):
    store_path = tmp_path / "verdicts.json"

    def run_once() -> ScriptedRun:
        project, tree_now = _tree(tree)
        run = ScriptedRun(project)
        store = VerdictStore.load(store_path)
        reuse = PartReuse(store, "gate:x", run, tree_now)
        reuse.check_contracts([M4, M5])
        reuse.run_mutants([M4, M5], reuse.baseline(None), run.run_rest)
        reuse.keep()
        assert store.save() == ""
        return run

    assert run_once().mutants == [M4.id, M5.id]
    _edit(tree, "harness/reference/y.py", "[turn] * SIZE", "[turn] * SIZE  # one per size")
    assert run_once().mutants == [M5.id], (
        "a contract the killed bug never ran (it stopped at its kill) changed: only the survivor, which ran it, "
        "runs again")


def test_a_contract_added_to_a_module_is_collected_and_run(tree, tmp_path):
    store = tmp_path / "verdicts.json"
    _run(tree, store)
    _edit(tree, "harness/contracts/test_a.py", "    assert True\n", "    assert True\n\n\ndef test_three():\n    pass\n")
    again, _, reuse = _run(tree, store)
    assert again.baselines == [[T1, "test_a.py::test_three"]], (
        f"expected the new contract collected and its module's contracts run, got {again.baselines}")


@pytest.mark.parametrize("verdict", [Verdict.INVALID, Verdict.TIMEOUT, Verdict.STALE])
def test_a_verdict_the_machine_may_have_decided_runs_again(tree, tmp_path, verdict):
    store = tmp_path / "verdicts.json"
    run, _, _ = _run(tree, store)
    data = json.loads(store.read_text())
    data["parts"]["gate:x"]["mutants"][M1.id]["result"]["verdict"] = verdict.value
    store.write_text(json.dumps(data))
    again, _, _ = _run(tree, store)
    assert again.mutants == [M1.id], f"a stored {verdict.value} verdict must run again, ran {again.mutants}"


def _damaged(data: dict, where: str) -> dict:
    part = data["parts"]["gate:x"]
    if where == "verdict":
        part["mutants"][M1.id]["result"]["verdict"] = "maybe"
    elif where == "red baseline entry":
        part["contracts"][T1]["entry"]["outcome"] = "assertion"
    elif where == "lines":
        part["contracts"][T1]["lines"] = {"harness/reference/x.py": ["two"]}
    elif where == "collection":
        part["collection"] = ["test_a.py::test_one"]
    return data


@pytest.mark.parametrize("damage, says", [
    (lambda text: text[: len(text) // 2], "unreadable"),
    (lambda text: "", "unreadable"),
    (lambda text: "[1, 2]", "not a verdict store"),
    (lambda text: json.dumps({**json.loads(text), "layout": 99}), "not a verdict store"),
    (lambda text: json.dumps({**json.loads(text), "harness": "0.0.1"}),
     f"written by harness 0.0.1, this is {harness.__version__}"),
    *[(lambda text, w=where: json.dumps(_damaged(json.loads(text), w)), "damaged")
      for where in ("verdict", "red baseline entry", "lines", "collection")],
])
def test_a_damaged_or_foreign_store_is_a_full_run_told_in_one_line(tree, tmp_path, damage, says):
    store = tmp_path / "verdicts.json"
    _run(tree, store)
    store.write_text(damage(store.read_text()))
    loaded = VerdictStore.load(store)
    assert says in loaded.note and "a full run" in loaded.note and "\n" not in loaded.note, loaded.note
    again, results, reuse = _run(tree, store)
    assert again.baselines == [[T1, T2]] and again.mutants == [M1.id, M2.id], (again.baselines, again.mutants)
    assert reuse.counts.bugs == 0 and [r.verdict for r in results] == [Verdict.KILLED, Verdict.KILLED]
    assert VerdictStore.load(store).note == "", "the full run must write a store the next run reads"


def test_a_missing_store_is_a_full_run_told_in_one_line(tmp_path):
    loaded = VerdictStore.load(tmp_path / "none" / "verdicts.json")
    assert loaded.parts == {} and "none yet, a full run" in loaded.note, loaded.note


def test_the_console_and_the_summary_say_what_was_reused():
    from harness.outcomes.score import Thresholds
    from harness.report.console import render_console
    from harness.report.digest import digest
    from harness.report.markdown import render_markdown
    from harness.report.stryker_json import build_report

    reused = {"store": ".harness/verdicts.json", "known_bugs": 175, "of_known_bugs": 204, "contracts": 321,
              "of_contracts": 330}
    result = MutantResult(M1, Verdict.KILLED, "test_a.py::test_one failed", source=FILES[M1.file])
    report = build_report([result], thresholds=Thresholds(), run={"seconds": 1.0, "reused": reused})
    d = digest(report, Thresholds())
    said = ("reused from the verdict store .harness/verdicts.json: 175 of 204 known-bug verdicts, 321 of 330 "
            "baseline contracts")
    assert said in render_console(d), render_console(d)
    assert f"- {said}" in render_markdown(report, d), render_markdown(report, d)
    full = build_report([result], thresholds=Thresholds(), run={"seconds": 1.0})
    assert "verdict store" not in render_console(digest(full, Thresholds())), "a full run reuses nothing"
