"""The lines a change touched, read from a unified diff: each file's changed lines as the changed file numbers them.

A diff comes from a file (``-``: standard input) or from ``git diff REF``
against the working tree (read only: nothing is checked out or patched).
Every added line counts; a deletion with nothing added in its place counts
as the lines either side of the gap, so a bug anchored where code was
removed is still in scope. Paths are relative to the project root.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from unidiff import PatchSet
from unidiff.errors import UnidiffParseError


class DiffError(Exception):
    """The diff cannot be read, or ``git diff`` failed."""


@dataclass(frozen=True)
class ChangedFile:
    path: str  # relative to the project root, after the change
    lines: frozenset[int]  # 1-based, in the changed file
    removed: bool = False  # the change deletes the file


@dataclass(frozen=True)
class Changes:
    files: dict[str, ChangedFile]  # path -> what changed in it
    source: str  # where the diff came from, in words: "diff FILE" or "git diff REF"

    def lines(self, path: str) -> frozenset[int]:
        changed = self.files.get(path)
        return changed.lines if changed else frozenset()

    def touches(self, path: str, first: int, last: int) -> bool:
        """Whether a changed line of ``path`` lies in first..last."""
        return any(first <= n <= last for n in self.lines(path))

    @property
    def line_count(self) -> int:
        return sum(len(f.lines) for f in self.files.values())


def parse_diff(text: str, source: str, *, prefix: str = "") -> Changes:
    """The changes of the unified diff ``text``; ``prefix``: the project root's folder inside the diff's paths."""
    try:
        patch = PatchSet(text)
    except UnidiffParseError as exc:
        raise DiffError(f"{source}: not a unified diff: {exc}") from None
    files: dict[str, ChangedFile] = {}
    for patched in patch:
        path = _strip(patched.path if not patched.is_removed_file else patched.source_file, prefix)
        if path is None:
            continue  # outside the project
        lines: set[int] = set()
        for hunk in patched:
            lines |= _hunk_lines(hunk)
        files[path] = ChangedFile(path, frozenset(lines), removed=patched.is_removed_file)
    return Changes(files, source)


def _strip(path: str, prefix: str) -> str | None:
    for side in ("a/", "b/"):
        path = path.removeprefix(side) if path.startswith(side) else path
    if not prefix:
        return path
    return path.removeprefix(prefix) if path.startswith(prefix) else None


def _hunk_lines(hunk) -> set[int]:
    """Added lines by their new numbers; a pure deletion as the new lines on either side of it."""
    lines: set[int] = set()
    # The new line number the next context or added line takes; a hunk adding nothing names the line before it.
    after = hunk.target_start + (1 if hunk.target_length == 0 else 0)
    deleted = False
    for line in hunk:
        if line.is_added:
            lines.add(line.target_line_no)
            after = line.target_line_no + 1
            deleted = False
        elif line.is_removed:
            deleted = True
        else:
            if deleted:
                lines |= {after - 1, after} - {0}
                deleted = False
            after = line.target_line_no + 1
    if deleted:
        lines |= {after - 1, after} - {0}
    return lines


def read_diff(name: str) -> Changes:
    """The diff in the file ``name``, or on standard input for ``-``."""
    try:
        text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except OSError as exc:
        raise DiffError(f"--in-diff {name}: cannot read it: {exc.strerror}") from None
    return parse_diff(text, "the diff on standard input" if name == "-" else f"diff {name}")


def git_diff(root: Path, ref: str) -> Changes:
    """What the working tree under ``root`` changed since ``ref``, by ``git diff`` (it reads, never writes)."""
    def git(*args: str) -> str:
        run = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
        if run.returncode != 0:
            raise DiffError(f"--base {ref}: git {' '.join(args)} failed: {run.stderr.strip()}")
        return run.stdout

    try:
        prefix = git("rev-parse", "--show-prefix").strip()
        text = git("diff", "--no-color", "--no-ext-diff", "--unified=0", ref, "--", ".")
    except OSError as exc:
        raise DiffError(f"--base {ref}: cannot run git: {exc.strerror}") from None
    return parse_diff(text, f"git diff {ref}", prefix=prefix)
