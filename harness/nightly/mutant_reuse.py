"""The nightly's share of the verdict store: mutmut's mutants' verdicts and the exploration, reused while unchanged.

One :class:`MutantReuse` serves one format's part of a nightly, beside the
:class:`~harness.mutation.incremental.PartReuse` that reuses its baseline (each
contract's entry and line reach) and its known bugs. It reuses:

- a mutmut mutant's record (killed or survived) while its key holds: the
  format, the mutant's name and change, its file whole, whether a pragma
  exempts it, the contracts that cover it and the key of each one it runs
  (which holds the contract's module and every file of the reference it ran:
  :mod:`harness.mutation.tree_digest`); when a survivor's retry could have
  decided it (a property among those contracts), also the run's seed and the
  examples the retry gives each property. A timeout, a suspicious run and a
  retry cut at its time bound always run again: they may come from the
  machine, not from the code;
- a green exploration while its seed, each property's examples and the
  properties' keys hold (the nightly profile with a seed runs the same
  examples again).
"""

from __future__ import annotations

from dataclasses import asdict

from harness.mutation.incremental import PartReuse
from harness.mutation.tree_digest import digest
from harness.mutation.verdict_store import MUTMUT_REUSED
from harness.nightly.explore_budget import Plan as ExplorePlan
from harness.nightly.mutmut_run import MutmutMutant

REUSED_NOTE = "reused from the verdict store (its key is unchanged)"


class MutantReuse:
    """What one format's part of the store holds for mutmut's mutants and the exploration, and what this run keeps."""

    def __init__(self, part: PartReuse, seed: int) -> None:
        self.part = part
        self.seed = seed
        stored = part.stored.get("mutmut", {})
        self._stored: dict[str, dict] = dict(stored) if isinstance(stored, dict) else {}
        self._kept: dict[str, dict] = {}
        self.reused = 0  # mutmut mutants whose record came from the store
        self.of = 0  # mutmut mutants this format had to judge

    # ------------------------------------------------------------ mutmut's mutants

    def keys(self, planned, retried: list[str], explored: ExplorePlan | None) -> tuple[str, str]:
        """What a mutant's verdict under this format depends on (``planned``: its
        :class:`~harness.nightly.generic_run.Planned`; ``retried``: the properties a survivor's retry runs): the
        key of a verdict reached without a retry, and that of one a retry reached (the seed and the retry's
        examples added; the same key when no retry can run)."""
        m, change = planned.mutant, planned.mutant.change
        tree = self.part.tree
        base = digest([tree.shared, self.part.name, m.name, m.file, tree.whole(m.file),
                       [change.start.line, change.start.column, change.end.line, change.end.column, change.original,
                        change.replacement],
                       planned.exempt, planned.covered, {t: self.part.contract_key(t) for t in planned.runs}])
        if not retried:
            return base, base
        return base, digest([base, self.seed, explored.retry(retried)[0] if explored else None])

    def take(self, name: str, keys: tuple[str, str]) -> MutmutMutant | None:
        """The stored record of mutant ``name`` under either of its ``keys`` (kept for the next run), or None."""
        self.of += 1
        entry = self._stored.get(name)
        if entry is None or entry["key"] not in keys:
            return None
        self.reused += 1
        self._kept[name] = entry
        record = entry["record"]
        return MutmutMutant(**{**record, "covered_by": tuple(record["covered_by"]),
                               "killed_by": tuple(record["killed_by"]), "how": f"{record['how']}; {REUSED_NOTE}"})

    def keep(self, name: str, key: str, record: MutmutMutant, decided: bool) -> None:
        """A record this run reached under ``key``; stored if its verdict is one of the code (``decided``: no
        retry ran out of its time bound)."""
        if decided and record.status in MUTMUT_REUSED:
            self._kept[name] = {"key": key, "record": asdict(record)}

    # ------------------------------------------------------------ the exploration

    def exploration_key(self, profile: str, examples: dict[str, int]) -> str:
        return digest([self.part.tree.shared, self.part.name, profile, self.seed, sorted(examples.items()),
                       {p: self.part.contract_key(p) for p in examples}])

    def stored_exploration(self, key: str) -> dict | None:
        """The stored green exploration under ``key`` (``{"ran": property -> examples, "wall": seconds}``)."""
        stored = self.part.stored.get("exploration")
        return stored if stored is not None and stored["key"] == key else None

    def keep_exploration(self, key: str, ran: dict[str, int], wall: float) -> None:
        """A green exploration, for the next run with the same seed."""
        self.part.state["exploration"] = {"key": key, "ran": dict(ran), "wall": wall}

    # ------------------------------------------------------------ the store

    def keep_all(self) -> None:
        """This run's records into the part's state (written with it by :meth:`PartReuse.keep`)."""
        self.part.state["mutmut"] = dict(self._kept)
