"""The in-memory executor's warm worker: collects the contracts once, then patches each mutant in a fork of itself.

Started by :mod:`warm_fork` (``python warm_fork.py in_memory_worker SPEC``) with
the project copy as its working directory and first on ``sys.path``, so that
``import`` finds the copy (the bundled ``harness`` package itself, or a team's
adapter). One ``pytest.main`` runs in it; :class:`InMemoryWorker` takes over
the test loop (as pytest-xdist's workers do), so configuration, the session
and collection are pytest's own. Before it says it is ready it imports every
module of the code under test, loads the adapter and indexes the live project
(:mod:`warm_index`); then each request runs in a fork: the ``baseline``
(the contracts as they are) or a ``mutant`` (:mod:`in_memory_mutant`).
"""

from __future__ import annotations

import gc
import json
import os
import sys
import traceback
from pathlib import Path

import pytest  # not from the project: importing it never pulls in the unpatched copy

from . import contract_loop, fork_settings, in_memory_mutant, warm_index
from .in_memory_patch import Reach
from .outcome_recorder import OutcomeRecorder
from .preload import import_tree
from .warm_fork import WarmFork


class InMemoryWorker(OutcomeRecorder):
    def __init__(self, spec: dict, fork: WarmFork) -> None:
        super().__init__(spec["code_dirs"], spec["root"])
        self.spec = spec
        self.fork = fork
        self.root = spec["root"].rstrip(os.sep) + os.sep
        self.ran_before_fork: set = set()
        self.session: pytest.Session | None = None
        self.index: warm_index.WarmIndex | None = None

    def _profile(self, frame, event, arg) -> None:
        if event == "call":
            code = frame.f_code
            if code.co_filename.startswith(self.root):
                self.ran_before_fork.add((code.co_filename, code.co_qualname, code.co_firstlineno))

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_finish(self, session) -> None:
        # The harness plugin loads the adapter here: whatever the project runs while
        # it imports is recorded, since a value computed then would not see a code swap.
        sys.setprofile(self._profile)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session):
        self.session = session
        try:
            self._prepare(session)
        except _NotReady as exc:
            sys.setprofile(None)
            self.fork.not_ready(exc.kind, str(exc))
            return True
        self.fork.ready(items=[item.nodeid for item in session.items],
                        others=sys.modules["harness.plugin"].run_state(session.config).other_formats,
                        properties=[item.nodeid for item in fork_settings.property_items(session.items)],
                        reimport_blockers=self.index.reimport_blockers)
        self.fork.serve(self._job)
        os._exit(0)  # nothing of the session needs tearing down: no test ran in this process

    def _prepare(self, session) -> None:
        if self.collection_errors:
            raise _NotReady("collection", "\n".join(self.collection_errors))
        if not session.items:
            raise _NotReady("collection", "no contract was collected")
        plugin = sys.modules.get("harness.plugin")
        try:
            plugin.adapter_under_test(session.config)
            for package in self.spec["preload"]:
                import_tree(package)
        except pytest.UsageError as exc:
            raise _NotReady("usage", str(exc)) from None
        except Exception as exc:  # the project fails to import: its own baseline is red
            raise _NotReady("collection", f"importing the code under test failed: {type(exc).__name__}: {exc}\n"
                            + traceback.format_exc()[-2000:]) from None
        finally:
            sys.setprofile(None)
        for name, expected in self.spec["shadow_check"].items():
            found = getattr(sys.modules.get(name), "__file__", None) or ""
            if not found.startswith(self.root):
                raise _NotReady(
                    "usage",
                    f"{name} was imported from {Path(found).parent if found else 'nowhere'}, not from the copy of "
                    f"the project ({expected}): an installed copy shadows it",
                )
        if not self.spec.get("shrink", True):
            fork_settings.skip_shrinking(session.items)
        # The recorder words a failure from its exception, never from pytest's report text. Its default
        # long form reads the source and formats the arguments of every frame, which costs more than many
        # contracts do; the one-line form does neither. Collection is done.
        session.config.option.tbstyle = "line"
        self.index = warm_index.build(self.root, self.in_code)
        gc.freeze()  # forks share these pages instead of copying them on the first collection

    def _job(self, request: dict) -> dict:
        """One request, in the fork."""
        if request["kind"] == "baseline":
            return self._baseline(request)
        try:
            return in_memory_mutant.run(request, self.session, self, self.index, self.ran_before_fork, self.root,
                                        self._reload_adapter)
        except in_memory_mutant.Fallback as exc:
            return {"fallback": str(exc)}

    def _baseline(self, request: dict) -> dict:
        """The chosen contracts as they are; ``explore`` runs only their properties, under another profile and seed,
        ``reach`` measures the lines each contract ran (:mod:`line_reach`)."""
        chosen = set(request["items"]) if request.get("items") is not None else None
        items = [i for i in self.session.items if chosen is None or i.nodeid in chosen]
        explore = request.get("explore")
        if explore:
            # The other contracts run alike under every profile: the baseline runs them.
            items = fork_settings.property_items(items)
            fork_settings.explore(items, explore["profile"], explore["seed"], explore.get("examples"))
        fork_settings.count_examples(lambda: self.entry(Reach.current) if Reach.current else None)
        result = {"tests": self.tests, "errors": [], "engine": "", "engine_note": ""}
        plan = contract_loop.plan(items, None)
        if not request.get("reach"):
            contract_loop.run(self.session, self, plan, False, 0)
            return result
        from .line_reach import LineReach  # coverage is imported only by the fork that measures

        with LineReach(self.spec["code_dirs"]) as reach:
            contract_loop.run(self.session, self, plan, False, 0, reach.switch)
        result["lines"] = reach.result()
        return result

    def _reload_adapter(self) -> None:
        plugin = sys.modules["harness.plugin"]
        plugin.run_state(self.session.config).forget_adapter()  # the re-import replaced the loaded adapter
        plugin.adapter_under_test(self.session.config)


class _NotReady(Exception):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def main(fork: WarmFork, args: list[str]) -> None:
    spec = json.loads(Path(args[0]).read_text())
    sys.path[0] = spec["root"]  # the copy, not the folder this script sits in
    pytest.main(spec["pytest_args"], plugins=[InMemoryWorker(spec, fork)])
    # pytest returned without serving: a usage error before collection, or the loop was skipped.
    sys.stdout.flush()
    sys.stderr.flush()
    fork.not_ready("usage", "pytest ended before the worker was ready", output=True)
