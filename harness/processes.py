"""The one owner of every child process a run starts: warm workers, their forks, probes, mutmut, bridge adapters.

Each child gets its own process group (its own session), so a hung run is
stopped with everything it started. :class:`Children` registers every group
in flight and is used with ``with``: inside it the first SIGINT or SIGTERM
kills every registered group at once and then raises :class:`KeyboardInterrupt`
in the main thread (so a second signal, or a clean-up that waits on a child,
cannot leave one behind), and on the way out, however the block ends, every
group still registered is killed and every started process reaped. Nothing
the run started outlives it. Should the block not have been left :data:`GRACE`
seconds after the signal (its main thread stuck where the exception cannot
reach), the process is ended there, with the signal's exit code.

Code that starts a child far from the run that owns it (a bridge adapter,
started by a contract inside pytest) finds that owner with :func:`current`.
"""

from __future__ import annotations

import os
import posix
import selectors
import sys
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

_SIGNALS = (signal.SIGINT, signal.SIGTERM)
GRACE = 8.0  # seconds a run may take to wind down after SIGINT or SIGTERM before it is ended outright
_exit_now = posix._exit  # not os._exit, which the adapter guard replaces for adapter threads
_signal_seen: list[int] = []  # the first SIGINT or SIGTERM a Children block handled


def signal_seen() -> int | None:
    """The signal (SIGINT or SIGTERM) that cut this process's run short, if one did."""
    return _signal_seen[0] if _signal_seen else None


def exit_on_signals() -> None:
    """SIGINT or SIGTERM stops every registered group and ends this process at once (code 128 + signal).

    For a process whose account of the run is kept by another (``harness check``'s contracts' process):
    nothing is raised into whatever it was doing.
    """
    def on_signal(signum, frame) -> None:
        for owner in list(_active):
            owner.stop_all()
        _exit_now(128 + signum)

    for signum in _SIGNALS:
        signal.signal(signum, on_signal)


def _end_after_grace(signum: int) -> None:
    print(f"harness: still running {GRACE:g} s after {signal.Signals(signum).name}; ended", file=sys.stderr,
          flush=True)
    _exit_now(128 + signum)


def exit_text(code: int | None) -> str:
    """A process's end in words: ``exit status 1``, ``killed by signal SIGKILL``."""
    if code is None:
        return "no exit status"
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


_active: list[Children] = []  # the ``with Children()`` blocks this process is inside, innermost last


def current() -> Children | None:
    """The owner of the innermost ``with Children()`` block this process is in, if any."""
    return _active[-1] if _active else None


class Children:
    """The process groups in flight, so an interrupt or the end of the run can stop every one."""

    def __init__(self, handle_signals: bool = True) -> None:
        self.handle_signals = handle_signals  # False: the caller owns SIGINT and SIGTERM
        self._lock = threading.RLock()  # an interrupt can arrive while the main thread holds it
        self._groups: set[int] = set()
        self._procs: list[subprocess.Popen] = []
        self._saved: dict[int, object] = {}
        self._starting = False  # the main thread is between starting a child and registering its group
        self._signalled = False  # a signal came while it was: start() raises once the group is registered
        self.stopping = False
        self._watchdog: threading.Timer | None = None  # ends the process should the block not be left in time

    def __enter__(self) -> Children:
        if self.handle_signals and threading.current_thread() is threading.main_thread():
            for signum in _SIGNALS:
                self._saved[signum] = signal.signal(signum, self._interrupt)
        _active.append(self)
        return self

    def __exit__(self, *exc_info) -> None:
        if self in _active:
            _active.remove(self)
        self.stop_all()
        for proc in self._procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        for signum, handler in self._saved.items():
            signal.signal(signum, handler)
        self._saved.clear()
        if self._watchdog is not None:
            self._watchdog.cancel()

    def _interrupt(self, signum, frame) -> None:
        if not _signal_seen:
            _signal_seen.append(signum)
        if self._watchdog is None:
            self._watchdog = threading.Timer(GRACE, _end_after_grace, (signum,))
            self._watchdog.daemon = True
            self._watchdog.start()
        if self._starting:
            self._signalled = True  # raising now would lose a child that is started but not yet registered
            return
        self.stop_all()
        raise KeyboardInterrupt

    def start(self, args: list[str], **kwargs) -> subprocess.Popen:
        main = threading.current_thread() is threading.main_thread()
        with self._lock:
            if self.stopping:
                raise KeyboardInterrupt
            self._starting = main
            try:
                proc = subprocess.Popen(args, start_new_session=True, **kwargs)
                self._groups.add(proc.pid)
                self._procs = [p for p in self._procs if p.returncode is None] + [proc]
            finally:
                self._starting = False
            if self._signalled:
                self.stop_all()
                raise KeyboardInterrupt
            return proc

    def adopt(self, pid: int) -> None:
        """Register a group someone else started (a worker's fork)."""
        with self._lock:
            self._groups.add(pid)
            if self.stopping:
                kill_group(pid)

    def done(self, pid: int) -> None:
        with self._lock:
            self._groups.discard(pid)

    def running(self) -> set[int]:
        with self._lock:
            return set(self._groups)

    def stop_all(self) -> None:
        if self._saved and threading.current_thread() is threading.main_thread():
            for signum in _SIGNALS:  # a second Ctrl-C must not cut the clean-up short
                signal.signal(signum, signal.SIG_IGN)
        with self._lock:
            self.stopping = True
            for pid in self._groups:
                kill_group(pid)


def kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


@dataclass
class Tail:
    """The last ``limit`` bytes a child wrote to one pipe, and how many bytes came before them."""

    limit: int
    data: bytearray = field(default_factory=bytearray)
    dropped: int = 0

    def add(self, chunk: bytes) -> None:
        self.data += chunk
        over = len(self.data) - self.limit
        if over > 0:
            del self.data[:over]
            self.dropped += over

    def text(self) -> str:
        kept = self.data.decode("utf-8", "replace")
        return f"[... {self.dropped} earlier bytes not kept ...]\n{kept}" if self.dropped else kept


_READ = 64 * 1024


def _drain(proc: subprocess.Popen, timeout: float | None, limit: int) -> tuple[Tail, Tail, bool]:
    """Read the child's pipes into bounded tails until both close and it exits, or until ``timeout``.

    The deadline covers the pipes too: a daemon the child left behind (even in
    a session of its own, out of reach of the group kill) that holds a pipe
    open cannot keep the run waiting past it.
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    tails = {}
    with selectors.DefaultSelector() as selector:
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                tails[stream] = Tail(limit)
                selector.register(stream, selectors.EVENT_READ)
        while selector.get_map():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            for key, _ in selector.select(left):
                chunk = os.read(key.fd, _READ)
                if chunk:
                    tails[key.fileobj].add(chunk)
                else:
                    selector.unregister(key.fileobj)
        open_pipes = bool(selector.get_map())
    for stream in tails:
        stream.close()
    timed_out = open_pipes
    if not timed_out:
        try:
            proc.wait(None if deadline is None else max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            timed_out = True
    empty = Tail(limit)
    return tails.get(proc.stdout, empty), tails.get(proc.stderr, empty), timed_out


def run_owned(
    args: list[str], timeout: float | None, children: Children | None = None, keep: int | None = None,
    started: Callable[[subprocess.Popen], None] | None = None, **popen
) -> tuple[subprocess.Popen, object, object, bool]:
    """Run ``args`` in a group of its own to its end or ``timeout``; returns (process, stdout, stderr, timed out).

    ``children``: the owner to register with; by default the innermost ``with
    Children()`` block, or a private owner outside any. The group is killed on
    the way out, with whatever the child left running in it.

    ``keep``: read the (binary) pipes as they fill and keep only each one's
    last ``keep`` bytes, returned as :class:`Tail`; the timeout then bounds
    the pipes as well as the process.

    ``started``: called with the process once it runs, by whoever may need to stop it early.
    """
    owner = children or current() or Children(handle_signals=False)
    proc = owner.start(args, **popen)
    try:
        if started is not None:
            started(proc)
        if keep is not None:
            try:
                out, err, timed_out = _drain(proc, timeout, keep)
            finally:
                kill_group(proc.pid)
                proc.wait()
            return proc, out, err, timed_out
        try:
            out, err = proc.communicate(timeout=timeout)
            return proc, out, err, False
        except subprocess.TimeoutExpired:
            kill_group(proc.pid)
            out, err = proc.communicate()
            return proc, out, err, True
        except BaseException:
            # Interrupted: the child sits in its own session and never saw the signal.
            kill_group(proc.pid)
            proc.wait()
            raise
    finally:
        kill_group(proc.pid)
        owner.done(proc.pid)


def run_child(
    children: Children, args: list[str], cwd: Path, env: dict, timeout: float | None
) -> tuple[bool, str, float, str]:
    """Run to completion or budget; returns (timed_out, output tail, wall seconds, how it ended)."""
    started = time.perf_counter()
    proc, output, _, timed_out = run_owned(
        args, timeout, children, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    status = exit_text(proc.returncode)
    return timed_out, output.decode("utf-8", "replace")[-4000:], time.perf_counter() - started, status
