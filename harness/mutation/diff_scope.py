"""What a diff-scoped run tests: the known bugs on changed lines, and the contracts that ran those lines.

A known bug is in scope when its patch (the ``find`` text, located in the
file as it is after the change) covers a changed line; when its file changed
and the text is gone (it will be reported stale); when it names a contract
whose module changed (the contract that must catch it is not the one that
did); or when an earlier run's report has it surviving and a contract that
covered it changed (a survivor is never kept past a change of its tests).

The contracts come from the baseline's line reach (:mod:`line_reach`), which
runs only the contracts the bugs in scope name: each bug keeps the names (a
module, a test) under which some contract ran its patched lines; a name none
of whose contracts ran them can neither kill nor cover it, so dropping it
leaves the verdict the full run gives. A bug whose lines no contract ran in
the measurement (module-level code runs at import, before any contract)
keeps every name.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from harness.clip import clip
from harness.mutation.diff_lines import Changes
from harness.mutation.reach import reach_lines
from harness.outcomes.mutants import Mutant, matches

CONTRACTS_DIR = "harness/contracts/"  # where the bundled contract modules live in the project
SHOWN_FILES = 20  # changed files named in a scope's line
SHOWN_RANGES = 200  # characters of one file's changed line ranges in it


@dataclass(frozen=True)
class Chosen:
    mutant: Mutant
    why: str


@dataclass
class Scope:
    changes: Changes
    chosen: list[Chosen]
    catalogue_size: int
    changed_contracts: frozenset[str]  # contract modules the change touched, as contract ids name them
    contracts: dict[str, str] = field(default_factory=dict)  # selected contract id -> why
    contracts_total: int | None = None  # contracts collected, once the baseline measured their reach
    measured: bool | None = None  # whether line reach picked the contracts; None: the baseline has not run yet
    mutmut: dict | None = None  # with --mutmut: selected, of (made in the changed files), files, rerun

    @property
    def mutants(self) -> list[Mutant]:
        return [c.mutant for c in self.chosen]

    def as_json(self) -> dict:
        return {
            "diff": self.changes.source,
            "files": {path: _ranges(sorted(f.lines)) + (" (file removed)" if f.removed else "")
                      for path, f in sorted(self.changes.files.items())},
            "known_bugs": {"selected": len(self.chosen), "of": self.catalogue_size,
                           "why": {c.mutant.id: c.why for c in self.chosen}},
            **({} if self.mutmut is None else {"mutmut_mutants": self.mutmut}),
            **({} if self.measured is None else {"contracts": {
                "selected": len(self.contracts), "of": self.contracts_total, "measured": self.measured,
                "why": dict(sorted(self.contracts.items()))}}),
        }


def _ranges(lines: list[int]) -> str:
    """``[3, 4, 5, 9]`` as ``"3-5, 9"``."""
    parts: list[str] = []
    for n in lines:
        if parts and int(parts[-1].rpartition("-")[2]) == n - 1:
            parts[-1] = f"{parts[-1].partition('-')[0]}-{n}"
        else:
            parts.append(str(n))
    return ", ".join(parts) or "no lines"


def scope_lines(scope: dict) -> list[str]:
    """A diff scope (:meth:`Scope.as_json`, as the report's run carries it) in words, one fact a line."""
    files, bugs = scope["files"], scope["known_bugs"]
    # A big diff (a vendored tree, a reformat) must not make one line of megabytes: the JSON report has it all.
    named = [f"; {path} lines {clip(lines, SHOWN_RANGES)}" for path, lines in list(files.items())[:SHOWN_FILES]]
    more = len(files) - SHOWN_FILES
    lines = [f"diff scope: {scope['diff']}: {len(files)} changed files" + "".join(named)
             + (f"; and {more} more (mutation-report.json lists every one)" if more > 0 else "")]
    lines.append(f"diff scope: {bugs['selected']} of {bugs['of']} known bugs selected"
                 + ("" if bugs["selected"] else " (none has its patch on a changed line)"))
    lines += [f"  {mutant}: {why}" for mutant, why in bugs["why"].items()]
    if "mutmut_mutants" in scope:
        made = scope["mutmut_mutants"]
        rerun = f"; re-run as earlier survivors whose contracts changed: {', '.join(made['rerun'])}" \
            if made["rerun"] else ""
        lines.append(f"diff scope: {made['selected']} of the {made['of']} mutmut mutants of "
                     f"{', '.join(made['files']) or 'no changed reference file'} on changed lines{rerun}")
    if "contracts" in scope:
        lines.append(contracts_line(scope["contracts"]))
    return lines


def contracts_line(contracts: dict) -> str:
    if not contracts["measured"]:
        return "diff scope: line reach not measured (a [runner] command): each bug runs every contract it names"
    return (f"diff scope: {contracts['selected']} of {contracts['of']} contracts selected: of what each bug in "
            "scope names, the contracts that ran its patched lines in the baseline")


def contract_module(contract: str) -> str:
    return contract.partition("::")[0].partition("[")[0]


def changed_contract_modules(changes: Changes) -> frozenset[str]:
    """The contract modules the change touched (``test_x.py``), as contract ids start."""
    return frozenset(path.removeprefix(CONTRACTS_DIR) for path in changes.files
                     if path.startswith(CONTRACTS_DIR) and path.endswith(".py"))


def patch_lines(source: str | None, find: str) -> tuple[int, int] | None:
    """The lines the ``find`` text spans in ``source``, if it occurs there exactly once."""
    if source is None or source.count(find) != 1:
        return None
    first = source.count("\n", 0, source.index(find)) + 1
    return first, first + find.rstrip("\n").count("\n")


def select_mutants(changes: Changes, mutants: list[Mutant], read, survivors: dict[str, list[str]]) -> Scope:
    """The bugs in scope, each with why; ``read`` gives a project file's text (None if absent), ``survivors``
    the earlier report's surviving bugs with the contracts that covered them."""
    modules = changed_contract_modules(changes)
    chosen: list[Chosen] = []
    for m in mutants:
        why = _why(changes, m, read, modules, survivors.get(m.id))
        if why:
            chosen.append(Chosen(m, why))
    return Scope(changes, chosen, len(mutants), modules)


def _why(changes: Changes, m: Mutant, read, modules: frozenset[str], covered: list[str] | None) -> str:
    if m.file in changes.files:
        span = patch_lines(read(m.file), m.find)
        if span is None:
            return f"{m.file} changed and its find text no longer occurs there exactly once"
        if changes.touches(m.file, *span):
            lines = _ranges(sorted(n for n in changes.lines(m.file) if span[0] <= n <= span[1]))
            return f"its patch ({m.file}:{span[0]}-{span[1]}) covers changed lines {lines}"
    named = sorted({contract_module(c) for c in m.contracts} & modules)
    if named:
        return f"it names contracts of a changed module: {', '.join(named)}"
    if covered is not None:
        changed = sorted(c for c in covered if contract_module(c) in modules)
        if changed:
            return f"it survived the earlier run and a contract that covered it changed: {', '.join(changed)}"
    return ""


def select_contracts(scope: Scope, lines: dict[str, dict], tests: list[str], read,
                     total: int | None = None, mutants: list[Mutant] | None = None) -> list[Mutant]:
    """Each bug in scope (or of ``mutants``, one format's share of it) with only the contracts it names that ran
    its lines, by the baseline's line reach ``lines`` over ``tests``; ``scope.contracts`` filled with every
    contract they match and why it is there.

    A name stays whole (a module stays a module): the engine stops a name at its first kill, so the kills,
    and the verdict, are the full run's. ``read``: a project file's text; ``total``: the contracts collected.
    """
    scope.contracts_total = total or len(tests)
    scope.measured = True
    changed_by = {test: path for path, changed in sorted(scope.changes.files.items())
                  for test in _ran(lines, path, changed.lines)}
    narrowed = []
    for m in scope.mutants if mutants is None else mutants:
        kept = _reaching_names(m, read(m.file), lines, tests)
        narrowed.append(replace(m, contracts=kept) if kept else m)
        for test in tests:
            if any(matches(test, c) for c in kept or m.contracts):
                scope.contracts.setdefault(test, _contract_why(test, m, scope.changed_contracts, changed_by))
    return narrowed


def _contract_why(test: str, m: Mutant, modules: frozenset[str], changed_by: dict[str, str]) -> str:
    if contract_module(test) in modules:
        return "its module changed"
    if test in changed_by:
        return f"ran a changed line of {changed_by[test]}"
    return f"named by {m.id}"


def _ran(lines: dict[str, dict], path: str, wanted: frozenset[int] | set[int]) -> set[str]:
    """The contracts that ran any of ``wanted`` lines of ``path`` (a line off a statement: the statement's)."""
    measured = lines.get(path)
    if measured is None:
        return set()
    statements = set(measured["statements"])
    found: set[str] = set()
    for n in wanted:
        for line in reach_lines(statements, n, n):
            found.update(measured["executed"].get(str(line), ()))
    return found


def _reaching_names(m: Mutant, source: str | None, lines: dict[str, dict], tests: list[str]) -> tuple[str, ...]:
    """The names in ``m.contracts`` with a test that ran its patched lines; empty when no contract ran them."""
    span = patch_lines(source, m.find)
    if span is None:
        return ()
    ran = _ran(lines, m.file, set(range(span[0], span[1] + 1)))
    return tuple(c for c in m.contracts if any(matches(t, c) for t in tests if t in ran))
