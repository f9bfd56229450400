"""Diff-scoped mutation: ``harness mutate --in-diff DIFF`` and ``--base REF``.

The changed lines come from the diff as the changed file numbers them; the
known bugs in scope are those whose patch covers one (or whose contracts, or
an earlier run's covering contracts, changed); each runs only the contracts
it names that ran its lines in the baseline. A diff touching one reference
function selects that function's bugs alone, with the verdicts the unscoped
run gives them, and a diff that selects nothing is never green.
"""

import ast
import difflib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, strategies as st

from harness import exit_codes
from harness.cli.mutate import BUNDLED_CATALOGUE
from harness.formats import SPECS
from harness.mutation.catalogue import load_catalogue
from harness.mutation.diff_lines import DiffError, parse_diff
from harness.mutation.gate_plan import plan
from harness.mutation.diff_scope import patch_lines, scope_lines, select_contracts, select_mutants
from harness.mutation.workspace import Project
from harness.outcomes.mutants import Mutant
from test_mutation_adapter import SPEC, _git_project
from test_mutation_verdicts import _tree_digest

DISTILL = "harness/reference/distill.py"


def _diff(before: list[str], after: list[str], path: str = "f.py", context: int = 3) -> str:
    return "".join(difflib.unified_diff(before, after, f"a/{path}", f"b/{path}", n=context))


def _expected_lines(before: list[str], after: list[str]) -> set[int]:
    """Every added line by its new number; a deletion as the new lines either side of its gap."""
    lines: set[int] = set()
    for tag, _, _, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag in ("replace", "insert"):
            lines |= set(range(j1 + 1, j2 + 1))
        elif tag == "delete":
            lines |= {j1, j1 + 1} - {0}
    return lines


# Lines a diff could mistake for its own syntax once prefixed: headers, hunk marks, blank and space-only lines.
_LINE = st.sampled_from(["", " ", "a", "b", "-", "+", "--", "++", "-- a", "++ b", "@@ -1 +1 @@", "\\ x", "\t"])
_FILE = st.lists(_LINE.map(lambda s: s + "\n"), max_size=12)


@given(before=_FILE, after=_FILE, context=st.integers(0, 3))
@example(before=["a\n", "b\n", "a\n"], after=["a\n", "a\n"], context=0)  # a pure deletion, no context around it
@example(before=["a\n", "b\n"], after=["a\n"], context=0)  # deleted at the end of the file
@example(before=["b\n", "a\n"], after=["a\n"], context=0)  # deleted at its start
@example(before=["-- a\n"], after=["++ b\n"], context=0)  # removed and added lines that read like headers
def test_changed_lines_are_the_added_lines_and_the_edges_of_each_deletion(before, after, context):
    diff = _diff(before, after, context=context)
    changes = parse_diff(diff, "the test's diff")
    expected = _expected_lines(before, after)
    got = set(changes.lines("f.py"))
    assert got == expected, f"changed lines: expected {sorted(expected)}, got {sorted(got)}, diff:\n{diff}"
    assert set(changes.files) <= {"f.py"}, f"expected only f.py, got {sorted(changes.files)}, diff:\n{diff}"


def test_paths_drop_their_side_prefix_and_a_folder_outside_the_project():
    diff = (_diff(["a\n"], ["b\n"], "pkg/x.py") + _diff(["a\n"], ["b\n"], "other/y.py")
            + "diff --git a/pkg/gone.py b/pkg/gone.py\ndeleted file mode 100644\n"
            + "".join(difflib.unified_diff(["a\n", "b\n"], [], "a/pkg/gone.py", "/dev/null")))
    changes = parse_diff(diff, "t", prefix="pkg/")
    assert sorted(changes.files) == ["gone.py", "x.py"], sorted(changes.files)
    assert changes.lines("x.py") == {1}, changes.lines("x.py")
    assert changes.files["gone.py"].removed, changes.files["gone.py"]
    assert not changes.files["x.py"].removed, changes.files["x.py"]


def test_a_broken_hunk_is_a_diff_error():
    with pytest.raises(DiffError, match="not a unified diff"):
        parse_diff("--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n-a\n+b\n", "a cut diff")


SOURCE = "A = 1\n\n\ndef f(x):\n    y = x + 1\n    return y\n"


def _mutant(mid: str, find: str, contracts=("test_f.py",), file: str = "pkg/f.py") -> Mutant:
    return Mutant(id=mid, title=mid, incident="", file=file, find=find, replace="", contracts=tuple(contracts))


def _read(path: str) -> str | None:
    return SOURCE if path == "pkg/f.py" else None


def test_a_bug_is_in_scope_when_its_patch_covers_a_changed_line_and_only_then():
    changes = parse_diff(_diff(SOURCE.replace("x + 1", "x + 2").splitlines(True), SOURCE.splitlines(True),
                               "pkg/f.py"), "t")
    on_line = _mutant("on-line", "    y = x + 1\n")
    spanning = _mutant("spanning", "def f(x):\n    y = x")
    elsewhere = _mutant("elsewhere", "    return y\n")
    other_file = _mutant("other-file", "    y = x + 1\n", file="pkg/g.py")
    scope = select_mutants(changes, [on_line, spanning, elsewhere, other_file], _read, {})
    why = {c.mutant.id: c.why for c in scope.chosen}
    assert sorted(why) == ["on-line", "spanning"], why
    assert why["on-line"] == "its patch (pkg/f.py:5-5) covers changed lines 5", why
    assert why["spanning"] == "its patch (pkg/f.py:4-5) covers changed lines 5", why
    assert scope.catalogue_size == 4, scope.catalogue_size


def test_a_bug_whose_text_the_change_removed_is_in_scope_to_be_told_stale():
    changes = parse_diff(_diff(SOURCE.splitlines(True), SOURCE.replace("return y", "return x").splitlines(True),
                               "pkg/f.py"), "t")
    gone = _mutant("gone", "    y = x + 9\n")
    scope = select_mutants(changes, [gone], _read, {})
    assert [c.why for c in scope.chosen] == ["pkg/f.py changed and its find text no longer occurs there exactly once"]


def test_a_changed_contract_brings_in_the_bugs_it_guards_and_the_survivors_it_covered():
    changes = parse_diff(_diff(["a\n"], ["b\n"], "harness/contracts/test_f.py"), "t")
    named = _mutant("named", "    return y\n", contracts=("test_f.py::test_it",))
    survivor = _mutant("survivor", "A = 1\n", contracts=("test_g.py",))
    survivor_elsewhere = _mutant("survivor-elsewhere", "A = 1\n", contracts=("test_g.py",))
    untouched = _mutant("untouched", "    return y\n", contracts=("test_g.py",))
    survivors = {"survivor": ["test_f.py::test_other"], "survivor-elsewhere": ["test_g.py::test_g"]}
    scope = select_mutants(changes, [named, survivor, survivor_elsewhere, untouched], _read, survivors)
    why = {c.mutant.id: c.why for c in scope.chosen}
    assert sorted(why) == ["named", "survivor"], why
    assert why["named"] == "it names contracts of a changed module: test_f.py", why
    assert why["survivor"] == ("it survived the earlier run and a contract that covered it changed: "
                               "test_f.py::test_other"), why


def test_each_bug_keeps_the_names_under_which_a_contract_ran_its_lines():
    changes = parse_diff(_diff(SOURCE.replace("x + 1", "x + 2").splitlines(True), SOURCE.splitlines(True),
                               "pkg/f.py"), "t")
    body = _mutant("body", "    y = x + 1\n", contracts=("test_f.py", "test_g.py::test_g"))
    top = _mutant("top", "    y = x + 1\n    return y", contracts=("test_h.py",))
    module_level = _mutant("module-level", "A = 1\n", contracts=("test_f.py",))
    lines = {"pkg/f.py": {"statements": [1, 4, 5, 6],
                          "executed": {"5": ["test_f.py::test_a", "test_g.py::test_other"],
                                       "6": ["test_f.py::test_a", "test_h.py::test_h"]}}}
    tests = ["test_f.py::test_a", "test_f.py::test_b", "test_g.py::test_g", "test_g.py::test_other",
             "test_h.py::test_h"]
    scope = select_mutants(changes, [body, top, module_level], _read, {})
    scope.chosen.append(scope.chosen[0].__class__(module_level, "forced into scope by the test"))
    narrowed = {m.id: m.contracts for m in select_contracts(scope, lines, tests, _read, total=40)}
    assert narrowed["body"] == ("test_f.py",), f"a name stays whole; one that ran nothing goes: {narrowed}"
    assert narrowed["top"] == ("test_h.py",), narrowed
    assert narrowed["module-level"] == ("test_f.py",), f"no contract ran line 1: every name kept, got {narrowed}"
    assert scope.contracts == {"test_f.py::test_a": "ran a changed line of pkg/f.py",
                               "test_f.py::test_b": "named by body",
                               "test_h.py::test_h": "named by top"}, scope.contracts
    said = scope_lines(scope.as_json())
    assert said[-1].startswith("diff scope: 3 of 40 contracts selected"), said


# ------------------------------------------------------------------ the command, end to end


def _harness(args: list[str], cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", *args], cwd=cwd, input=stdin, capture_output=True,
                          text=True, timeout=900)


def _report(folder: Path) -> dict:
    return json.loads((folder / "mutation-report.json").read_text())


def _by_id(report: dict) -> dict[str, dict]:
    return {m["id"]: m for f in report["files"].values() for m in f["mutants"]}


def _find(catalogue, mutant_id: str) -> str:
    return next(m.find for m in catalogue if m.id == mutant_id)


def _function_lines(path: Path, name: str) -> tuple[int, int]:
    node = next(n for n in ast.parse(path.read_text()).body if isinstance(n, ast.FunctionDef) and n.name == name)
    return node.lineno, node.end_lineno


def _a_change_in(path: Path, first: int, last: int | None = None) -> str:
    """A diff whose changed file is ``path`` as it is, its lines ``first`` to ``last`` the ones changed."""
    after = path.read_text().splitlines(True)
    before = list(after)
    before[first - 1:(last or first)] = ["    pass  # what stood here before\n"]
    return _diff(before, after, DISTILL)


@pytest.fixture(scope="module")
def one_function(tmp_path_factory):
    """A diff of distill() alone: the scoped gate, and the unscoped run of the bugs it selected."""
    root = Project.bundled().root
    first, last = _function_lines(root / DISTILL, "distill")
    work = tmp_path_factory.mktemp("one-function")
    (work / "change.diff").write_text(_a_change_in(root / DISTILL, first, last))
    scoped = _harness(["gate", "--in-diff", "change.diff", "--jobs", "2", "--report-dir", "scoped"], work)
    selected = sorted(_by_id(_report(work / "scoped")))
    full = _harness(["mutate", "--only", *selected, "--jobs", "2", "--report-dir", "full"], work) if selected else None
    return work, (first, last), scoped, full


def test_a_diff_of_one_function_selects_that_functions_bugs_alone(one_function):
    work, (first, last), scoped, _ = one_function
    catalogue = load_catalogue(BUNDLED_CATALOGUE).mutants
    source = (Project.bundled().root / DISTILL).read_text()
    inside = sorted(m.id for m in catalogue if m.file == DISTILL
                    and (span := patch_lines(source, m.find)) and first <= span[1] and span[0] <= last)
    report = _report(work / "scoped")
    selected = sorted(_by_id(report))
    assert scoped.returncode == exit_codes.OK, scoped.stdout + scoped.stderr
    assert inside, f"the catalogue has no known bug in distill() (lines {first}-{last}): the test needs one"
    assert selected == inside, f"expected the bugs of distill() {inside}, got {selected}\n{scoped.stdout}"
    assert len(selected) * 10 < len(catalogue), f"{len(selected)} of {len(catalogue)} bugs is not under a tenth"
    scope = report["config"]["harness"]["runs"][0]["scope"]
    contracts = scope["contracts"]
    assert contracts["measured"], scope
    assert 0 < contracts["selected"] and contracts["selected"] * 10 < contracts["of"], contracts
    # The gate scopes every format's bugs together: a diff of chat code selects chat bugs alone.
    gate = sum(len(part.mutants) for part in plan(SPECS.values(), SPECS.values()))
    assert scope["known_bugs"] == {"selected": len(inside), "of": gate,
                                   "why": {m: f"its patch ({DISTILL}:{span[0]}-{span[1]}) covers changed lines "
                                              f"{span[0]}" + (f"-{span[1]}" if span[1] > span[0] else "")
                                           for m in inside if (span := patch_lines(source, _find(catalogue, m)))}}, \
        scope["known_bugs"]


def test_the_scoped_verdicts_are_the_unscoped_runs(one_function):
    work, _, scoped, full = one_function
    assert full is not None and full.returncode == scoped.returncode, (full and full.stdout, scoped.stdout)
    got, expected = _by_id(_report(work / "scoped")), _by_id(_report(work / "full"))
    assert {m: e["status"] for m, e in got.items()} == {m: e["status"] for m, e in expected.items()}, \
        (scoped.stdout, full.stdout)
    assert {m: e["killedBy"] for m, e in got.items()} == {m: e["killedBy"] for m, e in expected.items()}, \
        (scoped.stdout, full.stdout)


def test_every_report_says_what_was_selected_and_why(one_function):
    work, (first, last), scoped, _ = one_function
    summary = (work / "scoped" / "summary.md").read_text()
    for said in (f"1 changed files; {DISTILL} lines {first}-{last}", "known bugs selected", "contracts selected"):
        assert said in scoped.stdout, f"console: expected {said!r} in:\n{scoped.stdout}"
        assert said in summary, f"summary.md: expected {said!r} in:\n{summary}"
    assert "### Diff scope" in summary, summary


def test_a_diff_that_selects_nothing_is_nothing_tested(tmp_path):
    (tmp_path / "docstring.diff").write_text(_a_change_in(Project.bundled().root / DISTILL, 1))
    run = _harness(["mutate", "--in-diff", "-", "--report-dir", "out"], tmp_path,
                   stdin=(tmp_path / "docstring.diff").read_text())
    assert run.returncode == exit_codes.NOTHING_TESTED, run.stdout + run.stderr
    assert "diff scope: 0 of" in run.stdout and "nothing was tested" in run.stdout, run.stdout
    assert "baseline" not in run.stdout, f"nothing selected, yet a baseline ran:\n{run.stdout}"
    assert _report(tmp_path / "out")["files"] == {}, "an empty scope reports no mutant"


def test_an_unreadable_diff_is_a_usage_error(tmp_path):
    run = _harness(["mutate", "--in-diff", "missing.diff"], tmp_path)
    assert run.returncode == exit_codes.USAGE, run.stdout + run.stderr
    assert "missing.diff: cannot read it" in run.stdout, run.stdout


def test_base_scopes_a_team_project_by_git_without_touching_its_tree(tmp_path):
    """The committed file differs from the working tree on the line a known bug patches: only that bug runs."""
    line = '        wire["tool_call_id"] = message["tool_call_id"]\n'

    def before(root: Path) -> None:
        messages = root / "tinyllm" / "messages.py"
        messages.write_text(messages.read_text().replace(line, line.replace("message[", "dict(message)[")))

    root = _git_project(tmp_path / "tinyllm-project", edit=before)
    shutil.copy(Path(__file__).resolve().parents[1] / "examples" / "python-adapter" / "tinyllm" / "messages.py",
                root / "tinyllm" / "messages.py")
    project = Project.git_tracked(root)
    digest = _tree_digest(project)
    run = _harness(["mutate", "--adapter", SPEC, "--config", str(root / "mutants.toml"), "--base", "HEAD",
                    "--jobs", "2", "--report-dir", str(tmp_path / "out")], root)
    assert _tree_digest(project) == digest, "the run changed the team's tree"
    catalogue = load_catalogue(root / "mutants.toml").mutants
    on_line = sorted(m.id for m in catalogue if m.file == "tinyllm/messages.py" and line.strip() in m.find)
    report = _report(tmp_path / "out")
    assert sorted(_by_id(report)) == on_line, run.stdout
    assert run.returncode == exit_codes.OK, run.stdout + run.stderr
    assert report["config"]["harness"]["runs"][0]["scope"]["diff"] == "git diff HEAD", report["config"]


def test_a_changed_contract_reruns_an_earlier_survivor_it_covered(one_function, tmp_path):
    """An earlier report in the report directory with a survivor covered by a contract the diff changes."""
    work, _, _, _ = one_function
    earlier = _report(work / "scoped")
    catalogue = load_catalogue(BUNDLED_CATALOGUE).mutants
    guest = next(m for m in catalogue if m.file != DISTILL and not any("distillation" in c for c in m.contracts))
    entry = dict(next(iter(_by_id(earlier).values())), id=guest.id, status="Survived",
                 coveredBy=["test_distillation_order.py::test_any_event_distils_in_order"], killedBy=[])
    earlier["files"][DISTILL]["mutants"].append(entry)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "mutation-report.json").write_text(json.dumps(earlier))
    contract = Project.bundled().root / "harness" / "contracts" / "test_distillation_order.py"
    after = contract.read_text().splitlines(True)
    diff = _diff(["# a line the change removed\n", *after], after, "harness/contracts/test_distillation_order.py")
    run = _harness(["mutate", "--in-diff", "-", "--jobs", "2", "--report-dir", "out"], tmp_path, stdin=diff)
    why = _report(tmp_path / "out")["config"]["harness"]["runs"][0]["scope"]["known_bugs"]["why"]
    assert why.get(guest.id) == ("it survived the earlier run and a contract that covered it changed: "
                                 "test_distillation_order.py::test_any_event_distils_in_order"), run.stdout
    named = sorted(m.id for m in catalogue if any(c.startswith("test_distillation_order.py") for c in m.contracts))
    assert sorted(set(why) - {guest.id}) == named, run.stdout
    assert run.returncode == exit_codes.OK, run.stdout + run.stderr


def test_mutmut_adds_its_mutants_on_the_changed_lines_alone(tmp_path):
    root = Project.bundled().root
    _, last = _function_lines(root / DISTILL, "distill")
    (tmp_path / "change.diff").write_text(_a_change_in(root / DISTILL, last))  # one line: its mutants alone
    run = _harness(["gate", "--in-diff", "change.diff", "--mutmut", "--jobs", "2", "--report-dir", "out"], tmp_path)
    report = _report(tmp_path / "out")
    generic = {m["id"]: m for f in report["files"].values() for m in f["mutants"] if "__mutmut_" in m["id"]}
    made = report["config"]["harness"]["runs"][0]["scope"]["mutmut_mutants"]
    assert generic, f"no mutmut mutant of line {last} ran:\n{run.stdout}"
    assert made["selected"] == len(generic) < made["of"], (made, sorted(generic))
    assert made["files"] == [DISTILL], made
    off_line = {m: e["location"] for m, e in generic.items() if e["location"]["start"]["line"] != last}
    assert not off_line, f"mutmut mutants off the changed line {last}: {off_line}"
    assert all(e["status"] != "NoCoverage" for e in generic.values()), {m: e["status"] for m, e in generic.items()}
    assert f"mutmut mutants of {DISTILL} on changed lines" in run.stdout, run.stdout
    assert run.returncode == exit_codes.OK, run.stdout + run.stderr


@pytest.mark.parametrize("args, said", [
    (["--mutmut"], "--mutmut scopes mutmut's mutants to a change"),
    (["--mutmut", "--in-diff", "x.diff", "--adapter", "tinyllm.adapter:adapter", "--config", "m.toml"],
     "bundled reference only"),
])
def test_mutmut_needs_a_diff_and_the_bundled_reference(tmp_path, args, said):
    (tmp_path / "m.toml").write_text('root = "."\n[[mutant]]\nid = "a"\ntitle = "a"\nfile = "a.py"\nfind = "a"\n'
                                     'contracts = ["test_sse_framing.py"]\n')
    run = _harness(["mutate", *args], tmp_path)
    assert run.returncode == exit_codes.USAGE, run.stdout + run.stderr
    assert said in run.stdout, run.stdout
