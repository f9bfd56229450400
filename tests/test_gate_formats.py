"""``harness gate`` runs every row of the format table: each format's reference under its own contracts, the known
bugs of every catalogue its row names, one report with a line per format; ``--format`` narrows it.

The whole gate runs once (the module's fixture): what it proves is the table's own contents, nothing registered
for the test. The narrowing and the plan are checked on small runs and without running anything. The tests of the
whole gate are marked slow: the README's command leaves them out and ``.ci/run`` runs them, their gate being CI's
own (``HARNESS_GATE_REPORT_DIR`` names where its reports go; its console output is shown).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from harness import exit_codes
from harness.formats import SPECS
from harness.mutation.catalogue import CatalogueError, load_catalogue
from harness.mutation.gate_plan import of_format, plan, qualified
from harness.outcomes.mutants import Mutant

SHARED = "mutants-rounds.toml"
REPORT_DIR_ENV = "HARNESS_GATE_REPORT_DIR"  # where the whole gate writes its reports (default: a temporary folder)


def _harness(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=1800)


def _known_bugs(folder: Path) -> list[dict]:
    report = json.loads((folder / "mutation-report.json").read_text())
    return [m for f in report["files"].values() for m in f["mutants"]]


def _format(entry: dict) -> str:
    return entry.get("harness", {}).get("format", "")


@pytest.fixture(scope="module")
def whole_gate(tmp_path_factory, pytestconfig):
    work = tmp_path_factory.mktemp("gate")
    out = Path(os.environ.get(REPORT_DIR_ENV) or work / "out").resolve()
    run = _harness(["gate", "--jobs", "2", "--report-dir", str(out)], work)
    if REPORT_DIR_ENV in os.environ:  # CI's gate: its log shows what the gate said
        pytestconfig.pluginmanager.get_plugin("terminalreporter").write(f"\n{run.stdout}{run.stderr}")
    return run, out


def _shared_ids() -> set[str]:
    """The catalogue ids of the bugs that more than one row's catalogues hold."""
    naming = Counter(name for spec in SPECS.values() for name in spec.catalogues)
    return {m.id for spec in SPECS.values() for name, path in zip(spec.catalogues, spec.catalogue_paths)
            if naming[name] > 1 for m in load_catalogue(path).mutants}


@pytest.mark.slow
def test_the_gate_runs_every_catalogue_of_every_row_under_that_rows_format(whole_gate):
    run, out = whole_gate
    assert run.returncode == exit_codes.OK, run.stdout[-4000:] + run.stderr
    entries = _known_bugs(out)
    ran = {(_format(e), e["id"]) for e in entries}
    assert all(e["status"] == "Killed" for e in entries), [(e["id"], e["status"]) for e in entries
                                                          if e["status"] != "Killed"]
    shared = _shared_ids()
    for spec in SPECS.values():
        for path in spec.catalogue_paths:
            ids = {m.id for m in load_catalogue(path).mutants}
            if ids & shared:
                # A shared catalogue's bug runs under the formats whose contracts it names: some of them here.
                found = {i for i in ids if (spec.name, qualified(i, spec.name)) in ran}
                assert found, f"no bug of {path.name} ran under {spec.name}"
            else:
                missing = sorted(i for i in ids if (spec.name, i) not in ran)
                assert not missing, f"{spec.name}: {path.name}'s bugs not in the report: {missing}"
    assert {_format(e) for e in entries} == set(SPECS), "every format has known bugs in the one report"


@pytest.mark.slow
def test_the_console_and_the_summary_have_a_line_per_format(whole_gate):
    run, out = whole_gate
    counts = Counter(_format(e) for e in _known_bugs(out))
    summary = (out / "summary.md").read_text()
    for name in SPECS:
        line = f"{name}: {counts[name]}/{counts[name]} killed"
        assert f"- {line}\n" in summary, summary[:2000]
        assert f"\n{line}\n" in run.stdout, run.stdout[-3000:]
        assert f"{name}: baseline: " in run.stdout, run.stdout[-3000:]


@pytest.mark.slow
def test_a_shared_bug_runs_under_each_format_whose_contract_it_names_and_no_other(whole_gate):
    _, out = whole_gate
    entries = _known_bugs(out)
    shared = load_catalogue(SPECS["gemini"].catalogue_paths[-1])
    assert shared.path.name == SHARED
    under = {bug.id: {_format(e) for e in entries if e["id"] == qualified(bug.id, _format(e))} for bug in shared.mutants}
    assert all(under.values()), f"a shared bug ran under no format: {under}"
    # Never under a row that does not name the catalogue (chat's); the tool-round rule is one contract taking the
    # run's format, so its bugs run under every row that names the catalogue.
    naming = {name for name, spec in SPECS.items() if SHARED in spec.catalogues}
    assert naming and "chat" not in naming, naming
    assert all(formats <= naming for formats in under.values()), under
    assert under["rounds-kernel-input-every-round"] == naming, under
    for bug in shared.mutants:
        modules = {c.split("::")[0] for c in bug.contracts}
        for e in entries:
            if e["id"] == qualified(bug.id, _format(e)):
                assert e["killedBy"] and {k.split("::")[0] for k in e["killedBy"]} <= modules, e


def test_format_narrows_the_gate(tmp_path):
    run = _harness(["gate", "--format", "gemini", "--shard", "1/16", "--jobs", "2", "--report-dir", "out"], tmp_path)
    assert run.returncode == exit_codes.OK, run.stdout[-3000:] + run.stderr
    entries = _known_bugs(tmp_path / "out")
    assert entries and {_format(e) for e in entries} == {"gemini"}, [(e["id"], _format(e)) for e in entries]
    assert "chat: baseline" not in run.stdout and "gemini: baseline" in run.stdout, run.stdout


def test_an_unknown_format_is_a_usage_error_naming_the_formats(tmp_path):
    run = _harness(["gate", "--format", "chat,klingon"], tmp_path)
    assert run.returncode == exit_codes.USAGE
    assert f"unknown format klingon; formats: {', '.join(SPECS)}" in run.stderr, run.stderr


def test_the_plan_qualifies_a_shared_catalogues_bugs_by_format_and_keeps_the_others():
    parts = {p.format: p for p in plan(SPECS.values(), SPECS.values())}
    assert list(parts) == list(SPECS)
    for name, part in parts.items():
        own = [m.id for m in part.mutants if m.id not in part.shared]
        assert not any("[" in i for i in own), own
        assert all(q == qualified(base, name) for q, base in part.shared.items())
        assert (SHARED in SPECS[name].catalogues) == bool(part.shared), name
    narrowed = plan([SPECS["gemini"]], SPECS.values())
    assert narrowed[0].mutants == parts["gemini"].mutants, "an id must not change when --format narrows the run"


def test_an_id_in_two_catalogues_of_the_gate_is_a_catalogue_error(tmp_path):
    import dataclasses

    copy = tmp_path / "copy.toml"
    copy.write_text(SPECS["chat"].catalogue_paths[0].read_text())
    chat = dataclasses.replace(SPECS["chat"], catalogues=("mutants.toml",))
    twice = dataclasses.replace(SPECS["anthropic"], catalogues=(str(copy),))
    with pytest.raises(CatalogueError, match="is also in mutants.toml"):
        plan([chat, twice], [chat, twice])


def test_a_shared_bug_keeps_the_names_that_held_for_the_format():
    bug = Mutant("b", "t", "", "f.py", "x", "y", ("test_a.py", "test_b.py::test_one", "test_c.py"))
    tests = {"test_a.py::test_x": {"outcome": "not applicable"}, "test_b.py::test_one": {"outcome": "passed"},
             "test_c.py::test_y": {"outcome": "not applicable"}}
    assert of_format(bug, tests).contracts == ("test_b.py::test_one",)
    assert of_format(bug, {t: {"outcome": "not applicable"} for t in tests}) is None


def test_the_report_keeps_each_bugs_format_and_counts_each_format_apart():
    from harness.outcomes.mutants import MutantResult, Verdict
    from harness.outcomes.score import Thresholds
    from harness.report.console import render_console
    from harness.report.digest import digest
    from harness.report.markdown import render_markdown
    from harness.report.model import results
    from harness.report.stryker_json import build_report

    def result(mutant_id: str, verdict: Verdict, name: str) -> MutantResult:
        bug = Mutant(mutant_id, "t", "", "harness/reference/round_frame.py", "x", "y", ("test_a.py",))
        return MutantResult(bug, verdict, "why", format=name)

    known = [result("a", Verdict.KILLED, "chat"), result("b[gemini]", Verdict.KILLED, "gemini"),
             result("b[anthropic]", Verdict.SURVIVED, "anthropic")]
    report = build_report(known, thresholds=Thresholds())
    d = digest(report, Thresholds())
    summary, console = render_markdown(report, d), render_console(d)
    for line in ("chat: 1/1 killed", "gemini: 1/1 killed", "anthropic: 0/1 killed (Survived: 1)"):
        assert f"- {line}\n" in summary, summary
        assert line in console.splitlines(), console
    assert [r.suite for r in results(report)] == ["mutants.chat.round_frame", "mutants.gemini.round_frame",
                                                  "mutants.anthropic.round_frame"]


def _whole_file_changed(path: str) -> str:
    """A diff in which every line of the bundled ``path`` is new."""
    import difflib

    from harness.mutation.workspace import Project

    after = (Project.bundled().root / path).read_text().splitlines(True)
    return "".join(difflib.unified_diff([], after, f"a/{path}", f"b/{path}"))


@pytest.mark.parametrize("path, formats", [
    ("harness/reference/gemini/parts.py", {"gemini"}),  # one format's own code: its bugs alone
    ("harness/reference/round_frame.py", {"anthropic", "openai-responses", "gemini", "bedrock"}),  # the shared kernel
])
def test_a_diff_selects_the_bugs_of_the_formats_whose_code_it_touches(path, formats):
    from harness.mutation.diff_lines import parse_diff
    from harness.mutation.diff_scope import select_mutants
    from harness.mutation.workspace import Project

    parts = plan(SPECS.values(), SPECS.values())
    format_of = {id(m): p.format for p in parts for m in p.mutants}
    project = Project.bundled()
    scope = select_mutants(parse_diff(_whole_file_changed(path), "test"),
                           [m for p in parts for m in p.mutants], project.read, {})
    assert scope.mutants, f"no known bug patches {path}"
    assert {format_of[id(m)] for m in scope.mutants} == formats, [m.id for m in scope.mutants]
    assert scope.catalogue_size == sum(len(p.mutants) for p in parts)
