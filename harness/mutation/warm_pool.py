"""Warm workers seen from the harness: start, wait until ready, ask for a job, time out, replace.

Both executors keep a pool of them (the other side, and the protocol, is
:mod:`warm_fork`): the in-memory executor's workers have collected the
contracts (``in_memory_worker``), the copy executor's have imported pytest
and its plugins (``copy_worker``). Every worker and every fork it makes is
registered with :class:`~harness.processes.Children`, the one owner of the
run's processes: a fork that runs past its budget is killed with its whole
process group, a worker that dies is replaced on the next request, and an
interrupted run stops them all.
"""

from __future__ import annotations

import json
import os
import queue
import select
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from harness.clip import clip_repr
from harness.mutation import warm_fork
from harness.mutation.warm_fork import read_tail
from harness.processes import Children, exit_text, kill_group

READY_BUDGET = 600.0  # seconds a worker may take to import and collect the contracts


class WorkerDied(Exception):
    """The worker process itself ended (not one of its forks); the message has its exit status and output."""


class WorkerNotReady(Exception):
    """The worker could not collect the contracts or load the adapter."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind  # "usage" or "collection"


@dataclass
class Reply:
    timed_out: bool
    exit: int | None = None  # the fork's exit status (negative: the signal that ended it)
    result: dict | None = None
    tail: str = ""  # the end of what the fork printed
    wall: float = 0.0
    pid: int = 0


class WarmWorker:
    """One warm worker process running the ``job`` module of :mod:`warm_fork`; serves one request at a time."""

    def __init__(self, children: Children, job: str, args: list[str], cwd: Path, env: dict, log: Path) -> None:
        self.children = children
        self.log = log
        request_read, self._request = os.pipe()
        self._reply, reply_write = os.pipe()
        try:
            with open(log, "ab") as out:
                self.proc = children.start(
                    [sys.executable, warm_fork.__file__, job, *args],
                    cwd=cwd,
                    env={**env, warm_fork.FDS_ENV: f"{request_read},{reply_write}",
                         warm_fork.SCRATCH_ENV: str(log.parent)},
                    pass_fds=(request_read, reply_write),
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
        except BaseException:
            for fd in (self._request, self._reply):
                os.close(fd)
            raise
        finally:
            os.close(request_read)
            os.close(reply_write)
        self._buffer = b""
        self.ready: dict | None = None
        self.closed = False

    @property
    def pid(self) -> int:
        return self.proc.pid

    def _died(self, what: str) -> WorkerDied:
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        self.close()
        tail = read_tail(self.log).strip()
        return WorkerDied(f"the warm worker (pid {self.pid}) died {what} ({exit_text(code)})"
                          + (f"; its output ends:\n{tail}" if tail else ""))

    def _read(self, deadline: float | None) -> dict | None:
        """The next message, or None when the deadline passes first."""
        while b"\n" not in self._buffer:
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                return None
            ready, _, _ = select.select([self._reply], [], [], remaining)
            if not ready:
                return None
            chunk = os.read(self._reply, 1 << 20)
            if not chunk:
                raise self._died("while it was busy")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            return json.loads(line)
        except ValueError:
            raise self._died(f"after sending a malformed line {clip_repr(line, 200)}") from None

    def wait_ready(self, budget: float = READY_BUDGET) -> dict:
        """The worker's ready message (waited for once); :class:`WorkerNotReady` says why it is not."""
        if self.ready is None:
            message = self._read(time.monotonic() + budget)
            if message is None:
                self.kill()
                raise WorkerNotReady("collection", f"the warm worker did not collect the contracts within {budget:.0f}s")
            if not message.get("ready"):
                self.close()
                error = message.get("error", "")
                if message.get("output"):  # pytest stopped before the worker was ready: what it printed says why
                    lines = [line for line in read_tail(self.log).splitlines() if line.strip()]
                    errors = [line.removeprefix("ERROR: ") for line in lines if line.startswith("ERROR:")]
                    error = "\n".join(errors or lines[-15:]) or error
                raise WorkerNotReady(message.get("kind", "collection"), error)
            self.ready = message
        return self.ready

    def ask(self, request: dict, budget: float | None) -> Reply:
        """Run one request in a fork; kill its process group when it runs past ``budget``."""
        self.wait_ready()
        started = time.perf_counter()
        data = (json.dumps(request) + "\n").encode()
        try:
            while data:
                data = data[os.write(self._request, data):]
        except OSError:
            raise self._died("before it took a request") from None
        message = self._read(None)
        pid = message["pid"]
        self.children.adopt(pid)
        try:
            deadline = None if budget is None else time.monotonic() + budget
            message = self._read(deadline)
            timed_out = message is None
            if timed_out:
                kill_group(pid)
                message = self._read(None)
        except BaseException:
            kill_group(pid)  # its worker is gone or the run was interrupted: the fork goes too
            raise
        finally:
            self.children.done(pid)
        return Reply(
            timed_out=timed_out,
            exit=message.get("exit"),
            result=message.get("result"),
            tail=message.get("tail", ""),
            wall=time.perf_counter() - started,
            pid=pid,
        )

    def kill(self) -> None:
        kill_group(self.pid)
        self.close()

    def close(self) -> None:
        """End the worker: the end of its request pipe tells it to exit; a stuck one is killed."""
        if self.closed:
            return
        self.closed = True
        for fd in (self._request, self._reply):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            kill_group(self.pid)
            self.proc.wait()
        kill_group(self.pid)  # anything it left in its group
        self.children.done(self.pid)


@dataclass
class WorkerPool:
    """Up to ``size`` warm workers of one kind; a dead worker is replaced on the next request.

    ``run_dir`` holds each worker's log and the folders its forks run in.
    """

    children: Children
    job: str  # the worker-side module: "in_memory_worker" or "copy_worker"
    args: list[str]
    cwd: Path
    env: dict
    run_dir: Path
    size: int
    _idle: queue.SimpleQueue = field(default_factory=queue.SimpleQueue)
    _all: list[WarmWorker] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _started: int = 0

    def start(self) -> WarmWorker:
        with self._lock:
            if self.children.stopping:
                raise KeyboardInterrupt
            self._started += 1
            log = self.run_dir / f"worker-{self._started}.log"
            worker = WarmWorker(self.children, self.job, self.args, self.cwd, self.env, log)
            self._all.append(worker)
            return worker

    def start_all(self) -> list[WarmWorker]:
        """Start every worker at once (they import and collect in parallel); wait until all are ready."""
        workers = [self.start() for _ in range(self.size)]
        for worker in workers:
            worker.wait_ready()
        for worker in workers:
            self._idle.put(worker)
        return workers

    def ask(self, request: dict, budget: float | None) -> Reply:
        """One request on an idle worker (a new one if none is); a worker that dies or fails to start is discarded."""
        worker = self._borrow()
        try:
            reply = worker.ask(request, budget)
        except (WorkerDied, WorkerNotReady):
            self._discard(worker)
            raise
        if not worker.closed:
            self._idle.put(worker)
        return reply

    def _borrow(self) -> WarmWorker:
        while True:
            try:
                worker = self._idle.get_nowait()
            except queue.Empty:
                return self.start()
            if not worker.closed:
                return worker

    def _discard(self, worker: WarmWorker) -> None:
        worker.kill()
        with self._lock:
            if worker in self._all:
                self._all.remove(worker)

    def close(self) -> None:
        with self._lock:
            workers, self._all = self._all, []
        for worker in workers:
            worker.close()
