"""The nightly across wire formats: every row of the format table baselined against its own reference, each
mutmut mutant run under the formats whose contracts reached it, and a score per format in the summary.

The engine is the known bugs' (its own tests run it for real); here a run that answers as told stands in for
each format's warm workers, so the rule across formats is what is tested.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from harness.cli import nightly as nightly_cli
from harness.mutation import gate_plan
from harness.formats import SPECS
from harness.exit_codes import BASELINE
from harness.mutation.known_bug_run import Baseline, BaselineRed
from harness.nightly.explore_budget import ExploreBudget
from harness.nightly.formats_run import SHARED, UNREACHED, AcrossFormats, module_groups
from harness.nightly.locate import Change
from harness.nightly.mutmut_run import Generated, GeneratedMutant
from harness.outcomes.mutants import MutantResult, Position, RunOutcome, Verdict
from harness.outcomes.score import Thresholds
from harness.report.digest import digest
from harness.report.format_scores import FORMATS_KEY, MODULES_KEY, format_score_lines, format_scores
from harness.report.markdown import render_markdown
from harness.report.stryker_json import build_report

GEMINI = "harness/reference/gemini/parts.py"
SHARED_FILE = "harness/reference/round_history.py"
CHAT = "harness/reference/frame.py"
SOURCE = "def f(x):\n    return x + 1\n"


def _mutant(file: str, n: int = 1) -> GeneratedMutant:
    module = file.removesuffix(".py").replace("/", ".")
    change = Change(Position(2, 12), Position(2, 17), "x + 1", "x - 1")
    return GeneratedMutant(f"{module}.x_f__mutmut_{n}", file, "f", f"diff {n}", change)


def _baseline(contract: str, *files: str) -> Baseline:
    lines = {file: {"statements": [1, 2], "executed": {"2": [contract]}} for file in files}
    return Baseline(RunOutcome(tests={contract: {"outcome": "passed", "message": "", "duration": 0.1}}, lines=lines))


class _Run:
    """Answers each mutant with the verdict told for (format, mutant); records what ran under which format."""

    jobs = 1

    def __init__(self, name: str, verdicts: dict[tuple[str, str], Verdict], calls: list[tuple[str, str]]) -> None:
        self.name, self.verdicts, self.calls = name, verdicts, calls
        children = type("Children", (), {"stop_all": staticmethod(lambda: None)})()
        self.executor = type("Executor", (), {"properties": staticmethod(lambda: []), "children": children})()

    def run_patched(self, mutant, patch, source, baseline, *, any_kill=False, explore=None) -> MutantResult:
        self.calls.append((self.name, mutant.id))
        verdict = self.verdicts[(self.name, mutant.id)]
        killed = [mutant.contracts[0]] if verdict is Verdict.KILLED else []
        return MutantResult(mutant, verdict, f"told {verdict.value}", killed_by=killed, duration=1.0)

    def map(self, items, one, on_result):
        results = [one(item) for item in items]
        for result in results:
            on_result(result)
        return results


def _across(*mutants: GeneratedMutant) -> AcrossFormats:
    sources = {m.file: SOURCE for m in mutants}
    return AcrossFormats(Generated(list(mutants), len(mutants), sources, ()))


def _run_formats(across: AcrossFormats, reach: dict[str, tuple[str, ...]],
                 verdicts: dict[tuple[str, str], Verdict]) -> tuple[list[tuple[str, str]], list[MutantResult]]:
    calls: list[tuple[str, str]] = []
    results: list[MutantResult] = []
    for name, files in reach.items():
        baseline = _baseline(f"test_{name}.py::t", *files)
        across.run(name, _Run(name, verdicts, calls), baseline, across.plan(name, baseline), 1, results.append)
    return calls, results


def test_every_row_of_the_format_table_is_baselined_against_its_own_reference(monkeypatch) -> None:
    seen: list[tuple[str, str]] = []

    def fake_format(spec, part, children, jobs, shard, seed, across, tally, budget) -> None:
        seen.append((spec.name, spec.reference))
        assert part.format == spec.name and part.catalogues == spec.catalogue_paths, "each format runs its own bugs"

    monkeypatch.setattr(nightly_cli, "_format", fake_format)
    monkeypatch.setattr(nightly_cli, "check_exemptions", lambda exemptions: None)
    monkeypatch.setattr(nightly_cli, "_generate", lambda children, shard, jobs: Generated([], 0, {}, ()))
    monkeypatch.setattr(nightly_cli, "publish", lambda report, *a, **k: digest(report, Thresholds()))
    assert nightly_cli.run_nightly(None, None, 1, 5) == 0
    assert seen == [(spec.name, spec.reference) for spec in SPECS.values()]


def test_each_format_runs_its_contracts_against_its_own_reference_with_reach(monkeypatch) -> None:
    made: list[tuple[str, bool]] = []

    class FakeRun:
        """Records the executor it was given; finds its baseline red, so the format stops before exploring."""

        def __init__(self, project, executor, jobs) -> None:
            made.append((executor.adapter, executor.bundled))

        def __enter__(self) -> FakeRun:
            return self

        def __exit__(self, *exc) -> None:
            pass

        def explore(self, *args) -> RunOutcome:
            raise AssertionError("a format whose baseline is red is not explored")

        def baseline(self, reach=False) -> Baseline:
            assert reach, "the baseline measures the lines each contract ran"
            raise BaselineRed(RunOutcome())

    monkeypatch.setattr(nightly_cli, "KnownBugRun", FakeRun)
    tally = nightly_cli._Tally()
    parts = {part.format: part for part in gate_plan.plan(SPECS.values(), SPECS.values())}
    for spec in SPECS.values():
        nightly_cli._format(spec, parts[spec.name], None, 1, None, 1, None, tally, ExploreBudget(60.0, len(SPECS)))
    assert made == [(spec.reference, True) for spec in SPECS.values()]
    assert tally.codes == [BASELINE] * len(SPECS), "a red baseline stops its format, not the run"
    assert [line.split(":")[0] for line in tally.contracts] == list(SPECS)
    assert all("not explored" in line for line in tally.contracts), tally.contracts


def test_a_gemini_mutant_runs_under_the_gemini_reference_only() -> None:
    mutant = _mutant(GEMINI)
    across = _across(mutant)
    calls, results = _run_formats(across, {"chat": (CHAT,), "gemini": (GEMINI,)},
                                  {("gemini", mutant.name): Verdict.KILLED})
    assert calls == [("gemini", mutant.name)]
    (record,) = across.result().mutants
    assert (record.status, record.format) == ("killed", "gemini")
    assert [r.format for r in results] == ["gemini"]
    assert across.groups() == {GEMINI: "gemini"}


def test_a_shared_mutant_is_killed_if_any_format_that_reaches_it_kills_it() -> None:
    killed_late, survivor = _mutant(SHARED_FILE, 1), _mutant(SHARED_FILE, 2)
    across = _across(killed_late, survivor)
    reach = {"chat": (CHAT,), "anthropic": (SHARED_FILE,), "gemini": (SHARED_FILE,)}
    calls, _ = _run_formats(across, reach, {
        ("anthropic", killed_late.name): Verdict.SURVIVED, ("gemini", killed_late.name): Verdict.KILLED,
        ("anthropic", survivor.name): Verdict.SURVIVED, ("gemini", survivor.name): Verdict.SURVIVED,
    })
    assert ("chat", killed_late.name) not in calls, "chat's contracts never reached it"
    records = {m.name: m for m in across.result().mutants}
    assert (records[killed_late.name].status, records[killed_late.name].format) == ("killed", "gemini")
    assert records[killed_late.name].covered_by == ("test_anthropic.py::t", "test_gemini.py::t")
    assert (records[survivor.name].status, records[survivor.name].format) == ("survived", "anthropic")
    assert "under anthropic: " in records[survivor.name].how and "under gemini: " in records[survivor.name].how
    assert across.groups() == {SHARED_FILE: SHARED}


def test_a_killed_mutant_is_not_run_under_the_later_formats() -> None:
    mutant = _mutant(SHARED_FILE)
    calls, _ = _run_formats(_across(mutant), {"chat": (SHARED_FILE,), "gemini": (SHARED_FILE,)},
                            {("chat", mutant.name): Verdict.KILLED})
    assert calls == [("chat", mutant.name)]


def test_a_mutant_no_format_reaches_is_no_tests() -> None:
    mutant = _mutant(GEMINI)
    across = _across(mutant)
    calls, _ = _run_formats(across, {"chat": (CHAT,), "anthropic": ()}, {})
    (record,) = across.result().mutants
    assert calls == [] and (record.status, record.format) == ("no tests", "")
    assert module_groups([GEMINI, CHAT], {"chat": {CHAT}, "anthropic": set()}) == {GEMINI: UNREACHED, CHAT: "chat"}


def test_a_mutant_whose_diff_could_not_be_placed_is_credited_to_no_format() -> None:
    unplaced = replace(_mutant(GEMINI), change=None)
    across = _across(unplaced)
    calls, _ = _run_formats(across, {"chat": (CHAT,), "gemini": (GEMINI,)}, {})
    (record,) = across.result().mutants
    assert calls == [] and (record.status, record.format) == ("suspicious", "")


def test_the_summary_gives_the_score_per_format_and_the_total() -> None:
    gemini_killed, gemini_survived, shared_killed = _mutant(GEMINI, 1), _mutant(GEMINI, 2), _mutant(SHARED_FILE, 3)
    across = _across(gemini_killed, gemini_survived, shared_killed)
    _run_formats(across, {"chat": (SHARED_FILE,), "gemini": (GEMINI, SHARED_FILE)}, {
        ("gemini", gemini_killed.name): Verdict.KILLED, ("gemini", gemini_survived.name): Verdict.SURVIVED,
        ("chat", shared_killed.name): Verdict.KILLED,
    })
    run = {"seed": 1, "mutmut_mutants": 3, MODULES_KEY: across.groups(), FORMATS_KEY: ["chat", "gemini"]}
    report = build_report([], across.result(), run=run)
    assert [(name, s.text(), s.total) for name, s in format_scores(report)] == [("gemini", "50.0%", 2),
                                                                               (SHARED, "100.0%", 1)]
    summary = render_markdown(report, digest(report, Thresholds()))
    assert "mutation score 66.7%" in summary
    assert "  - gemini: 50.0% over 2 mutants: Survived: 1 · Killed: 1" in summary
    assert "  - shared: 100.0% over 1 mutants: Killed: 1" in summary
    assert format_score_lines(report)[1] == "  gemini: 50.0% over 2 mutants: Survived: 1 · Killed: 1"


@pytest.mark.parametrize("runs", [[], [{"seed": 1}]])
def test_a_report_without_groups_has_no_lines_per_format(runs: list[dict]) -> None:
    report = build_report([], None, run=runs[0] if runs else None)
    assert format_scores(report) == [] and format_score_lines(report) == []


def test_the_console_lines_reach_the_merge(tmp_path: Path, capsys) -> None:
    mutant = _mutant(GEMINI)
    across = _across(mutant)
    _run_formats(across, {"gemini": (GEMINI,)}, {("gemini", mutant.name): Verdict.KILLED})
    from harness.report.stryker_json import write_json

    shard = tmp_path / "a.json"
    write_json(build_report([], across.result(), run={"seed": 1, MODULES_KEY: across.groups(),
                                                      FORMATS_KEY: ["gemini"]}), shard)
    assert nightly_cli.run_merge([shard], tmp_path / "out") == 0
    assert "  gemini: 100.0% over 1 mutants: Killed: 1" in capsys.readouterr().out
    assert "  - gemini: 100.0% over 1 mutants: Killed: 1" in (tmp_path / "out" / "summary.md").read_text("utf-8")
