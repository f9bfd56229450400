"""Warm processes for the probe runs: see :mod:`zygote` for the other side.

Each job slot borrows one zygote; a zygote serves one request at a time and
a dead one is simply replaced. The forked probe runs in its own session, is
registered with :class:`Children` while it runs, and is killed with its whole
group when it runs past its budget or the run is interrupted.
"""

from __future__ import annotations

import json
import os
import queue
import select
import subprocess
import sys
import time
from pathlib import Path

from harness.mutation import zygote
from harness.processes import Children, exit_text, kill_group


class ZygoteDied(Exception):
    pass


class Zygote:
    def __init__(self, children: Children, env: dict) -> None:
        self.children = children
        self.proc = children.start(
            [sys.executable, zygote.__file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
        )
        self._buffer = b""

    def _read(self, deadline: float | None) -> dict | None:
        """The next reply, or None when the deadline passes first."""
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                try:
                    code = self.proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    code = None
                raise ZygoteDied(f"the warm process (pid {self.proc.pid}) died ({exit_text(code)})")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return json.loads(line)

    def run(self, spec: Path, cwd: Path, log: Path, timeout: float | None) -> tuple[bool, str]:
        """Run one probe: (whether it ran past ``timeout`` and was killed, how it ended)."""
        request = {"spec": str(spec), "cwd": str(cwd), "log": str(log)}
        self.proc.stdin.write(json.dumps(request).encode() + b"\n")
        self.proc.stdin.flush()
        pid = self._read(None)["pid"]
        self.children.adopt(pid)
        try:
            deadline = None if timeout is None else time.monotonic() + timeout
            message = self._read(deadline)
            if message is not None:
                return False, exit_text(message.get("exit"))
            kill_group(pid)
            message = self._read(None)
            return True, exit_text(message.get("exit"))
        except BaseException:
            kill_group(pid)
            raise
        finally:
            self.children.done(pid)

    def close(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            pass
        kill_group(self.proc.pid)
        self.proc.wait()
        self.children.done(self.proc.pid)


class ZygotePool:
    def __init__(self, children: Children, env: dict) -> None:
        self.children = children
        self.env = env
        self._idle: queue.SimpleQueue[Zygote] = queue.SimpleQueue()
        self._all: list[Zygote] = []

    def run(self, spec: Path, cwd: Path, log: Path, timeout: float | None) -> tuple[bool, str]:
        try:
            warm = self._idle.get_nowait()
        except queue.Empty:
            warm = Zygote(self.children, self.env)
            self._all.append(warm)
        try:
            outcome = warm.run(spec, cwd, log, timeout)
        except (ZygoteDied, OSError) as exc:
            self._all.remove(warm)
            kill_group(warm.proc.pid)
            self.children.done(warm.proc.pid)
            raise exc if isinstance(exc, ZygoteDied) else ZygoteDied(f"the warm process failed: {exc}") from exc
        self._idle.put(warm)
        return outcome

    def close(self) -> None:
        for warm in self._all:
            if warm.proc.poll() is None:
                warm.close()
        self._all.clear()
