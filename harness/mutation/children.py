"""Child processes in their own sessions, with a time budget and a registry.

Each child gets its own process group, so a hung run is stopped with
everything it started; every running group is registered so an interrupted
run can stop them all before it exits.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from pathlib import Path


class Children:
    """The process groups in flight, so an interrupt can stop every one."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._groups: set[int] = set()
        self.stopping = False

    def start(self, args: list[str], **kwargs) -> subprocess.Popen:
        with self._lock:
            if self.stopping:
                raise KeyboardInterrupt
            proc = subprocess.Popen(args, start_new_session=True, **kwargs)
            self._groups.add(proc.pid)
            return proc

    def adopt(self, pid: int) -> None:
        with self._lock:
            self._groups.add(pid)
            if self.stopping:
                kill_group(pid)

    def done(self, pid: int) -> None:
        with self._lock:
            self._groups.discard(pid)

    def stop_all(self) -> None:
        with self._lock:
            self.stopping = True
            for pid in self._groups:
                kill_group(pid)


def kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_child(children: Children, args: list[str], cwd: Path, env: dict, timeout: float | None) -> tuple[bool, str, float]:
    """Run to completion or budget; returns (timed_out, output tail, wall seconds)."""
    started = time.perf_counter()
    proc = children.start(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        try:
            output, _ = proc.communicate(timeout=timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            kill_group(proc.pid)
            output, _ = proc.communicate()
            timed_out = True
        except BaseException:
            # Interrupted: the child sits in its own session and never saw the signal.
            kill_group(proc.pid)
            proc.wait()
            raise
    finally:
        children.done(proc.pid)
    return timed_out, output.decode("utf-8", "replace")[-4000:], time.perf_counter() - started
