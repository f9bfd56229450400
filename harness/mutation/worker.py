"""A warm worker: collects the contracts once, then runs each request in a fork of itself.

Started by :mod:`harness.mutation.engine` as a script, with the project copy
as its working directory and first on ``sys.path``, so that ``import`` finds
the copy (the bundled ``harness`` package itself, or a team's adapter). One
``pytest.main`` runs in it; :class:`WorkerPlugin` takes over the test loop
(as pytest-xdist's workers do), so configuration, the session and collection
are pytest's own. Before serving it imports every module of the code under
test, loads the adapter, and indexes the live functions of the project.

Protocol, JSON lines over two pipes whose numbers are in ``HARNESS_WORKER_FDS``
(``request,reply``; pytest owns file descriptors 0 to 2):

- the worker says ``{"ready": true, "items": [...], "pid": n}`` once, or
  ``{"ready": false, "kind": "usage"|"collection", "error": text}``;
- each request ``{"kind": "baseline"|"mutant", "label": ..., ...}`` is answered
  with ``{"pid": n}`` when its fork runs (in a session of its own, so the
  harness can kill it with everything it started) and ``{"exit": code,
  "result": {...}|null, "tail": text}`` when the fork has ended. The result
  comes from the fork over a pipe of its own; a fork that died before sending
  one is reported with its exit status and the tail of what it printed.

End of the request pipe ends the worker.
"""

from __future__ import annotations

import gc
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time
import traceback
import types
from pathlib import Path

import pytest  # not from the project: importing it never pulls in the unpatched copy

# The rule of a red contract's kind, shared with the copy path's probe; by its path, as harness is not imported.
_spec = importlib.util.spec_from_file_location("_harness_kill_kind", Path(__file__).with_name("kill_kind.py"))
_KILL_KIND = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_KILL_KIND)

TAIL = 4000  # characters of a dead fork's output kept for the report


def _send(fd: int, message: dict) -> None:
    data = (json.dumps(message) + "\n").encode()
    while data:
        data = data[os.write(fd, data):]


def _lines(fd: int):
    buffer = b""
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            return
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            yield json.loads(line)


def _read_all(fd: int) -> bytes:
    parts = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(parts)
        parts.append(chunk)


def read_tail(path: Path) -> str:
    """The last :data:`TAIL` characters of a file (a worker's log, a fork's output); empty when unreadable."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - TAIL))
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


class WorkerPlugin:
    def __init__(self, spec: dict, request_fd: int, reply_fd: int) -> None:
        self.spec = spec
        self.request_fd = request_fd
        self.reply_fd = reply_fd
        self.root = spec["root"].rstrip(os.sep) + os.sep
        self.code_dirs = [d.rstrip(os.sep) + os.sep for d in spec["code_dirs"]]
        self.collection_errors: list[str] = []
        self.ran_before_fork: set = set()
        self.live: dict = {}
        self.code_modules: list[str] = []
        self.reimport_blockers: list[str] = []
        self.tests: dict[str, dict] = {}
        self.session = None
        self.ending: list[tuple[int, Path]] = []  # forks that answered and are still ending

    # ------------------------------------------------------------ in the worker

    def pytest_collectreport(self, report) -> None:
        if report.failed:
            self.collection_errors.append(f"{report.nodeid}: {report.longreprtext[-2000:]}")

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
            _send(self.reply_fd, {"ready": False, "kind": exc.kind, "error": str(exc)})
            return True
        _send(
            self.reply_fd,
            {
                "ready": True,
                "pid": os.getpid(),
                "items": [item.nodeid for item in session.items],
                "reimport_blockers": self.reimport_blockers,
            },
        )
        for request in _lines(self.request_fd):
            self._serve(request)
        self._reap(block=True)
        os._exit(0)  # nothing of the session needs tearing down: no test ran in this process

    def _prepare(self, session) -> None:
        import importlib
        import pkgutil

        from harness.mutation import inmemory

        if self.collection_errors:
            raise _NotReady("collection", "\n".join(self.collection_errors))
        if not session.items:
            raise _NotReady("collection", "no contract was collected")
        plugin = sys.modules.get("harness.plugin")
        try:
            plugin.adapter_under_test(session.config)
            for package in self.spec["preload"]:
                module = importlib.import_module(package)
                for info in pkgutil.walk_packages(getattr(module, "__path__", []), package + "."):
                    importlib.import_module(info.name)
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
            _skip_shrinking(session.items)
        # A test's outcome and message come from its exception (exconly and notes), never from pytest's
        # report text. Its default long form reads the source and formats the arguments of every frame,
        # which costs more than many contracts do; the one-line form does neither. Collection is done.
        session.config.option.tbstyle = "line"
        self.code_modules = [
            name for name, module in list(sys.modules.items())
            if self._in_code(getattr(module, "__file__", None) or "")
        ]
        self.reimport_blockers = inmemory.captured_names(set(self.code_modules))
        from harness.outcomes.mutants import matches

        self.matches = matches
        # Compiled once here rather than in every fork: the original code of each module under test,
        # and the namespaces a swap gives the reach marker to.
        self.namespaces: dict[str, list[dict]] = {}
        for module in list(sys.modules.values()):
            filename = getattr(module, "__file__", None) or ""
            if filename.endswith(".py") and filename.startswith(self.root):
                self.namespaces.setdefault(filename, []).append(module.__dict__)
        self.originals = {}
        for filename in self.namespaces:
            if self._in_code(filename):
                try:
                    self.originals[filename] = compile(
                        Path(filename).read_text(encoding="utf-8"), filename, "exec", dont_inherit=True
                    )
                except (OSError, SyntaxError, ValueError):
                    pass
        for obj in gc.get_objects():
            if type(obj) is types.FunctionType:
                code = obj.__code__
                if code.co_filename.startswith(self.root):
                    self.live.setdefault(inmemory.function_key(code), []).append(obj)
        gc.freeze()  # forks share these pages instead of copying them on the first collection

    def _in_code(self, filename: str) -> bool:
        return any(filename.startswith(d) for d in self.code_dirs)

    def _reap(self, block: bool) -> None:
        """Reap forks that answered and are ending; remove their folders."""
        still = []
        for pid, scratch in self.ending:
            try:
                done, _ = os.waitpid(pid, 0 if block else os.WNOHANG)
            except ChildProcessError:
                done = pid
            if done:
                shutil.rmtree(scratch, ignore_errors=True)
            else:
                still.append((pid, scratch))
        self.ending = still

    def _serve(self, request: dict) -> None:
        self._reap(block=False)
        scratch = Path(tempfile.mkdtemp(prefix=f"harness-{request['label']}-", dir=self.spec["run_dir"]))
        log = scratch / "output.log"
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            self._child(request, scratch, log, write_end)  # never returns
        os.close(write_end)
        _send(self.reply_fd, {"pid": pid})
        data = _read_all(read_end)
        os.close(read_end)
        result = None
        if data:
            try:
                result = json.loads(data)
            except ValueError:
                result = None
        if result is None:  # it died: its exit status and what it printed are the report
            _, status = os.waitpid(pid, 0)
            tail = read_tail(log)
            shutil.rmtree(scratch, ignore_errors=True)
            _send(self.reply_fd, {"exit": os.waitstatus_to_exitcode(status), "result": None, "tail": tail})
            return
        _send(self.reply_fd, {"exit": 0, "result": result, "tail": ""})
        # Its teardown overlaps the next request: reaped once it has ended, and at the latest when the worker ends.
        self.ending.append((pid, scratch))

    # ------------------------------------------------------------ in the fork

    def _child(self, request: dict, scratch: Path, log: Path, result_fd: int) -> None:
        try:
            os.setsid()
            os.close(self.request_fd)
            os.close(self.reply_fd)
            os.chdir(scratch)
            out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(out, 1)
            os.dup2(out, 2)
            os.close(out)
            if request["kind"] == "baseline":
                result = self._baseline(request)
            else:
                try:
                    result = self._mutant(request)
                except _Fallback as exc:
                    result = {"fallback": str(exc)}
            data = json.dumps(result).encode()
            while data:
                data = data[os.write(result_fd, data):]
            os.close(result_fd)  # the worker answers now; tearing this process down is off the clock
        except BaseException:
            traceback.print_exc()
            sys.stderr.flush()
            os._exit(70)
        os._exit(0)

    def _items(self, contracts: list[str] | None, durations: dict[str, float] | None = None):
        """The items to run, each with the contracts it matches: the catalogue's order of contracts,
        and within one contract the cheapest first (by baseline time), since the first kill settles it."""
        matches = self.matches
        if not contracts:
            return [(item, []) for item in self.session.items]
        durations = durations or {}
        chosen: dict[str, tuple[object, list[int]]] = {}
        for n, contract in enumerate(contracts):
            matching = [item for item in self.session.items if matches(item.nodeid, contract)]
            for item in sorted(matching, key=lambda i: durations.get(i.nodeid, 0.0)):
                chosen.setdefault(item.nodeid, (item, []))[1].append(n)
        return list(chosen.values())

    def _run(self, plan: list[tuple[object, list[int]]], stop_when_killed: bool, entries: int) -> None:
        from harness.mutation.inmemory import Reach

        settled: set[int] = set()
        expected = None  # the item the previous run tore its fixtures down for
        for index, (item, matched) in enumerate(plan):
            if stop_when_killed and matched and set(matched) <= settled:
                continue
            if expected is not None and expected is not item:
                # A kill settled the item expected next: tear down what this one does not share with it.
                self.session._setupstate.teardown_exact(item)
            nextitem = next(
                (i for i, m in plan[index + 1:] if not (stop_when_killed and m and set(m) <= settled)), None
            )
            expected = nextitem
            Reach.current = item.nodeid
            started = time.perf_counter()
            try:
                item.ihook.pytest_runtest_protocol(item=item, nextitem=nextitem)
            finally:
                Reach.current = None
            entry = self.tests.setdefault(item.nodeid, {"outcome": "passed", "message": ""})
            entry["duration"] = time.perf_counter() - started
            entry["reached"] = item.nodeid in Reach.hits
            if stop_when_killed and entry["reached"] and entry["outcome"] in ("assertion", "crash"):
                settled.update(matched)
                if len(settled) == entries:
                    break

    def _baseline(self, request: dict) -> dict:
        chosen = set(request["items"]) if request.get("items") is not None else None
        plan = [(i, []) for i in self.session.items if chosen is None or i.nodeid in chosen]
        self._run(plan, False, 0)
        return {"tests": self.tests, "errors": [], "engine": "", "engine_note": ""}

    def _mutant(self, request: dict) -> dict:
        from harness.mutation import inmemory
        from harness.mutation.inmemory import Reach

        filename = request["file"]
        original = self.originals.get(filename) or Path(filename).read_text(encoding="utf-8")
        result = {"tests": self.tests, "errors": [], "engine": "", "engine_note": ""}
        try:
            plan = inmemory.plan(filename, original, request["patched"], request["first"], request["last"],
                                 self.ran_before_fork, self.live)
        except SyntaxError as exc:
            result["errors"] = [f"the patched {Path(filename).name} does not compile: {type(exc).__name__}: {exc}"]
            return result
        Reach.reset()
        forced = request.get("mode")
        target = inmemory.module_name(filename, self.root)
        loaded = filename in self.namespaces
        if loaded and not self._in_code(filename):
            # Values computed from it while the contracts were collected would not see an in-memory patch.
            raise _Fallback(f"{Path(filename).name} is outside the code under test")
        if forced != "reimport" and not plan.not_swappable and loaded:
            for namespace in self.namespaces[filename]:
                namespace[inmemory.MARKER] = Reach.marker
            inmemory.apply_swaps(plan, self.live)
            result["engine"] = inmemory.SWAP
            if plan.at_import:
                Reach.hits.add(inmemory.EVERYONE)
        else:
            why = plan.not_swappable or ("asked for" if forced else f"{Path(filename).name} was not imported")
            if target is None:
                raise _Fallback(f"{why}; {Path(filename).name} is not an importable module")
            if loaded and self.reimport_blockers:
                raise _Fallback(f"{why}; names captured outside the code under test: "
                                f"{', '.join(self.reimport_blockers[:3])}")
            result["engine"] = inmemory.REIMPORT
            result["engine_note"] = why
            try:
                inmemory.reimport(self.code_modules if loaded else [], target, plan.marked, filename)
                if loaded:
                    self._reload_adapter()
            except Exception as exc:  # the patched module raised while importing
                result["errors"] = [f"the patched code raised while importing: {type(exc).__name__}: {exc}\n"
                                    + traceback.format_exc()[-1500:]]
                return result
        inmemory.show_patched_source(filename, request["patched"])
        everyone = inmemory.EVERYONE in Reach.hits
        self._run(self._items(request["contracts"], request.get("durations")), True, len(request["contracts"]))
        if everyone:
            for entry in self.tests.values():
                entry["reached"] = True
        return result

    def _reload_adapter(self) -> None:
        plugin = sys.modules["harness.plugin"]
        config = self.session.config
        plugin.run_state(config).forget_adapter()
        plugin.adapter_under_test(config)

    # ------------------------------------------------------------ outcomes, in the fork

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item, call):
        report = yield
        entry = self.tests.setdefault(item.nodeid, {"outcome": "passed", "message": ""})
        if getattr(report, "harness_not_applicable", False):
            entry["outcome"] = "not applicable"
        elif report.failed and entry["outcome"] == "passed":
            excinfo = call.excinfo
            exc = excinfo.value if excinfo else None
            kind = _KILL_KIND.kind(exc, self._in_code) if report.when == "call" and exc is not None else "error"
            entry["outcome"] = kind
            entry["message"] = _failure_text(excinfo, _KILL_KIND.origin(exc, self._in_code, self.root) if kind == "crash" else "") if excinfo \
                else str(report.longrepr)[-4000:]
            if kind == "error":
                entry["message"] = f"{report.when}: {entry['message']}"
        return report


def _skip_shrinking(items) -> None:
    """A mutant run needs a failing example, not the smallest one: Hypothesis stops at the first it finds.

    The search itself is unchanged (the ``ci`` profile is derandomized), so the
    same examples run and the same failure is found; only its minimisation is
    skipped, which is most of what a failing property test costs.
    """
    from hypothesis import Phase, settings

    for item in items:
        function = getattr(item, "obj", None)
        current = getattr(function, "_hypothesis_internal_use_settings", None)
        if current is not None and Phase.shrink in current.phases:
            function._hypothesis_internal_use_settings = settings(
                current, phases=[p for p in current.phases if p not in (Phase.shrink, Phase.explain)]
            )


def _failure_text(excinfo, origin: str) -> str:
    exc = excinfo.value
    text = excinfo.exconly()
    if origin:
        text += f"\n(raised out of the code under test at {origin})"
    notes = getattr(exc, "__notes__", None)
    if notes:
        text += "\n" + "\n".join(str(n) for n in notes)
    return text[:4000]


class _NotReady(Exception):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class _Fallback(Exception):
    """Neither in-memory way holds: the parent runs this mutant in a copy of the project."""


def main() -> None:
    spec = json.loads(Path(sys.argv[1]).read_text())
    request_fd, reply_fd = (int(n) for n in os.environ["HARNESS_WORKER_FDS"].split(","))
    sys.path[0] = spec["root"]  # the copy, not the folder this script sits in
    plugin = WorkerPlugin(spec, request_fd, reply_fd)
    pytest.main(spec["pytest_args"], plugins=[plugin])
    # pytest returned without serving: a usage error before collection, or the loop was skipped.
    sys.stdout.flush()
    sys.stderr.flush()
    _send(reply_fd, {"ready": False, "kind": "usage", "error": "pytest ended before the worker was ready",
                     "output": True})


if __name__ == "__main__":
    main()
