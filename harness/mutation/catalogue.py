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

The shape of every table is ``harness/schemas/catalogue.json``; every error
names the file, the line, the table or entry (its position and id) and the field.
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from harness.config.table_schema import check, header_line, key_line, parse_text, read_text
from harness.mutation.runner_table import (
    RunnerConfig,
    RunnerConfigError,
    runner_config,
)
from harness.outcomes.mutants import Mutant


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


def _placer(path: Path, text: str, data: dict):
    """Where a table of the catalogue is: the file, the line of the field (or of the table) and the table."""
    entries = _entry_lines(text)
    runner = header_line(text, "[runner]")

    def place(table: tuple, field: str | None) -> str:
        if len(table) == 2 and table[0] == "mutant" and isinstance(table[1], int):
            n = table[1]
            start = entries[n] if n < len(entries) else None
            entry = data["mutant"][n]
            label = f"[[mutant]] #{n + 1}" + (f" ({entry['id']!r})" if isinstance(entry.get("id"), str) else "")
        elif table == ("runner",):
            start, label = runner, "[runner]"
        else:
            start, label = 0, "top level"
        line = (key_line(text, field, start) if field and start is not None else None) or start
        return f"{path}:{line}: {label}: " if line else f"{path}: {label}: "

    return place


def load_catalogue(path: Path) -> Catalogue:
    text = read_text(path, CatalogueError, "the catalogue")
    data = parse_text(path, text, CatalogueError)
    place = _placer(path, text, data)
    check("catalogue.json", data, place, CatalogueError)
    # The schema held; what follows are the checks it cannot express.
    mutants: list[Mutant] = []
    seen: dict[str, int] = {}
    for n, entry in enumerate(data["mutant"]):
        mutant = _mutant(entry, lambda field, n=n: place(("mutant", n), field))
        if mutant.id in seen:
            raise CatalogueError(f"{place(('mutant', n), 'id')}field 'id' repeats mutant #{seen[mutant.id] + 1}")
        seen[mutant.id] = n
        mutants.append(mutant)
    try:
        config = runner_config(data["runner"], path, place(("runner",), None)) if "runner" in data else None
    except RunnerConfigError as exc:
        raise CatalogueError(str(exc)) from exc
    root = None
    if "root" in data:
        where = place((), "root")
        if config is not None:
            raise CatalogueError(f"{where}field 'root' and a [runner] table exclude each other: give the root in [runner]")
        root = (path.resolve().parent / data["root"]).resolve()
        if not root.is_dir():
            raise CatalogueError(f"{where}field 'root' names {root}, which is not a directory")
    return Catalogue(path=path, mutants=tuple(mutants), runner=config, root=root)


def _code(text: str) -> list[tuple[int, str]] | None:
    """Python text as its tokens without comments and blank lines; None if it does not tokenize (a fragment)."""
    try:
        return [(t.type, t.string) for t in tokenize.generate_tokens(io.StringIO(text).readline)
                if t.type not in (tokenize.COMMENT, tokenize.NL)]
    except (tokenize.TokenError, SyntaxError):
        return None


def file_outside(mutants: Iterable[Mutant], root: Path) -> str | None:
    """The first known bug whose ``file`` leads out of the project at ``root`` (a symlink), in words."""
    top = root.resolve()
    for m in mutants:
        target = (root / m.file).resolve()
        if not target.is_relative_to(top):
            return f"mutant {m.id}: field 'file' {m.file!r} leads out of the project {top}, to {target}"
    return None


def _mutant(entry: dict, label: Callable[[str], str]) -> Mutant:
    """An entry the schema accepted, after the checks that need more than its own fields' shapes."""
    replace = entry.get("replace", "")
    if replace == entry["find"]:
        raise CatalogueError(f"{label('replace')}field 'replace' equals 'find': the patch changes nothing")
    file = entry["file"]
    if file.endswith(".py") and _code(replace) is not None and _code(replace) == _code(entry["find"]):
        raise CatalogueError(f"{label('replace')}field 'replace' differs from 'find' only in comments or blank "
                             "lines: the patch changes no code, so no contract can catch it")
    if Path(file).is_absolute() or ".." in Path(file).parts:
        raise CatalogueError(f"{label('file')}field 'file' must be a path inside the project, got {file!r}")
    return Mutant(
        id=entry["id"],
        title=entry["title"],
        incident=entry.get("incident", ""),
        file=file,
        find=entry["find"],
        replace=replace,
        contracts=tuple(entry["contracts"]),
    )
