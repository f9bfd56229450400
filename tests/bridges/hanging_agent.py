"""An agent program for `harness probe` that starts a process of its own and hangs; it ignores SIGTERM.

The first argument is a file where it writes its own pid and its child's, one
a line, once both run: a test can then check that neither outlives the probe.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

signal.signal(signal.SIGTERM, signal.SIG_IGN)  # only a kill of its whole group stops it
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
pids = Path(sys.argv[1])
pids.with_suffix(".tmp").write_text(f"{os.getpid()}\n{child.pid}\n")
pids.with_suffix(".tmp").rename(pids)  # whole or absent
time.sleep(3600)
