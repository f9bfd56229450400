"""What a verdict depends on, as digests: the keys of the verdict store (:mod:`verdict_store`).

Every file of the run is in every key, whole or in part:

- a contract module (``test_*.py`` of the contracts folder) is in the keys of
  the contracts it holds, and of the known bugs they judge;
- a Python file of the code under test (the reference, or a team's project)
  is in every key by its *skeleton* (its syntax tree without the bodies of
  its functions: what importing it runs), and whole in the keys of the
  contracts that ran one of its lines in the baseline (their measured reach);
  a function called or used as a decorator by code that runs at import keeps
  its body in the skeleton, since no contract's reach sees it run;
- every other file (the harness itself, its helpers, data files) is whole in
  every key, with the harness version, the Python and the versions of every
  installed distribution.

So a one-line change in a function body re-runs the contracts that ran that
file, and the known bugs those contracts judge; anything else re-runs all.
"""

from __future__ import annotations

import ast
import hashlib
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from importlib import metadata
from pathlib import Path

import harness

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
ABSENT = "absent"  # the digest of a file the tree does not hold


def digest(value: object) -> str:
    """A SHA-256 of ``value`` as canonical JSON."""
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _bytes_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _import_time_names(tree: ast.Module) -> set[str]:
    """Names that code run at import calls or decorates with (``T = build()``, ``@register``, ``X = Cls()``)."""
    names: set[str] = set()

    def collect(node: ast.AST) -> None:
        for sub in ast.walk(node):
            target = sub.func if isinstance(sub, ast.Call) else None
            if isinstance(target, ast.Name):
                names.add(target.id)
            elif isinstance(target, ast.Attribute):
                names.add(target.attr)

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, _FUNCTIONS):
                for part in [*node.decorator_list, *node.args.defaults, *node.args.kw_defaults]:
                    if part is not None:
                        collect(part)
                        names.update(n.id for n in ast.walk(part) if isinstance(n, ast.Name))
            elif isinstance(node, ast.ClassDef):
                for part in [*node.decorator_list, *node.bases, *node.keywords]:
                    collect(part)
                    names.update(n.id for n in ast.walk(part) if isinstance(n, ast.Name))
                visit(node.body)
            else:
                collect(node)

    visit(tree.body)
    return names


def skeleton(source: str, kept: set[str]) -> str:
    """``source``'s syntax tree without the bodies of its functions, except those named in ``kept`` (and
    everything inside a class named there); the source itself when it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return source

    def strip(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, _FUNCTIONS) and node.name not in kept:
                node.body = [ast.Pass()]
            elif isinstance(node, ast.ClassDef) and node.name not in kept:
                strip(node.body)

    strip(tree.body)
    return ast.dump(tree)


def installed_distributions() -> list[str]:
    """``name==version`` of every installed distribution: a library's upgrade may change what a contract sees."""
    return sorted({f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions() if d.metadata["Name"]})


@dataclass
class TreeDigest:
    """The digests of one run's files.

    ``files``: every file the run depends on, by the name the keys use -> its path; ``code``: the names of the
    code under test (the reach of a contract names these); ``contracts``: the contract module of a contract id
    (``test_x.py::test_y``) -> its name in ``files``; ``context``: what else the run is (profile, adapter, format).
    """

    files: dict[str, Path]
    code: frozenset[str]
    contracts_prefix: str  # the name of the contracts folder in ``files``, ending with "/"
    context: dict
    _whole: dict[str, str] = field(default_factory=dict)

    def whole(self, name: str) -> str:
        """The digest of a file's bytes (:data:`ABSENT` when the tree does not hold it)."""
        if name not in self._whole:
            path = self.files.get(name)
            try:
                self._whole[name] = _bytes_digest(path.read_bytes()) if path is not None else ABSENT
            except OSError:
                self._whole[name] = ABSENT
        return self._whole[name]

    def _is_contract_module(self, name: str) -> bool:
        return name.startswith(self.contracts_prefix) and Path(name).name.startswith("test_") \
            and name.endswith(".py")

    @cached_property
    def shared(self) -> str:
        """What every key holds: the context, every file that is neither a contract module nor a Python file of
        the code under test, and the skeleton of each of those."""
        python = sorted(n for n in self.code if n.endswith(".py"))
        sources = {n: self.files[n].read_text(encoding="utf-8", errors="surrogateescape") for n in python}
        kept: set[str] = set()
        for text in sources.values():
            try:
                kept |= _import_time_names(ast.parse(text))
            except (SyntaxError, ValueError):
                continue
        parts = {n: self.whole(n) for n in self.files if n not in sources and not self._is_contract_module(n)}
        parts.update({n: hashlib.sha256(skeleton(text, kept).encode()).hexdigest() for n, text in sources.items()})
        return digest({"context": self.context, "harness": harness.__version__, "python": sys.version,
                       "distributions": installed_distributions(), "files": parts})

    def module(self, contract: str) -> str:
        """The name in ``files`` of the module holding ``contract`` (a contract id)."""
        return self.contracts_prefix + contract.partition("::")[0]

    def contract(self, contract: str, reached: Iterable[str]) -> str:
        """A contract's key: :attr:`shared`, its module, and each file of the code under test it ran (``reached``)."""
        return digest([self.shared, self.whole(self.module(contract)),
                       sorted((n, self.whole(n)) for n in set(reached))])

    def collection(self) -> str:
        """What collecting the contracts depends on: every key's share and every contract module."""
        modules = sorted((n, self.whole(n)) for n in self.files if self._is_contract_module(n))
        return digest([self.shared, modules])


def tree_digest(files: dict[str, Path], code: Iterable[str], contracts_prefix: str, context: dict,
                left_out: Iterable[Path] = ()) -> TreeDigest:
    """The digests of ``files`` (name -> path); ``code``: the names of the code under test; ``left_out``: files
    the command reads and no contract does (the catalogues: a bug's own patch is in its key)."""
    skip = {p.resolve() for p in left_out}
    kept = {n: p for n, p in files.items() if p.resolve() not in skip}
    return TreeDigest(kept, frozenset(n for n in code if n in kept and not n.startswith(contracts_prefix)),
                      contracts_prefix, context)
