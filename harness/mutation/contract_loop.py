"""The test loop of an in-memory fork: which collected contracts run, in what order, and when to stop.

The warm worker's session collected every contract once; a fork runs a chosen
few through pytest's own ``pytest_runtest_protocol``, tearing down between
them only what the next does not share, and stops once every contract the
mutant names has killed it.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ..outcomes.mutants import KILL_KINDS, matches
from .in_memory_patch import Reach
from .outcome_recorder import OutcomeRecorder

Plan = list[tuple[pytest.Item, list[int]]]  # each item with the indexes of the contracts it matches


def plan(items: list[pytest.Item], contracts: list[str] | None, durations: dict[str, float] | None = None,
         any_kill: bool = False) -> Plan:
    """The items to run, each with the contracts it matches: the catalogue's order of contracts,
    and within one contract the cheapest first (by baseline time), since the first kill settles it.

    ``any_kill``: ``contracts`` are exact ids, all standing for one entry, cheapest first: the first
    kill by any of them settles the run (a generic mutant's covering contracts)."""
    if not contracts:
        return [(item, []) for item in items]
    durations = durations or {}
    if any_kill:
        chosen_ids = set(contracts)
        picked = [item for item in items if item.nodeid in chosen_ids]
        return [(item, [0]) for item in sorted(picked, key=lambda i: durations.get(i.nodeid, 0.0))]
    chosen: dict[str, tuple[pytest.Item, list[int]]] = {}
    for n, contract in enumerate(contracts):
        matching = [item for item in items if matches(item.nodeid, contract)]
        for item in sorted(matching, key=lambda i: durations.get(i.nodeid, 0.0)):
            chosen.setdefault(item.nodeid, (item, []))[1].append(n)
    return list(chosen.values())


def run(session: pytest.Session, recorder: OutcomeRecorder, plan_: Plan, stop_when_killed: bool, entries: int,
        on_current: Callable[[str | None], None] | None = None) -> None:
    """Run ``plan_``; each entry the recorder keeps (outcome, message, duration) gets ``reached`` from the markers.

    ``on_current`` is told the contract about to run, and None after it (line reach names its contexts so).

    With ``stop_when_killed``, an item whose contracts are all settled (killed
    by an item that reached the patch) is skipped, and the loop ends once all
    ``entries`` contracts are.
    """
    settled: set[int] = set()

    def pending(matched: list[int]) -> bool:
        return not (stop_when_killed and matched and set(matched) <= settled)

    expected = None  # the item the previous run tore its fixtures down for
    for index, (item, matched) in enumerate(plan_):
        if not pending(matched):
            continue
        if expected is not None and expected is not item:
            # A kill settled the item expected next: tear down what this one does not share with it.
            session._setupstate.teardown_exact(item)
        nextitem = next((i for i, m in plan_[index + 1:] if pending(m)), None)
        expected = nextitem
        Reach.current = item.nodeid
        if on_current is not None:
            on_current(item.nodeid)
        try:
            item.ihook.pytest_runtest_protocol(item=item, nextitem=nextitem)
        finally:
            Reach.current = None
            if on_current is not None:
                on_current(None)
        entry = recorder.entry(item.nodeid)
        entry["reached"] = item.nodeid in Reach.hits
        if stop_when_killed and entry["reached"] and entry["outcome"] in KILL_KINDS:
            settled.update(matched)
            if len(settled) == entries:
                break
