"""Reused threads for guarded adapter calls: starting a thread per call was a tenth of a contract run's time.

A call is handed to an idle thread (a new one only when none is idle) and
waited for with the time limit. A thread whose call returned in time goes back
to the idle ones; one whose call did not is never reused: it is told to stop
once the call ends, and the caller abandons it (the guard keeps stopping it).
So a call stuck in a hung adapter holds only its own thread, and the next
call gets another. Only the callers, never the adapter's threads, move threads
between idle and abandoned, so a call that ends just as its limit runs out is
either waited for or abandoned, never both.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


class Stopped(BaseException):
    """Raised into an abandoned call's thread to stop it (``except Exception`` in the adapter lets it by)."""


@dataclass
class Call:
    """One call handed to a thread; ``outcome`` gets its ``value`` or ``error`` (and the guard's ``exit``)."""

    function: Callable[..., Any]
    args: tuple
    kwargs: dict
    name: str
    outcome: dict[str, Any] = field(default_factory=dict)
    done: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        try:
            self.outcome["value"] = self.function(*self.args, **self.kwargs)
        except BaseException as exc:  # judged in the caller's thread
            self.outcome["error"] = exc
        finally:
            self.done.set()


_STOP = None  # in place of a call: the thread ends


class CallThread:
    """A daemon thread running the calls put on its own queue, one at a time, until told to stop."""

    def __init__(self) -> None:
        self._calls: queue.SimpleQueue[Call | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name="adapter call", daemon=True)
        self.thread.start()

    def start(self, call: Call) -> None:
        self._calls.put(call)

    def stop(self) -> None:
        self._calls.put(_STOP)

    def _serve(self) -> None:
        try:
            while (call := self._calls.get()) is not _STOP:
                call.run()
        except Stopped:  # abandoned: the stop may arrive after its call ended
            pass


_idle: list[CallThread] = []
_lock = threading.Lock()


def run(call: Call, timeout: float | None) -> threading.Thread | None:
    """Run ``call`` in a reused thread; None once it ended, or the abandoned thread if ``timeout`` ran out first."""
    with _lock:
        worker = _idle.pop() if _idle else None
    if worker is None:
        worker = CallThread()
    worker.thread.name = call.name  # what a stack dump or a thread listing shows
    worker.start(call)
    try:
        ended = call.done.wait(timeout)  # a real Ctrl-C interrupts this wait: signals go to the main thread
    except BaseException:
        worker.stop()  # the caller gave up on the call: its thread is not handed another
        raise
    if ended:
        with _lock:
            _idle.append(worker)
        return None
    worker.stop()
    return worker.thread


def _forget_after_fork() -> None:
    # A fork has only the thread that forked: the idle threads' objects are left, the threads are not.
    global _lock
    _idle.clear()
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_after_fork)
