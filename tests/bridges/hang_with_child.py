"""A bridge adapter that, on one request, starts a process of its own and hangs; it ignores SIGTERM.

The first argument is a file where it writes its own pid and its child's, one
a line, once both run: a test can then check that neither outlives the harness.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from reference_bridge import is_twelve_calls_stream, serve

signal.signal(signal.SIGTERM, signal.SIG_IGN)  # only a kill of its whole group stops it


def fault(method: str, params: dict) -> None:
    if is_twelve_calls_stream(method, params):
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        pids = Path(sys.argv[1])
        pids.with_suffix(".tmp").write_text(f"{os.getpid()}\n{child.pid}\n")
        pids.with_suffix(".tmp").rename(pids)  # whole or absent
        time.sleep(3600)


serve(fault)
