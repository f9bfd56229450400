"""A known bug's patch must change code of the project: a comment-only patch or a file out of the tree is refused.

Either would be a known bug no contract can catch (a comment) or one that
patches and reads what is not the project (a symlink out of its tree); both are
usage errors (exit 2) naming the known bug, before any baseline runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from test_mutation_adapter import SPEC, _git_project

from harness import exit_codes

LINE = '        wire["tool_call_id"] = message["tool_call_id"]\n'


def _mutate(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", "mutate", "--adapter", SPEC, "--config",
                           str(root / "mutants.toml"), "--jobs", "1", *args],
                          cwd=root, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(root)})


def _entry(mutant_id: str, file: str, replace: str) -> str:
    return (f'\n[[mutant]]\nid = "{mutant_id}"\ntitle = "t"\nfile = "{file}"\n'
            f'find = """{LINE}"""\nreplace = """{replace}"""\ncontracts = ["test_wire_fields.py"]\n')


def test_a_patch_that_changes_only_a_comment_is_a_catalogue_error(tmp_path):
    root = _git_project(tmp_path / "p", _entry("comment-only", "tinyllm/messages.py",
                                                LINE.rstrip("\n") + "  # the id, as sent\n"))
    run = _mutate(root, "--only", "comment-only")
    assert run.returncode == exit_codes.USAGE, run.stdout[-3000:] + run.stderr[-3000:]
    assert "field 'replace' differs from 'find' only in comments or blank lines" in run.stdout, run.stdout
    assert "baseline" not in run.stdout, run.stdout


def test_a_file_that_leads_out_of_the_project_is_a_catalogue_error(tmp_path):
    outside = tmp_path / "elsewhere.py"
    outside.write_text(LINE)

    def link(root: Path) -> None:
        (root / "tinyllm" / "linked.py").symlink_to(outside)

    root = _git_project(tmp_path / "p", _entry("out-of-tree", "tinyllm/linked.py", '        wire["x"] = 1\n'),
                        edit=link)
    run = _mutate(root, "--only", "out-of-tree")
    assert run.returncode == exit_codes.USAGE, run.stdout[-3000:] + run.stderr[-3000:]
    assert f"mutant out-of-tree: field 'file' 'tinyllm/linked.py' leads out of the project {root.resolve()}, " \
           f"to {outside.resolve()}" in run.stdout, run.stdout
    assert outside.read_text() == LINE
