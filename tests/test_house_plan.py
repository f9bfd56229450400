"""The house plan of ``harness/`` holds: every import runs down a floor, and no circle ties rooms together.

The floors are the ones ``docs/architecture.md`` draws. A room is a package
directly under ``harness/`` or a top-level module; imports inside one room are
its own business. Every import counts, a function-level one too: a lazy import
that runs up is still an arrow up.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

HARNESS = Path(__file__).resolve().parents[1] / "harness"

# Top floor first; a room may import only rooms on a lower floor (and itself).
FLOORS: tuple[tuple[str, ...], ...] = (
    ("__main__",),
    ("cli",),
    ("contracts",),
    ("testing", "report"),
    ("plugin", "conform"),
    ("nightly", "loopback"),
    ("mutation", "under_test"),
    ("formats",),
    ("bridge", "rules", "libraries", "outcomes"),
    ("config", "wire", "reference"),
    ("adapter", "clip", "processes", "exit_codes", "__init__"),
)
FLOOR = {room: len(FLOORS) - n for n, rooms in enumerate(FLOORS) for room in rooms}
LEAVES_OUT = ("vendor",)  # copied third-party code, imports nothing of ours


def _room(module: str) -> str:
    """``harness.cli.check`` -> ``cli``; the bare package ``harness`` is its face, ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _module_name(path: Path) -> str:
    relative = path.relative_to(HARNESS.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every ``harness`` module the file imports, at any depth of the code, with its line."""
    found = []
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names if alias.name.split(".")[0] == "harness"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            if module.split(".")[0] != "harness":
                continue
            # from harness.bridge import arguments: the module harness.bridge.arguments, not the face.
            found += [
                (node.lineno, f"{module}.{alias.name}" if f"{module}.{alias.name}" in _MODULES else module)
                for alias in node.names
            ]
    return found


def _sources() -> list[Path]:
    return [
        p for p in sorted(HARNESS.rglob("*.py"))
        if not any(part in LEAVES_OUT for part in p.relative_to(HARNESS).parts)
    ]


_MODULES = {_module_name(path) for path in _sources()}


def _arrows() -> list[tuple[Path, int, str, str]]:
    """(file, line, from room, to room) for every import between two rooms."""
    arrows = []
    for path in _sources():
        here = _room(_module_name(path)) if path.parent != HARNESS else path.stem
        for line, module in _imports(path):
            there = _room(module)
            if there != here and not (here == "__init__" and path.parent == HARNESS):
                arrows.append((path, line, here, there))
    return arrows


def test_every_room_has_a_floor():
    rooms = {path.stem if path.parent == HARNESS else path.relative_to(HARNESS).parts[0] for path in _sources()}
    unplaced = sorted(rooms - set(FLOOR))
    assert not unplaced, f"rooms of harness/ on no floor of docs/architecture.md: {unplaced}"


def test_no_import_runs_up_or_across():
    wrong = [
        f"{path.relative_to(HARNESS.parent)}:{line}: {here} (floor {FLOOR[here]}) imports {there} (floor {FLOOR[there]})"
        for path, line, here, there in _arrows()
        if FLOOR.get(there, 0) >= FLOOR.get(here, 0)
    ]
    assert not wrong, "imports that do not run down a floor:\n" + "\n".join(wrong)


def test_no_circle_of_modules():
    graph: dict[str, set[str]] = {}
    for path in _sources():
        graph.setdefault(_module_name(path), set()).update(m for _, m in _imports(path))
    seen: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(node: str, trail: list[str]) -> list[str] | None:
        seen[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if nxt == node or nxt not in graph:
                continue
            if seen.get(nxt) == 1:
                return trail[trail.index(nxt):] + [nxt] if nxt in trail else [node, nxt]
            if nxt not in seen and (circle := visit(nxt, [*trail, nxt])):
                return circle
        seen[node] = 2
        return None

    for start in sorted(graph):
        if start not in seen and (circle := visit(start, [start])):
            pytest.fail("an import circle: " + " -> ".join(circle))


def test_the_walk_reads_lazy_and_plain_imports():
    # The walk itself must be able to fail: an import inside a function is an arrow like any other.
    check = _imports(HARNESS / "cli" / "__init__.py")
    assert any(module.startswith("harness.cli.") for _, module in check), check
    arrows = {(here, there) for _, _, here, there in _arrows()}
    assert ("cli", "mutation") in arrows and ("mutation", "cli") not in arrows
