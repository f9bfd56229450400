"""Applying a known bug to a live interpreter: code swap, module re-import, reach markers.

Runs inside a fork of a warm worker (:mod:`harness.mutation.in_memory_worker`), never in
the harness's own process. The worker has imported the project and collected
the contracts once; each mutant gets a fork, and this module patches that
fork in memory. The files on disk are never written.

Two ways to apply a patch, tried in this order:

- **code swap**: compile the original and the patched source with the real
  file name, pair their code objects by qualified name (and occurrence: a
  property's getter and setter share one), and give every live function whose
  code changed the patched code (``function.__code__``). Aliases, bound
  methods and the adapter object all see the change. It holds when no module
  or class body changed and no changed function ran before the fork (a value
  it computed at import would be stale).
- **module re-import**: drop the code under test from ``sys.modules`` and
  import it again with the patched module served from memory. It holds when
  no module outside the code under test captured one of its names.

When neither holds the caller falls back to a copy of the project per mutant
(:mod:`harness.mutation.copy_executor`), and the report says so.

**Reach** is measured without a trace function: the patched source is
rewritten with a call to :data:`MARKER` before every statement on the patched
lines, and a test reaches the patch when one of those calls ran while it was
the current test. A marker in a module or class body runs at import, before
any test, and credits every test.
"""

from __future__ import annotations

import ast
import importlib
import importlib.abc
import importlib.util
import linecache
import sys
import types
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

MARKER = "__harness_reach__"
EVERYONE = ""  # the "current test" while modules import: a marker hit then credits every test

SWAP = "in-memory: code swap"
REIMPORT = "in-memory: module re-import"
COPY = "copy of the project"

_OPTIMIZED = 0x0001  # CO_OPTIMIZED: a function body (module and class bodies lack it)

FunctionKey = tuple[str, str, int]  # (file name, qualified name, first line)


class Reach:
    """Which tests were current when a marker ran. One per process (the fork)."""

    current: str | None = None  # None between tests: a late marker hit (a stray thread) counts for nobody
    hits: set[str] = set()

    @classmethod
    def marker(cls) -> None:
        current = cls.current
        if current is not None:
            cls.hits.add(current)

    @classmethod
    def reset(cls) -> None:
        cls.current = None
        cls.hits = set()


class CannotPatch(Exception):
    """This way of applying the patch cannot hold; the message says why."""


# ---------------------------------------------------------------- reach markers


def _header_last(stmt: ast.stmt) -> int:
    """The last line of a statement's own text: the whole of a simple one, the header of a compound one."""
    starts = [part[0].lineno for part in (getattr(stmt, n, None) for n in ("body", "orelse", "finalbody", "handlers"))
              if isinstance(part, list) and part]
    starts += [case.pattern.lineno for case in getattr(stmt, "cases", None) or []]
    if starts:
        return max(stmt.lineno, min(starts) - 1)
    return stmt.end_lineno or stmt.lineno


def _handler_headers(stmt: ast.stmt) -> list[tuple[int, int]]:
    """The ``except`` header lines of a ``try``: not statements of their own, so the ``try`` stands for them."""
    return [(h.lineno, max(h.lineno, h.body[0].lineno - 1)) for h in getattr(stmt, "handlers", None) or [] if h.body]


def _header_first(stmt: ast.stmt) -> int:
    decorators = getattr(stmt, "decorator_list", None) or []
    return min([stmt.lineno, *(d.lineno for d in decorators)])


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def _marker_call(at: ast.AST) -> ast.stmt:
    call = ast.Expr(ast.Call(ast.Name(MARKER, ast.Load()), [], []))
    return ast.fix_missing_locations(ast.copy_location(call, at))


@dataclass
class Instrumented:
    tree: ast.Module
    marked_lines: list[int]  # first line of every statement that got a marker
    at_import: bool  # a marker sits in a module or class body: it runs at import


class _Marking:
    """Insert a marker before each statement whose own lines meet first..last."""

    def __init__(self, first: int, last: int) -> None:
        self.first = first
        self.last = last
        self.marked: list[int] = []
        self.at_import = False
        self.candidates: list[tuple[int, list, bool]] = []  # (line, its body, in a module or class body)

    def _meets(self, first: int, last: int) -> bool:
        return first <= self.last and last >= self.first

    def _hits(self, stmt: ast.stmt) -> bool:
        return self._meets(_header_first(stmt), _header_last(stmt)) or any(
            self._meets(a, b) for a, b in _handler_headers(stmt)
        )

    def visit_body(self, body: list[ast.stmt], in_function: bool, skip_docstring: bool) -> None:
        inserts: list[int] = []
        for index, stmt in enumerate(body):
            if skip_docstring and index == 0 and _is_docstring(stmt):
                continue
            if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
                continue
            self.candidates.append((stmt.lineno, body, not in_function))
            if self._hits(stmt):
                inserts.append(index)
                self.marked.append(stmt.lineno)
                self.at_import = self.at_import or not in_function
            self._visit_children(stmt, in_function)
        for index in reversed(inserts):
            body.insert(index, _marker_call(body[index]))

    def _visit_children(self, stmt: ast.stmt, in_function: bool) -> None:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.visit_body(stmt.body, True, True)
            return
        if isinstance(stmt, ast.ClassDef):
            self.visit_body(stmt.body, False, True)
            return
        for name in ("body", "orelse", "finalbody"):
            part = getattr(stmt, name, None)
            if isinstance(part, list) and part and isinstance(part[0], ast.stmt):
                self.visit_body(part, in_function, False)
        for handler in getattr(stmt, "handlers", None) or []:
            self.visit_body(handler.body, in_function, False)
        for case in getattr(stmt, "cases", None) or []:
            self.visit_body(case.body, in_function, False)


def instrument(source: str, first: int, last: int) -> Instrumented:
    """The patched source's tree with reach markers; raises SyntaxError like ``compile``."""
    tree = ast.parse(source)
    marking = _Marking(first, last)
    marking.visit_body(tree.body, False, True)
    if not marking.marked:
        # An ``except`` header, a comment or a continuation line: the nearest statement
        # above stands for it, as coverage files a continuation under its statement.
        above = [c for c in marking.candidates if c[0] <= first]
        if above:
            line, body, at_import = max(above, key=lambda c: c[0])
            stmt = next(s for s in body if s.lineno == line and not _is_marker(s))
            body.insert(body.index(stmt), _marker_call(stmt))
            marking.marked.append(line)
            marking.at_import = at_import
    return Instrumented(tree, marking.marked, marking.at_import)


def _is_marker(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Name)
        and stmt.value.func.id == MARKER
    )


# ---------------------------------------------------------------- code objects


def _codes(code: types.CodeType) -> list[types.CodeType]:
    """``code`` and every code object nested in it, depth first in source order."""
    found = [code]
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found += _codes(const)
    return found


def keyed(code: types.CodeType) -> dict[tuple[str, int], types.CodeType]:
    """Every code object by (qualified name, occurrence of that name)."""
    seen: dict[str, int] = defaultdict(int)
    out = {}
    for c in _codes(code):
        out[(c.co_qualname, seen[c.co_qualname])] = c
        seen[c.co_qualname] += 1
    return out


def is_body(code: types.CodeType) -> bool:
    """A module or class body: code that runs once, at import."""
    return not code.co_flags & _OPTIMIZED


def _shape(code: types.CodeType, deep: bool):
    """What a code object does, without line numbers; nested code deep, or by name only."""
    consts = tuple(
        (_shape(c, deep) if deep else ("<code>", c.co_qualname)) if isinstance(c, types.CodeType) else (type(c), c)
        for c in code.co_consts
    )
    return (
        code.co_code,
        consts,
        code.co_names,
        code.co_varnames,
        code.co_freevars,
        code.co_cellvars,
        code.co_flags,
        code.co_argcount,
        code.co_posonlyargcount,
        code.co_kwonlyargcount,
        code.co_exceptiontable,
    )


def function_key(code: types.CodeType) -> FunctionKey:
    return (code.co_filename, code.co_qualname, code.co_firstlineno)


@dataclass
class Plan:
    """How one patch applies to a live interpreter."""

    filename: str
    marked: types.CodeType  # the patched module's code, with reach markers
    at_import: bool  # a marker runs at import: every test reaches the patch
    swaps: list[tuple[FunctionKey, types.CodeType]] = field(default_factory=list)
    not_swappable: str = ""  # why a code swap cannot hold ("" when it can)


def plan(filename: str, original: str | types.CodeType, patched: str, first: int, last: int,
         ran_before_fork: set[FunctionKey], live: dict[FunctionKey, list]) -> Plan:
    """Compile the patched source and decide whether a code swap holds. SyntaxError propagates.

    ``original`` is the file's source, or its code compiled once before the fork.
    """
    instrumented = instrument(patched, first, last)
    marked = compile(instrumented.tree, filename, "exec", dont_inherit=True)
    plain = compile(patched, filename, "exec", dont_inherit=True)
    before = original if isinstance(original, types.CodeType) else compile(original, filename, "exec", dont_inherit=True)
    result = Plan(filename, marked, instrumented.at_import)
    old, new, with_markers = keyed(before), keyed(plain), keyed(marked)
    bodies_old = {k: c for k, c in old.items() if is_body(c)}
    bodies_new = {k: c for k, c in new.items() if is_body(c)}
    if bodies_old.keys() != bodies_new.keys() or any(
        _shape(c, deep=False) != _shape(bodies_new[k], deep=False) for k, c in bodies_old.items()
    ):
        result.not_swappable = "a module or class body changed (a constant, a default, a decorator or a new name)"
        return result
    changed = [k for k, c in old.items() if not is_body(c) and (k not in new or _shape(c, True) != _shape(new[k], True))]
    for k in changed:
        code = old[k]
        if function_key(code) in ran_before_fork:
            result.not_swappable = f"{code.co_qualname} changed and ran at import: a value it computed would be stale"
            return result
        top_level = "<locals>" not in code.co_qualname
        if top_level and not live.get(function_key(code)):
            result.not_swappable = f"{code.co_qualname} changed but no live function holds its code"
            return result
    for k, code in old.items():
        if is_body(code) or k not in with_markers or code == with_markers[k]:
            continue
        replacement = with_markers[k]
        if len(code.co_freevars) != len(replacement.co_freevars):
            result.not_swappable = f"{code.co_qualname}: its closure changed shape"
            return result
        result.swaps.append((function_key(code), replacement))
    return result


def apply_swaps(plan_: Plan, live: dict[FunctionKey, list]) -> int:
    """Give every live function its patched code; the number of functions changed."""
    count = 0
    for key, code in plan_.swaps:
        for function in live.get(key, ()):
            function.__code__ = code
            count += 1
    return count


def show_patched_source(filename: str, text: str) -> None:
    """Tracebacks of the patched code quote the patched lines, not the file on disk."""
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)


# ---------------------------------------------------------------- module re-import


class _PatchedLoader(importlib.abc.Loader):
    def __init__(self, code: types.CodeType, filename: str) -> None:
        self.code = code
        self.filename = filename

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        module.__dict__[MARKER] = Reach.marker
        module.__file__ = self.filename
        exec(self.code, module.__dict__)


class PatchedFinder(importlib.abc.MetaPathFinder):
    """Serves one module from memory: the patched, marked code."""

    def __init__(self, name: str, code: types.CodeType, filename: str) -> None:
        self.name = name
        self.code = code
        self.filename = filename

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        is_package = Path(self.filename).name == "__init__.py"
        return importlib.util.spec_from_file_location(
            fullname,
            self.filename,
            loader=_PatchedLoader(self.code, self.filename),
            submodule_search_locations=[str(Path(self.filename).parent)] if is_package else None,
        )


def module_name(filename: str, root: str) -> str | None:
    """The importable name of ``filename`` under ``root``; None when it is not inside a package path."""
    try:
        relative = Path(filename).relative_to(root)
    except ValueError:
        return None
    parts = list(relative.with_suffix("").parts)
    if relative.suffix != ".py" or not parts:
        return None
    if parts[-1] == "__init__":
        parts = parts[:-1]
    if not parts or not all(p.isidentifier() for p in parts):
        return None
    return ".".join(parts)


def reimport(names: list[str], target: str, code: types.CodeType, filename: str) -> None:
    """Drop ``names`` from ``sys.modules`` and import them again, ``target`` from the patched code."""
    for name in [target, *names]:
        sys.modules.pop(name, None)
    importlib.invalidate_caches()
    sys.meta_path.insert(0, PatchedFinder(target, code, filename))
    Reach.current = EVERYONE
    try:
        for name in [target, *names]:
            importlib.import_module(name)
    finally:
        Reach.current = None


def captured_names(code_modules: set[str]) -> list[str]:
    """Names in modules outside the code under test that hold one of its modules, functions or classes.

    A re-import would leave those pointing at the old objects.
    """
    found = []
    for name, module in list(sys.modules.items()):
        if name in code_modules or module is None:
            continue
        for attr, value in list(getattr(module, "__dict__", {}).items()):
            if isinstance(value, types.ModuleType):
                owner = value.__name__
                if owner in code_modules and owner != f"{name}.{attr}":  # a package's own submodule is rebound
                    found.append(f"{name}.{attr}")
            elif isinstance(value, (types.FunctionType, type)) and getattr(value, "__module__", None) in code_modules:
                found.append(f"{name}.{attr}")
    return sorted(found)
