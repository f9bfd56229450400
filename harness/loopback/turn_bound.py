"""The bound on the requests one run of the agent sends: past it the run is stopped as looping.

The provider calls the bound with each exchange once answered (its
listener); the probe opens it for each run (:meth:`TurnBound.begin`) and
hands it the run's process once started (:meth:`TurnBound.started`). The
request that goes past the bound kills the run's process group, so a looping
agent costs the bound's requests and no more, however fast or slow it is.
"""

from __future__ import annotations

import subprocess
import threading

from harness.loopback.exchanges import Exchange
from harness.processes import kill_group


class TurnBound:
    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._lock = threading.Lock()  # the provider's thread counts, the probe's opens and reads
        self._count = 0
        self._pid: int | None = None
        self.tripped = False

    def begin(self) -> None:
        """A new run starts: nothing counted, no process yet."""
        with self._lock:
            self._count, self._pid, self.tripped = 0, None, False

    def started(self, proc: subprocess.Popen) -> None:
        """The run's process, in a group of its own; stopped at once if the bound tripped before it was known."""
        with self._lock:
            self._pid = proc.pid
            if self.tripped:
                kill_group(proc.pid)

    def __call__(self, exchange: Exchange) -> None:
        with self._lock:
            self._count += 1
            if self._count > self.limit and not self.tripped:
                self.tripped = True
                if self._pid is not None:
                    kill_group(self._pid)

    def describe(self) -> str:
        return f"sent more than {self.limit} requests in one turn (--max-requests): stopped as looping"
