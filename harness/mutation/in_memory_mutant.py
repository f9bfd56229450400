"""One mutant in a fork of an in-memory worker: apply the patch (code swap or re-import), then run its contracts.

Which way holds, and when neither does (the mutant then runs in a copy of
the project, :class:`Fallback`), is decided here; how each way works is
:mod:`in_memory_patch`.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from pathlib import Path

from . import contract_loop, fork_settings, in_memory_patch
from .in_memory_patch import Reach
from .outcome_recorder import OutcomeRecorder
from .warm_index import WarmIndex


class Fallback(Exception):
    """Neither in-memory way holds: the harness runs this mutant in a copy of the project."""


def run(request: dict, session, recorder: OutcomeRecorder, index: WarmIndex, ran_before_fork: set,
        root: str, reload_adapter: Callable[[], None]) -> dict:
    """The mutant's result: its tests, errors, and the way it was applied (``engine``, ``engine_note``).

    ``any_kill`` in the request: its ``contracts`` are exact ids and the first kill by any settles the run
    (a generic mutant); ``explore``: only the properties run, under another profile and seed (a retry).
    """
    filename = request["file"]
    original = index.originals.get(filename) or Path(filename).read_text(encoding="utf-8")
    result = {"tests": recorder.tests, "errors": [], "engine": "", "engine_note": ""}
    try:
        plan = in_memory_patch.plan(filename, original, request["patched"], request["first"], request["last"],
                                    ran_before_fork, index.live)
    except SyntaxError as exc:
        result["errors"] = [f"the patched {Path(filename).name} does not compile: {type(exc).__name__}: {exc}"]
        return result
    Reach.reset()
    forced = request.get("mode")
    target = in_memory_patch.module_name(filename, root)
    loaded = filename in index.namespaces
    if loaded and not recorder.in_code(filename):
        # Values computed from it while the contracts were collected would not see an in-memory patch.
        raise Fallback(f"{Path(filename).name} is outside the code under test")
    if forced != "reimport" and not plan.not_swappable and loaded:
        for namespace in index.namespaces[filename]:
            namespace[in_memory_patch.MARKER] = Reach.marker
        in_memory_patch.apply_swaps(plan, index.live)
        result["engine"] = in_memory_patch.SWAP
        if plan.at_import:
            Reach.hits.add(in_memory_patch.EVERYONE)
    else:
        why = plan.not_swappable or ("asked for" if forced else f"{Path(filename).name} was not imported")
        if target is None:
            raise Fallback(f"{why}; {Path(filename).name} is not an importable module")
        if loaded and index.reimport_blockers:
            raise Fallback(f"{why}; names captured outside the code under test: "
                           f"{', '.join(index.reimport_blockers[:3])}")
        result["engine"] = in_memory_patch.REIMPORT
        result["engine_note"] = why
        try:
            in_memory_patch.reimport(index.code_modules if loaded else [], target, plan.marked, filename)
            if loaded:
                reload_adapter()
        except Exception as exc:  # the patched module raised while importing
            result["errors"] = [f"the patched code raised while importing: {type(exc).__name__}: {exc}\n"
                                + traceback.format_exc()[-1500:]]
            return result
    in_memory_patch.show_patched_source(filename, request["patched"])
    everyone = in_memory_patch.EVERYONE in Reach.hits
    contracts = request["contracts"]
    any_kill = bool(request.get("any_kill"))
    items = session.items
    explore = request.get("explore")
    if explore:
        # A retry with more examples: only the properties can find anything the first run did not.
        items = fork_settings.property_items(items)
        fork_settings.explore(items, explore["profile"], explore["seed"], explore.get("examples"))
        fork_settings.count_examples(lambda: recorder.entry(Reach.current) if Reach.current else None)
    contract_loop.run(session, recorder, contract_loop.plan(items, contracts, request.get("durations"), any_kill),
                      True, 1 if any_kill else len(contracts))
    if everyone:
        for entry in recorder.tests.values():
            entry["reached"] = True
    return result
