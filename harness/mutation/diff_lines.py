"""The lines a change touched, read from a unified diff: each file's changed lines as the changed file numbers them.

A diff comes from a file (``-``: standard input) or from ``git diff REF``
against the working tree (read only: nothing is checked out or patched).
Either must describe the tree the run tests: :func:`mismatch` holds every
added line to that tree's text, so a diff of a checkout never scopes a run of
an installed copy. A ref is checked to name a commit before git sees it, and
a diff file is bounded in size and must be UTF-8.
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

from harness.clip import clip_repr
from unidiff.errors import UnidiffParseError


class DiffError(Exception):
    """The diff cannot be read, or ``git diff`` failed."""


@dataclass(frozen=True)
class ChangedFile:
    path: str  # relative to the project root, after the change
    lines: frozenset[int]  # 1-based, in the changed file
    removed: bool = False  # the change deletes the file
    added: tuple[tuple[int, str], ...] = ()  # each added line: its number and text, in the changed file


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
        added = tuple((line.target_line_no, line.value) for hunk in patched for line in hunk if line.is_added)
        files[path] = ChangedFile(path, frozenset(lines), removed=patched.is_removed_file, added=added)
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
        elif line.is_context:  # not "\ No newline at end of file", which numbers no line
            if deleted:
                lines |= {after - 1, after} - {0}
                deleted = False
            after = line.target_line_no + 1
    if deleted:
        lines |= {after - 1, after} - {0}
    return lines


MAX_DIFF_BYTES = 64 * 1024 * 1024  # far past any review's diff; a bigger file is a mistake, read no further


def mismatch(changes: Changes, read) -> str | None:
    """Where the diff is not of the tree ``read`` gives (a project file's text, None if absent), in words.

    Only the tree's own files are held to the diff: a changed file it does not have (docs, tests, a file
    the change adds) can hold no known bug.
    """
    for path, changed in sorted(changes.files.items()):
        if changed.removed or not changed.added:
            continue
        text = read(path)
        if text is None:
            continue  # not a file of the tree under test (docs, tests, a new file): no known bug is there
        lines = text.splitlines()
        for number, line in changed.added:
            wanted = line.rstrip("\r\n")
            if number > len(lines):
                return f"{path} has no line {number}, which the diff adds as {clip_repr(wanted, 80)}"
            if lines[number - 1] != wanted:
                return (f"{path} line {number} reads {clip_repr(lines[number - 1], 80)} there, "
                        f"{clip_repr(wanted, 80)} in the diff")
    return None


def _decoded(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DiffError(f"{source}: not UTF-8 (byte 0x{data[exc.start]:02x} on line {line}, offset {exc.start})") \
            from None


def read_diff(name: str) -> Changes:
    """The diff in the file ``name``, or on standard input for ``-``."""
    source = "the diff on standard input" if name == "-" else f"diff {name}"
    try:
        if name == "-":
            data = sys.stdin.buffer.read(MAX_DIFF_BYTES + 1)
        else:
            with open(name, "rb") as handle:
                data = handle.read(MAX_DIFF_BYTES + 1)
    except OSError as exc:
        raise DiffError(f"--in-diff {name}: cannot read it: {exc.strerror}") from None
    if len(data) > MAX_DIFF_BYTES:
        raise DiffError(f"{source}: larger than {MAX_DIFF_BYTES:,} bytes; scope a smaller change")
    return parse_diff(_decoded(data, source), source)


def git_diff(root: Path, ref: str) -> Changes:
    """What the working tree under ``root`` changed since ``ref``, by ``git diff`` (it reads, never writes)."""
    def git(*args: str, failed: str = "") -> bytes:
        run = subprocess.run(["git", *args], cwd=root, capture_output=True)
        if run.returncode != 0:
            said = failed or run.stderr.decode("utf-8", "replace").strip()
            raise DiffError(f"--base {ref}: git {' '.join(args)} failed: {said}")
        return run.stdout

    if not ref or ref.startswith("-"):
        raise DiffError(f"--base {ref!r}: not a git ref (a ref never starts with '-')")
    try:
        if not git("ls-files", "--", ".").strip():
            raise DiffError(f"--base {ref}: the tree under test, {root}, has no file git tracks: it is not the "
                            "checkout (an installed copy?); run from a checkout installed with pip install -e .")
        commit = git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}",
                     failed=f"no commit of the repository of {root} is named {ref}").decode().strip()
        prefix = git("rev-parse", "--show-prefix").decode().strip()
        text = git("diff", "--no-color", "--no-ext-diff", "--unified=0", commit, "--", ".")
    except OSError as exc:
        raise DiffError(f"--base {ref}: cannot run git: {exc.strerror}") from None
    return parse_diff(_decoded(text, f"git diff {ref}"), f"git diff {ref}", prefix=prefix)
