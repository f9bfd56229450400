"""An incremental known-bug run: what the verdict store holds under an unchanged key is reused, the rest runs.

One :class:`PartReuse` serves one part of a run (a format's share of the gate, or a ``mutate`` catalogue) over
the in-memory engine, which measures each contract's line reach in the baseline. It reuses, in this order:

- the collection (the contract ids), while no contract module and nothing every key holds changed;
- each contract's baseline entry, while its module and the files of the code under test it ran are unchanged;
  the others run in a baseline of their own, which measures their reach anew;
- each known bug's verdict (killed, survived, unreached), while its patch, its file, the contracts it may run
  and the keys of those it ran are unchanged (a killed bug stops at its kill, so only the contracts before it
  and its killer decide it; a survivor ran every one). Stale, invalid and timed-out bugs always run again:
  their verdict may come from the machine (a dead worker, a slow one), not from the code.

No worker starts unless something must run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from harness.mutation.in_memory_executor import ContractsExecutor
from harness.mutation.known_bug_run import Baseline, KnownBugRun
from harness.mutation.tree_digest import TreeDigest, digest, tree_digest
from harness.mutation.verdict_store import VerdictStore
from harness.mutation.workspace import Project
from harness.outcomes.mutants import Mutant, MutantResult, Position, RunOutcome, Verdict, matches

REUSED = (Verdict.KILLED, Verdict.SURVIVED, Verdict.UNREACHED)
INSTALLED = "installed:"  # the installed harness's files, beside a team's project, are named under this


def part_reuse(store: VerdictStore | None, name: str, run: KnownBugRun, catalogues: list[Path],
               narrow: bool = False) -> PartReuse | None:
    """The store's share of the part ``name`` of a run over the in-memory engine; None without a store, and for
    a [runner] command, whose reach is not measured. ``catalogues``: those the command read (no contract reads
    one: a bug's own patch is in its key)."""
    if store is None or not isinstance(run.executor, ContractsExecutor):
        return None
    executor = run.executor
    context = {"part": name, "profile": executor.profile, "adapter": executor.adapter, "mode": executor.mode,
               "shrink": executor.shrink}
    tree = run_tree(run.project, executor, context, [*catalogues, store.path])  # the store changes every run
    return PartReuse(store, name, run, tree, narrow)


def run_tree(project: Project, executor: ContractsExecutor, context: dict, left_out: list[Path]) -> TreeDigest:
    """The digests of what a part's run depends on: its project, and the installed harness when the project is a
    team's (its contracts and toolkit then come from there)."""
    files = {name: project.root / name for name in project.files}
    code_dirs = [d.rstrip("/") + "/" for d in executor.code_dirs()]
    code = [n for n in files if any(d == "./" or n.startswith(d) for d in code_dirs)]
    if executor.bundled:
        return tree_digest(files, code, "harness/contracts/", context, left_out)
    installed = Project.bundled()
    files.update({INSTALLED + name: installed.root / name for name in installed.files})
    return tree_digest(files, code, INSTALLED + "harness/contracts/", context, left_out)


def _result_json(result: MutantResult) -> dict:
    def position(p: Position | None) -> list[int] | None:
        return None if p is None else [p.line, p.column]

    return {"verdict": result.verdict.value, "reason": result.reason, "message": result.message,
            "start": position(result.start), "end": position(result.end), "covered_by": result.covered_by,
            "killed_by": result.killed_by, "tests": result.tests, "duration": result.duration, "kind": result.kind,
            "engine": result.engine}


def _result(mutant: Mutant, stored: dict, source: str) -> MutantResult:
    def position(p: list[int] | None) -> Position | None:
        return None if p is None else Position(*p)

    return MutantResult(mutant, Verdict(stored["verdict"]), stored["reason"], stored["message"],
                        position(stored["start"]), position(stored["end"]), list(stored["covered_by"]),
                        list(stored["killed_by"]), list(stored["tests"]), float(stored["duration"]), source,
                        stored["kind"], stored["engine"])


@dataclass
class Counts:
    """How much of a part came from the store."""

    contracts: int = 0
    of_contracts: int = 0
    bugs: int = 0
    of_bugs: int = 0

    def as_json(self) -> dict:
        return {"known_bugs": self.bugs, "of_known_bugs": self.of_bugs, "contracts": self.contracts,
                "of_contracts": self.of_contracts}


class PartReuse:
    """The store's share of one part: what it reuses, and what it records for the next run (:meth:`keep`)."""

    def __init__(self, store: VerdictStore, name: str, run: KnownBugRun, tree: TreeDigest,
                 narrow: bool = False) -> None:
        """``narrow``: the known bugs run as :meth:`check_contracts` is given them (no contract dropped after the
        baseline), so the workers, when they must start, collect only the modules of what runs."""
        self.store = store
        self.narrow = narrow
        self._mutants: list[Mutant] = []
        self.name = name
        self.run = run
        self.tree = tree
        self.stored = store.part(name)
        # What another command keeps in the part (the nightly's mutmut verdicts, its exploration) stays as it was.
        self.state: dict = {**self.stored, "collection": None, "contracts": dict(self.stored.get("contracts", {})),
                            "statements": dict(self.stored.get("statements", {})),
                            "startup": self.stored.get("startup", 0.0),
                            "mutants": dict(self.stored.get("mutants", {}))}
        self.counts = Counts()
        self._contract_keys: dict[str, str] = {}

    # ------------------------------------------------------------ collection

    def known(self) -> tuple[list[str], list[str]]:
        """The contracts collected, and those of other formats: from the store while its key holds, else the
        workers start and collect."""
        key = self.tree.collection()
        stored = self.stored.get("collection")
        if stored is None or stored["key"] != key:
            self.run.prepare()
            executor = self.run.executor
            stored = {"key": key, "items": executor.collected(), "others": executor.other_formats()}
        self.state["collection"] = stored
        return list(stored["items"]), list(stored["others"])

    def properties(self) -> list[str]:
        """The collected contracts that are Hypothesis properties, stored with the collection once asked for (a
        collection stored without them starts the workers, which tell)."""
        self.known()
        stored = self.state["collection"]
        if "properties" not in stored:
            self.run.prepare()
            stored["properties"] = self.run.executor.properties()
        return list(stored["properties"])

    def contract_key(self, contract: str) -> str:
        """The key of a contract of the baseline (:meth:`baseline` sets them)."""
        return self._contract_keys[contract]

    def check_contracts(self, mutants: list[Mutant]) -> None:
        """Every name each mutant gives matches a contract collected (or of another format)."""
        self._mutants = list(mutants)
        items, others = self.known()
        for m in mutants:
            KnownBugRun.check_names(list(m.contracts), [*items, *others], f"mutant {m.id!r}: ")

    # ------------------------------------------------------------ the baseline

    def baseline(self, contracts: list[str] | None) -> Baseline:
        """The baseline of ``contracts`` (None: every one collected), with each contract's line reach: stored
        entries under an unchanged key, the others run (a red or late one raises as :meth:`KnownBugRun.baseline`)."""
        items, _ = self.known()
        needed = [t for t in items if not contracts or any(matches(t, c) for c in contracts)]
        stored = self.state["contracts"]
        reused = {t for t in needed if t in stored and stored[t]["key"] == self.tree.contract(t, stored[t]["lines"])}
        rerun = [t for t in needed if t not in reused]
        fresh = RunOutcome()
        if rerun:
            self._prepare(needed, rerun)
            chosen, self.run.baseline_contracts = self.run.baseline_contracts, rerun
            try:
                fresh = self.run.baseline(reach=True).outcome
            finally:
                self.run.baseline_contracts = chosen
            self._record(fresh, rerun)
        self.counts.contracts, self.counts.of_contracts = len(reused), len(needed)
        tests = {t: dict(stored[t]["entry"]) for t in needed}
        for t in needed:
            self._contract_keys[t] = stored[t]["key"]
        outcome = RunOutcome(tests=tests, reach_measured=True,
                             wall=self.state["startup"] + sum(e.get("duration", 0.0) for e in tests.values()),
                             lines=self._lines({t: stored[t]["lines"] for t in needed}))
        if isinstance(self.run.executor, ContractsExecutor):
            self.run.executor.remember_durations(tests)
        return Baseline(outcome)

    def _record(self, fresh: RunOutcome, ran: list[str]) -> None:
        """What a baseline run measured, for the contracts ``ran``: each one's entry, reach and key."""
        self.state["startup"] = max(0.0, fresh.wall - sum(e.get("duration", 0.0) for e in fresh.tests.values()))
        for file, measured in fresh.lines.items():
            self.state["statements"][file] = measured["statements"]
        reach = _by_contract(fresh.lines)
        for t in ran:
            lines = reach.get(t, {})
            self.state["contracts"][t] = {"key": self.tree.contract(t, lines), "entry": fresh.tests[t], "lines": lines}

    def _prepare(self, tests: list[str], rerun: list[str]) -> None:
        """Start the workers: collecting every contract, or (``narrow``) only the modules of the ``rerun``
        baseline contracts and of the contracts of each known bug that will run (every one that ran a contract
        of ``rerun``, or whose stored verdict is not reused otherwise)."""
        if not self.narrow:
            self.run.prepare(None)
            return
        again = set(rerun)
        keys = {t: self.state["contracts"][t]["key"] for t in tests if t not in again}
        runs = [m for m in self._mutants if not self._reusable(m, self._key(m, tests), keys)]
        modules = {t.partition("::")[0] for t in rerun} | {c.partition("::")[0] for m in runs for c in m.contracts}
        self.run.prepare(sorted(modules) or list(rerun))

    # ------------------------------------------------------------ the known bugs

    def _key(self, mutant: Mutant, tests: list[str]) -> str:
        """What a bug's verdict depends on besides its contracts' keys: its patch, its file, and which of
        ``tests`` (the baseline's) it may run."""
        candidates = sorted(t for t in tests if any(matches(t, c) for c in mutant.contracts))
        return digest([self.tree.shared, self.name, mutant.id, mutant.file, mutant.find, mutant.replace,
                       list(mutant.contracts), self.tree.whole(mutant.file), candidates])

    def _reusable(self, mutant: Mutant, key: str, contract_keys: dict[str, str]) -> bool:
        """Whether the stored verdict stands: the same key, a verdict of the code, and every contract the bug
        ran (a killed bug stopped at its kill; others ran every candidate) under its stored key."""
        record = self.state["mutants"].get(mutant.id)
        return (record is not None and record["key"] == key and Verdict(record["result"]["verdict"]) in REUSED
                and all(contract_keys.get(t) == k for t, k in record["ran"].items()))

    def run_mutants(self, mutants: list[Mutant], baseline: Baseline,
                    run_rest: Callable[[list[Mutant]], list[MutantResult]]) -> list[MutantResult]:
        """Every mutant's result in order: reused under an unchanged key, the rest run by ``run_rest`` (after
        :attr:`counts` says how many were reused)."""
        stored = self.state["mutants"]
        keys = {m.id: self._key(m, list(baseline.outcome.tests)) for m in mutants}
        found = {m.id: _result(m, stored[m.id]["result"], self.run.project.read(m.file) or "")
                 for m in mutants if self._reusable(m, keys[m.id], self._contract_keys)}
        self.counts.bugs, self.counts.of_bugs = len(found), len(mutants)
        rest = [m for m in mutants if m.id not in found]
        if rest:
            self._prepare(list(baseline.outcome.tests), [])
        for result in run_rest(rest):
            found[result.mutant.id] = result
            stored[result.mutant.id] = {"key": keys[result.mutant.id], "result": _result_json(result),
                                        "ran": {t: self._contract_keys.get(t, "") for t in result.tests}}
        return [found[m.id] for m in mutants]

    def _lines(self, reach: dict[str, dict[str, list[int]]]) -> dict[str, dict]:
        """Each contract's reach merged back into a baseline's line reach (file -> statements, executed line ->
        contracts); a file's statements as measured on its current text (a contract that ran a changed file ran
        again, and measured it)."""
        lines: dict[str, dict] = {}
        for t, files in reach.items():
            for file, ran in files.items():
                into = lines.setdefault(file, {"statements": [], "executed": {}})
                for n in ran:
                    into["executed"].setdefault(str(n), []).append(t)
        for file, into in lines.items():
            into["statements"] = list(self.state["statements"][file])
            into["executed"] = {n: sorted(ts) for n, ts in into["executed"].items()}
        return lines

    def keep(self) -> None:
        """This part's state into the store (written by :meth:`VerdictStore.save`)."""
        if self.state["collection"] is not None:
            self.store.parts[self.name] = self.state


def _by_contract(lines: dict[str, dict]) -> dict[str, dict[str, list[int]]]:
    """A baseline's line reach (file -> executed line -> contracts) as contract -> file -> lines it ran."""
    reach: dict[str, dict[str, list[int]]] = {}
    for file, measured in lines.items():
        for line, contracts in measured["executed"].items():
            for t in contracts:
                reach.setdefault(t, {}).setdefault(file, []).append(int(line))
    return {t: {f: sorted(ns) for f, ns in files.items()} for t, files in reach.items()}


