"""Inside a warm worker: the ready handshake, then one fork per job (the harness's side: :mod:`warm_pool`).

Both ways of executing a patched project keep a warm worker: the in-memory
executor's (:mod:`in_memory_worker`: pytest collected once, each mutant
patched in a fork) and the copy executor's (:mod:`copy_worker`: pytest and its
plugins imported once, each copy's run in a fork). This module is what they
share, and the script both are started as::

    python warm_fork.py JOB [ARG...]

``JOB`` names the module of this folder that does the work; its ``main(fork,
args)`` prepares, says :meth:`WarmFork.ready` (or :meth:`WarmFork.not_ready`)
and hands :meth:`WarmFork.serve` the function that runs one job in a fork.

The worker must not import ``harness``: the project under test may be a copy
of it, which each fork imports (or has imported) from the copy. So the script
reaches its own modules through a package of another name, ``_harness_warm``,
laid over the ``harness`` folder without running ``harness/__init__.py``; they
import each other relatively, and so work under either name.

Protocol, JSON lines over two pipes whose numbers are in ``HARNESS_WORKER_FDS``
(``request,reply``; pytest owns file descriptors 0 to 2). Each fork runs in
a folder of its own under ``HARNESS_WORKER_SCRATCH``, its output in the log there:

- the worker says ``{"ready": true, "pid": n, ...}`` once, or
  ``{"ready": false, "kind": "usage"|"collection", "error": text}``;
- each request ``{"label": ..., ...}`` is answered with ``{"pid": n}`` when its
  fork runs (in a session of its own, so the harness can kill it with
  everything it started) and ``{"exit": code, "result": {...}|null, "tail":
  text}`` once the fork has sent its result or died. The result comes from
  the fork over a pipe of its own; a fork that died before sending one is
  reported with its exit status and the tail of what it printed.

End of the request pipe ends the worker.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path

TAIL = 4000  # characters of a fork's output kept for the report
ALIAS = "_harness_warm"  # the name the worker knows the harness folder by (see the module docstring)
FDS_ENV = "HARNESS_WORKER_FDS"
SCRATCH_ENV = "HARNESS_WORKER_SCRATCH"  # the folder each fork gets a folder of its own in

Job = Callable[[dict], dict]  # a request -> its result, run in the fork


def send(fd: int, message: dict) -> None:
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


class WarmFork:
    """The worker's end of the protocol: its pipes, and the forks that answered and are still ending."""

    def __init__(self, request_fd: int, reply_fd: int, scratch_root: str | None) -> None:
        self.request_fd = request_fd
        self.reply_fd = reply_fd
        self.scratch_root = scratch_root  # each fork runs in a folder of its own made here (None: the temp dir)
        self._ending: list[tuple[int, Path]] = []

    def ready(self, **details) -> None:
        send(self.reply_fd, {"ready": True, "pid": os.getpid(), **details})

    def not_ready(self, kind: str, error: str, **details) -> None:
        send(self.reply_fd, {"ready": False, "kind": kind, "error": error, **details})

    def serve(self, job: Job) -> None:
        """Run ``job`` in a fork for every request until the request pipe ends; then reap every fork."""
        for request in _lines(self.request_fd):
            self._reap(block=False)
            self._fork(job, request)
        self._reap(block=True)

    def _reap(self, block: bool) -> None:
        """Reap forks that answered and are ending; remove their folders."""
        still = []
        for pid, scratch in self._ending:
            try:
                done, _ = os.waitpid(pid, 0 if block else os.WNOHANG)
            except ChildProcessError:
                done = pid
            if done:
                shutil.rmtree(scratch, ignore_errors=True)
            else:
                still.append((pid, scratch))
        self._ending = still

    def _fork(self, job: Job, request: dict) -> None:
        scratch = Path(tempfile.mkdtemp(prefix=f"harness-{request['label']}-", dir=self.scratch_root))
        log = scratch / "output.log"
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            self._child(job, request, scratch, log, write_end)  # never returns
        os.close(write_end)
        send(self.reply_fd, {"pid": pid})
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
            send(self.reply_fd, {"exit": os.waitstatus_to_exitcode(status), "result": None, "tail": tail})
            return
        send(self.reply_fd, {"exit": 0, "result": result, "tail": read_tail(log)})
        # Its teardown overlaps the next request: reaped once it has ended, and at the latest when the worker ends.
        self._ending.append((pid, scratch))

    def _child(self, job: Job, request: dict, scratch: Path, log: Path, result_fd: int) -> None:
        try:
            os.setsid()
            os.close(self.request_fd)
            os.close(self.reply_fd)
            os.chdir(scratch)
            out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(out, 1)
            os.dup2(out, 2)
            os.close(out)
            data = json.dumps(job(request)).encode()
            while data:
                data = data[os.write(result_fd, data):]
            os.close(result_fd)  # the worker answers now; tearing this process down is off the clock
        except BaseException:
            traceback.print_exc()
            sys.stderr.flush()
            os._exit(70)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def _alias_package() -> None:
    """``_harness_warm``: the ``harness`` folder as a package whose ``__init__`` is never run."""
    spec = importlib.machinery.ModuleSpec(ALIAS, None, is_package=True)
    package = importlib.util.module_from_spec(spec)
    package.__path__ = [str(Path(__file__).resolve().parents[1])]
    sys.modules[ALIAS] = package


def main() -> None:
    # Hypothesis suggests an explicit-example patch for a failing test by importing libcst; a fork that
    # imports it anew costs more than most contracts. Blocked before any fork, the suggestion is skipped
    # (a failure is reported all the same) and no fork pays for the import.
    sys.modules["hypothesis.extra._patching"] = None
    _alias_package()
    job, *args = sys.argv[1:]
    request_fd, reply_fd = (int(n) for n in os.environ[FDS_ENV].split(","))
    module = importlib.import_module(f"{ALIAS}.mutation.{job}")
    module.main(WarmFork(request_fd, reply_fd, os.environ.get(SCRATCH_ENV)), args)


if __name__ == "__main__":
    main()
