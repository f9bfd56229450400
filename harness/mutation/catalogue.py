"""Reading and validating ``mutants.toml``, the known-bug catalogue.

Each ``[[mutant]]`` entry::

    id        = "accumulate-by-position"      # unique, [a-z0-9-]
    title     = "one line"
    incident  = "which incident, and its production fingerprint"   # optional
    file      = "harness/reference/accumulator.py"   # relative to the project root
    find      = "exact text, must occur exactly once"
    replace   = "the bug"                      # omit or "" to drop the found text
    contracts = ["test_module.py::test_name"]  # contract ids that must catch it

The project root: for the bundled catalogue, the installed package's parent;
for a team's own adapter (``harness mutate --adapter``), the catalogue's
folder, or a top-level ``root = "..."`` relative to it; for a ``[runner]``
table, its own ``root``.

Every error names the file, the entry (its position, id and line) and the field.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from harness.mutation.outcome import Mutant
from harness.mutation.runner_config import RunnerConfig, RunnerConfigError, runner_config

_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_REQUIRED_STR = ("id", "title", "file", "find")
_KNOWN = {*_REQUIRED_STR, "incident", "replace", "contracts"}


class CatalogueError(Exception):
    """The catalogue cannot be read or an entry is malformed."""


@dataclass(frozen=True)
class Catalogue:
    path: Path
    mutants: tuple[Mutant, ...]
    runner: RunnerConfig | None  # the optional [runner] table, for projects outside Python
    root: Path | None = None  # the optional top-level 'root': the team's project, resolved

    def select(self, ids: list[str] | None) -> list[Mutant]:
        if not ids:
            return list(self.mutants)
        known = {m.id for m in self.mutants}
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise CatalogueError(f"{self.path}: no mutant with id {', '.join(map(repr, unknown))}")
        return [m for m in self.mutants if m.id in ids]


def _entry_lines(text: str) -> list[int]:
    return [n for n, line in enumerate(text.splitlines(), 1) if line.strip() == "[[mutant]]"]


def load_catalogue(path: Path) -> Catalogue:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogueError(f"{path}: cannot read the catalogue: {exc.strerror}") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogueError(f"{path}: not valid TOML: {exc}") from exc
    unknown_tables = sorted(set(data) - {"mutant", "runner", "root"})
    if unknown_tables:
        raise CatalogueError(
            f"{path}: unknown top-level key(s) {unknown_tables}; expected [[mutant]], [runner] and root"
        )
    entries = data.get("mutant", [])
    if not isinstance(entries, list) or not entries:
        raise CatalogueError(f"{path}: no [[mutant]] entries")
    lines = _entry_lines(text)
    mutants: list[Mutant] = []
    seen: dict[str, int] = {}
    for n, entry in enumerate(entries):
        where = f"{path}:{lines[n]}" if n < len(lines) else str(path)
        label = f"{where}: mutant #{n + 1}"
        if isinstance(entry.get("id"), str):
            label += f" ({entry['id']!r})"
        mutant = _mutant(entry, label)
        if mutant.id in seen:
            raise CatalogueError(f"{label}: field 'id' repeats mutant #{seen[mutant.id] + 1}")
        seen[mutant.id] = n
        mutants.append(mutant)
    runner = data.get("runner")
    if runner is not None and not isinstance(runner, dict):
        raise CatalogueError(f"{path}: [runner] must be a table")
    try:
        config = runner_config(runner, path) if runner is not None else None
    except RunnerConfigError as exc:
        raise CatalogueError(str(exc)) from exc
    root = None
    if "root" in data:
        if config is not None:
            raise CatalogueError(f"{path}: top-level 'root' and a [runner] table: give the root in [runner]")
        if not isinstance(data["root"], str) or not data["root"].strip():
            raise CatalogueError(f"{path}: 'root' must be a non-empty string (a folder), got {data['root']!r}")
        root = (path.resolve().parent / data["root"]).resolve()
        if not root.is_dir():
            raise CatalogueError(f"{path}: 'root' names {root}, which is not a directory")
    return Catalogue(path=path, mutants=tuple(mutants), runner=config, root=root)


def _mutant(entry: dict, label: str) -> Mutant:
    unknown = sorted(set(entry) - _KNOWN)
    if unknown:
        raise CatalogueError(f"{label}: unknown field(s) {unknown}; known fields: {sorted(_KNOWN)}")
    for name in _REQUIRED_STR:
        value = entry.get(name)
        if not isinstance(value, str) or not value.strip():
            raise CatalogueError(f"{label}: field {name!r} must be a non-empty string, got {value!r}")
    if not _ID.match(entry["id"]):
        raise CatalogueError(f"{label}: field 'id' must be lower-case letters, digits and '-', got {entry['id']!r}")
    replace = entry.get("replace", "")
    if not isinstance(replace, str):
        raise CatalogueError(f"{label}: field 'replace' must be a string, got {replace!r}")
    incident = entry.get("incident", "")
    if not isinstance(incident, str):
        raise CatalogueError(f"{label}: field 'incident' must be a string, got {incident!r}")
    if replace == entry["find"]:
        raise CatalogueError(f"{label}: field 'replace' equals 'find': the patch changes nothing")
    contracts = entry.get("contracts")
    if (
        not isinstance(contracts, list)
        or not contracts
        or not all(isinstance(c, str) and c.strip() for c in contracts)
    ):
        raise CatalogueError(f"{label}: field 'contracts' must be a non-empty list of contract ids, got {contracts!r}")
    file = entry["file"]
    if Path(file).is_absolute() or ".." in Path(file).parts:
        raise CatalogueError(f"{label}: field 'file' must be a path inside the project, got {file!r}")
    return Mutant(
        id=entry["id"],
        title=entry["title"],
        incident=incident,
        file=file,
        find=entry["find"],
        replace=replace,
        contracts=tuple(contracts),
    )
