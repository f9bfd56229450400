"""The adapter's child process: its stdin, its stdout as a queue of lines, its stderr kept aside.

A writer thread feeds stdin and two reader threads drain stdout and stderr, so
neither side ever blocks on a full pipe: an adapter that stops reading cannot
stall the harness, a chatty stderr never blocks the adapter, and a wait for a
reply can always time out.

The process belongs to the run's owner of child processes
(:func:`harness.processes.current`, the ``with Children()`` around ``harness
check`` or a mutation run): an interrupted or stopped run kills its whole
process group with everything else it started. Outside any such run (a plain
pytest session, which owns its own signals) a private owner stands in, and
pytest's own shutdown stops the adapter.
"""

from __future__ import annotations

import queue
import shlex
import subprocess
import threading
from dataclasses import dataclass

from harness.processes import Children, current, kill_group

_STDERR_KEPT = 64 * 1024  # characters of stderr kept between two takes (the newest)
MAX_LINE = 8 * 1024 * 1024  # bytes of one stdout line; a longer one is dropped unread, so memory stays bounded
# Seconds an adapter gets to exit after its stdin closes. The wait ends when it exits (an adapter writing its
# coverage file as it ends, as Node does, needs what its machine gives it); only one that ignores the cue waits
# this long, so a loaded machine never turns an unwritten coverage file into an "invalid" verdict.
_EXIT_GRACE = 30.0


@dataclass(frozen=True)
class Line:
    """A line the adapter wrote to stdout (without its line end)."""

    data: bytes


@dataclass(frozen=True)
class Oversized:
    """The adapter wrote a line longer than :data:`MAX_LINE`; it was dropped, only its size is known."""

    size: int


@dataclass(frozen=True)
class Closed:
    """The adapter closed its stdout: it exited, or is about to."""


@dataclass(frozen=True)
class Answered:
    """The harness finished answering one of the adapter's requests (posted by the answering thread)."""


Event = Line | Oversized | Closed | Answered


class AdapterProcess:
    """One running instance of the adapter command."""

    def __init__(self, command: str, owner: Children | None = None) -> None:
        self.command = command
        self._owner = owner or current() or Children(handle_signals=False)
        self.events: queue.Queue[Event] = queue.Queue()
        self._stderr: list[str] = []
        self._stderr_size = 0
        self._stderr_lock = threading.Lock()
        self._outbox: queue.Queue[bytes | None] = queue.Queue()  # None: close stdin
        # In its own session (the owner starts every child so), so stopping it also stops whatever it
        # started (a shell, npx, ...).
        self._popen = self._owner.start(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self._writer = _start(self._write_stdin)
        self._stdout_reader = _start(self._read_stdout)
        self._stderr_reader = _start(self._read_stderr)

    @property
    def pid(self) -> int:
        return self._popen.pid

    def send(self, line: bytes) -> None:
        """Queue one line for the adapter's stdin; if the adapter is gone, its closed stdout tells."""
        self._outbox.put(line)

    def exit_code(self, wait: float = 0.0) -> int | None:
        """The exit code, after waiting up to ``wait`` seconds; None while it runs."""
        try:
            return self._popen.wait(timeout=wait) if wait else self._popen.poll()
        except subprocess.TimeoutExpired:
            return None

    def stderr_text(self, settle: float = 0.0) -> str:
        """The stderr not taken yet, without taking it; ``settle``: wait that long for the stream to end."""
        if settle:
            self._stderr_reader.join(settle)
        with self._stderr_lock:
            return "".join(self._stderr)

    def take_stderr(self) -> str:
        """The stderr written since the last take."""
        with self._stderr_lock:
            text = "".join(self._stderr)
            self._stderr.clear()
            self._stderr_size = 0
        return text

    def stop(self) -> None:
        """Close stdin (the adapter's cue to exit), then kill it if it does not."""
        self._outbox.put(None)
        self.exit_code(wait=_EXIT_GRACE)
        self.kill()  # still running, or gone and something it started is left in its group

    def kill(self) -> None:
        # The whole group, even when the adapter itself has exited: what it started may still run.
        kill_group(self._popen.pid)
        self._popen.wait()
        self._owner.done(self._popen.pid)
        self._outbox.put(None)
        # Let the readers take what the pipes still hold before closing them.
        self._stdout_reader.join(1.0)
        self._stderr_reader.join(1.0)
        for stream in (self._popen.stdout, self._popen.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def _write_stdin(self) -> None:
        assert self._popen.stdin is not None
        try:
            while (line := self._outbox.get()) is not None:
                self._popen.stdin.write(line)
                self._popen.stdin.flush()
        except OSError:
            pass  # the adapter is gone: the stdout reader reports how it ended
        finally:
            try:
                self._popen.stdin.close()
            except OSError:
                pass

    def _read_stdout(self) -> None:
        stdout = self._popen.stdout
        assert stdout is not None
        try:
            while raw := stdout.readline(MAX_LINE + 1):
                if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
                    size = len(raw)
                    del raw
                    while (rest := stdout.readline(1 << 20)) and not rest.endswith(b"\n"):
                        size += len(rest)
                    self.events.put(Oversized(size + len(rest)))
                    continue
                self.events.put(Line(raw.rstrip(b"\r\n")))
        except (OSError, ValueError):
            pass  # the pipe was closed under us by kill()
        self.events.put(Closed())

    def _read_stderr(self) -> None:
        assert self._popen.stderr is not None
        try:
            for raw in self._popen.stderr:
                self._keep_stderr(raw.decode("utf-8", "replace"))
        except (OSError, ValueError):
            pass

    def _keep_stderr(self, text: str) -> None:
        with self._stderr_lock:
            self._stderr.append(text)
            self._stderr_size += len(text)
            while self._stderr_size > _STDERR_KEPT and len(self._stderr) > 1:
                self._stderr_size -= len(self._stderr.pop(0))


def _start(target) -> threading.Thread:
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread
