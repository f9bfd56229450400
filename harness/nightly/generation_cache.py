"""mutmut's mutants of each file, kept between runs: made again only when the file, mutmut or the driver changed.

mutmut's generator is deterministic: the same file text under the same
mutmut and the same driver makes the same mutants, names and diffs. So each
file's records are kept under a key of all three (and the file's path, which
names its mutants), in the user's cache folder (``$XDG_CACHE_HOME`` or
``~/.cache``, ``agent-contract-harness/mutmut-mutants/``), never in the
folder the run starts in. An entry that is missing, unreadable or not what
this module writes is made again, never trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
from importlib.metadata import version
from pathlib import Path

from harness.nightly import mutmut_driver

_FIELDS = ("name", "file", "function", "diff")


def default_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "agent-contract-harness" / "mutmut-mutants"


def _key(file: str, text: str) -> str:
    digest = hashlib.sha256()
    for part in (version("mutmut"), Path(mutmut_driver.__file__).read_text(encoding="utf-8"), file, text):
        digest.update(part.encode("utf-8") + b"\0")
    return digest.hexdigest()


class GenerationCache:
    """The records mutmut's driver made for a file's text, by :func:`_key`, in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def load(self, file: str, text: str) -> list[dict] | None:
        path = self.folder / f"{_key(file, text)}.json"
        try:
            records = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        valid = isinstance(records, list) and all(
            isinstance(r, dict) and set(r) == set(_FIELDS) and all(isinstance(r[f], str) for f in _FIELDS)
            and r["file"] == file for r in records)
        return records if valid else None

    def save(self, file: str, text: str, records: list[dict]) -> None:
        """Keep ``records``; a cache that cannot be written costs the next run the generation, nothing else."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            temporary = self.folder / f".{_key(file, text)}.{os.getpid()}.tmp"
            temporary.write_text(json.dumps(records), encoding="utf-8")
            temporary.replace(self.folder / f"{_key(file, text)}.json")  # whole or absent, for a concurrent run
        except OSError:
            pass
