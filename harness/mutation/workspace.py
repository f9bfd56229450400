"""Isolated copies of the project: the only place a mutant is ever applied.

The user's tree is only read. Every copy lives under the system temporary
directory and is removed when its run ends, however it ends.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import harness

_SKIP_PARTS = {"__pycache__", ".hypothesis", ".pytest_cache"}


@dataclass(frozen=True)
class Project:
    """A tree to copy: its root and the files (relative paths) that make it up."""

    root: Path
    files: tuple[str, ...]

    @classmethod
    def bundled(cls) -> Project:
        """The installed ``harness`` package, reference and contracts included."""
        package = Path(harness.__file__).resolve().parent
        files = sorted(
            p.relative_to(package.parent).as_posix()
            for p in package.rglob("*")
            if p.is_file() and not _SKIP_PARTS & set(p.parts) and p.suffix != ".pyc"
        )
        return cls(root=package.parent, files=tuple(files))

    @classmethod
    def git_tracked(cls, root: Path) -> Project:
        """What git tracks under ``root``: nothing ignored, nothing untracked."""
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True
        ).stdout.decode("utf-8", "surrogateescape")
        files = tuple(f for f in out.split("\0") if f and (root / f).is_file())
        return cls(root=root.resolve(), files=files)

    def read(self, relative: str) -> str | None:
        if relative not in self.files:
            return None
        return (self.root / relative).read_text(encoding="utf-8")


class Workspace:
    """A fresh copy of a project in a temporary directory; a context manager."""

    def __init__(self, project: Project, label: str) -> None:
        self.project = project
        self.label = label  # what runs in it: "baseline" or a mutant's id
        self.root = Path(tempfile.mkdtemp(prefix=f"harness-{label}-"))

    def __enter__(self) -> Workspace:
        for relative in self.project.files:
            destination = self.root / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(self.project.root / relative, destination)
        return self

    def write(self, relative: str, text: str) -> Path:
        path = self.root / relative
        path.write_text(text, encoding="utf-8")
        return path

    def __exit__(self, *exc_info) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
