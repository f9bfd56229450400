"""What ``harness gate`` runs: every format's row, each with the known bugs of the catalogues it names.

A catalogue one row names holds that format's own bugs: they run under its
reference as written. A catalogue several rows name (bugs of code the formats
share, such as the rounds kernel) holds each bug once: it runs under every
format that names the catalogue, reported under an id qualified by the format
(``rounds-kernel-one-result[gemini]``) so the verdicts stay apart, and under
each format keeps only the contracts it names that hold for that format
(:func:`of_format`, read from that format's baseline). A name that matches no
contract at all is still an error, told before any baseline runs.
"""

from __future__ import annotations

import subprocess
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from harness import __name__ as PACKAGE
from harness.formats import FormatSpec
from harness.mutation.catalogue import CatalogueError, load_catalogue
from harness.mutation.in_memory_executor import ContractsExecutor
from harness.mutation.workspace import Project
from harness.outcomes.mutants import NOT_APPLICABLE, Mutant, matches


@dataclass(frozen=True)
class FormatPart:
    """One format's share of the gate: its reference and the known bugs it runs."""

    format: str
    reference: str  # module:attribute of the bundled reference
    catalogues: tuple[Path, ...]
    mutants: tuple[Mutant, ...]  # its own bugs as written, shared ones under their qualified ids
    shared: dict[str, str]  # qualified id -> catalogue id: narrowed to this format's contracts after its baseline


def bundled(spec: FormatSpec) -> bool:
    """Whether ``spec``'s reference is in this package (its bugs patch the installed package), not plugged in."""
    return spec.reference.startswith(f"{PACKAGE}.")


def store_part(format_name: str) -> str:
    """The verdict store's part of a format's share of the gate, which the nightly shares (the same contracts
    against the same reference, the same known bugs run alike)."""
    return f"gate:{format_name}"


def catalogue_paths(every: Iterable[FormatSpec]) -> list[Path]:
    """Every row's catalogues: what a format's part of the store leaves out of its keys (a bug's patch is in its
    own key, and no contract reads a catalogue)."""
    return [path for spec in every for path in spec.catalogue_paths]


def qualified(mutant_id: str, format_name: str) -> str:
    return f"{mutant_id}[{format_name}]"


def plan(rows: Iterable[FormatSpec], every: Iterable[FormatSpec]) -> list[FormatPart]:
    """The parts of ``rows`` (the formats asked for), in their order; ``every``: the whole table, which decides
    what a shared catalogue is (so an id does not change when ``--format`` narrows the run)."""
    every = list(every)
    naming = Counter(name for spec in every for name in dict.fromkeys(spec.catalogues))
    paths = {name: path for spec in every for name, path in zip(spec.catalogues, spec.catalogue_paths)}
    loaded = {name: load_catalogue(path) for name, path in paths.items()}
    owner: dict[str, str] = {}
    outside = {name for spec in every if not bundled(spec) for name in spec.catalogues}
    for name, catalogue in loaded.items():
        if catalogue.runner is not None:
            raise CatalogueError(f"{catalogue.path}: a format's catalogue patches its reference: no [runner] table")
        if (catalogue.root is not None) != (name in outside and naming[name] == 1):
            raise CatalogueError(f"{catalogue.path}: 'root' names the project of a format shipped outside the package, "
                                 "and only there: the bundled references' catalogues patch the installed package")
        for m in catalogue.mutants:
            if m.id in owner:
                raise CatalogueError(f"{catalogue.path}: id {m.id!r} is also in {owner[m.id]}; ids are unique "
                                     "over every format's catalogues (each bug is reported by its id)")
            owner[m.id] = name
    parts = []
    for spec in rows:
        mutants: list[Mutant] = []
        shared: dict[str, str] = {}
        for name in dict.fromkeys(spec.catalogues):
            for m in loaded[name].mutants:
                if naming[name] > 1:
                    m = replace(m, id=qualified(m.id, spec.name))
                    shared[m.id] = m.id.rpartition("[")[0]
                mutants.append(m)
        parts.append(FormatPart(spec.name, spec.reference, spec.catalogue_paths, tuple(mutants), shared))
    return parts


def of_format(mutant: Mutant, tests: dict[str, dict]) -> Mutant | None:
    """A shared bug with only the contracts it names that held for this format in its baseline ``tests`` (those
    that ran, not the ones that were not applicable); None when it names none of this format's."""
    kept = tuple(c for c in mutant.contracts
                 if any(matches(t, c) and e["outcome"] != NOT_APPLICABLE for t, e in tests.items()))
    return replace(mutant, contracts=kept) if kept else None


def setup(spec: FormatSpec, part: FormatPart, children, profile: str = "ci") -> tuple[Project, ContractsExecutor]:
    """The project one row's bugs patch and the executor of its contracts (under the Hypothesis ``profile``)
    against its reference: the installed package for a bundled reference; for a format plugged in from outside,
    what git tracks under its catalogue's ``root`` (copied, never patched in place), as ``harness mutate
    --adapter`` does."""
    if bundled(spec):
        return Project.bundled(), ContractsExecutor(children, profile, adapter=spec.reference, bundled=True)
    path = part.catalogues[0]
    return (tracked_project(load_catalogue(path).root, path),
            ContractsExecutor(children, profile, adapter=spec.reference))


def tracked_project(root: Path, catalogue: Path) -> Project:
    """What git tracks under ``root``, the project a catalogue's bugs patch (copied, never patched in place)."""
    try:
        project = Project.git_tracked(root)
    except (OSError, subprocess.CalledProcessError) as exc:
        raise CatalogueError(f"{catalogue}: the project {root} must be inside a git work tree (what git tracks is "
                             f"copied): {exc}") from None
    if not project.files:
        raise CatalogueError(f"{catalogue}: git tracks no file under {root}")
    return project
