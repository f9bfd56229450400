"""A diff that scopes a gate is read as input: bounded, UTF-8, a ref that is a ref, a change of the tree under test.

A run whose diff describes another tree than the one it tests (a checkout's
diff, a gate of the installed copy) refuses with exit 2 rather than judge the
wrong code; a non-UTF-8 diff and a ``--base`` that would reach git as an
option are usage errors naming the input, and git writes nothing.
"""

from __future__ import annotations

import difflib
import subprocess
import sys
from pathlib import Path

import pytest

from harness import exit_codes
from harness.mutation.diff_lines import DiffError, git_diff
from harness.mutation.workspace import Project

DISTILL = "harness/reference/distill.py"


def _gate(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", "gate", "--format", "chat", "--jobs", "1", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=600)


def test_a_diff_of_another_tree_than_the_one_under_test_is_refused(tmp_path):
    tested = (Project.bundled().root / DISTILL).read_text().splitlines(True)
    elsewhere = list(tested)
    number = next(i for i, line in enumerate(tested) if line.strip().startswith("return ")) + 1
    elsewhere[number - 1] = elsewhere[number - 1].replace("return ", "return None or ", 1)  # the checkout's edit
    (tmp_path / "real.diff").write_text("".join(difflib.unified_diff(tested, elsewhere, f"a/{DISTILL}",
                                                                     f"b/{DISTILL}")))
    run = _gate("--in-diff", "real.diff", cwd=tmp_path)
    assert run.returncode == exit_codes.USAGE, run.stdout + run.stderr
    assert f"diff real.diff is not a change of the tree under test, {Project.bundled().root}: {DISTILL} line " \
           f"{number} reads" in run.stdout, run.stdout
    assert "baseline" not in run.stdout, run.stdout


def test_a_diff_that_is_not_utf8_is_a_usage_error_naming_the_place(tmp_path):
    (tmp_path / "g.diff").write_bytes(b"--- a/x.py\n+++ b/x.py\nx\xff\n")
    run = _gate("--in-diff", "g.diff", cwd=tmp_path)
    assert run.returncode == exit_codes.USAGE, run.stdout + run.stderr
    assert "diff g.diff: not UTF-8 (byte 0xff on line 3, offset 23)" in run.stdout, run.stdout


@pytest.mark.parametrize("ref", ["--output=FILE", "-p"])
def test_a_base_that_looks_like_an_option_never_reaches_git(tmp_path, ref):
    run = _gate(f"--base={ref.replace('FILE', str(tmp_path / 'FILE'))}", cwd=tmp_path)
    assert run.returncode == exit_codes.USAGE, run.stdout + run.stderr
    assert "not a git ref (a ref never starts with '-')" in run.stdout, run.stdout
    assert not (tmp_path / "FILE").exists(), "git wrote the file a --base named"


def test_a_base_that_names_no_commit_is_a_usage_error():
    with pytest.raises(DiffError, match="no commit of the repository of .* is named no-such-ref"):
        git_diff(Project.bundled().root, "no-such-ref")


def test_a_base_of_a_tree_git_does_not_track_is_refused(tmp_path):
    """An installed copy: inside a work tree (a virtualenv in the checkout), no file of it tracked."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    installed = tmp_path / ".venv" / "site-packages"
    installed.mkdir(parents=True)
    (installed / "x.py").write_text("x = 1\n")
    with pytest.raises(DiffError, match=r"the tree under test, .* has no file git tracks: it is not the checkout"):
        git_diff(installed, "HEAD")


def test_a_diff_of_thousands_of_files_prints_short_lines(tmp_path):
    """A 9 MB diff (a vendored tree): every console line stays short; the files named are the first ones."""
    hunks = [f"--- a/vendor/m{n}.py\n+++ b/vendor/m{n}.py\n@@ -1,0 +1,300 @@\n" + "+x = 1\n" * 300
             for n in range(4000)]
    (tmp_path / "big.diff").write_text("".join(hunks))
    run = _gate("--in-diff", "big.diff", cwd=tmp_path)
    assert run.returncode == exit_codes.NOTHING_TESTED, run.stdout[-3000:] + run.stderr[-3000:]
    assert "diff scope: diff big.diff: 4000 changed files; vendor/m0.py lines 1-300" in run.stdout, run.stdout[:3000]
    assert "; and 3980 more (mutation-report.json lists every one)" in run.stdout, run.stdout[:3000]
    longest = max(map(len, run.stdout.splitlines()))
    assert longest < 5000, f"a console line of {longest} characters"


def test_files_the_tree_under_test_does_not_hold_are_not_held_to_it():
    """A pull request's diff touches docs and tests too: only the tested tree's own files must match it."""
    from harness.mutation.diff_lines import mismatch, parse_diff

    root = Project.bundled()
    line = root.read(DISTILL).splitlines()[0]
    diff = ("--- a/README.md\n+++ b/README.md\n@@ -1,0 +1,1 @@\n+a line of the docs\n"
            f"--- a/{DISTILL}\n+++ b/{DISTILL}\n@@ -1,0 +1,1 @@\n+{line}\n")
    assert mismatch(parse_diff(diff, "t"), root.read) is None
    assert "line 1 reads" in mismatch(parse_diff(diff.replace(f"+{line}", "+other"), "t"), root.read)


def test_a_file_without_a_final_newline_is_read():
    """git writes `\\ No newline at end of file` after such a line: it numbers no line of either side."""
    from harness.mutation.diff_lines import parse_diff

    text = ("--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n a = 1\n-b = 2\n\\ No newline at end of file\n"
            "+b = 3\n\\ No newline at end of file\n")
    assert parse_diff(text, "diff t").lines("m.py") == frozenset({2})
