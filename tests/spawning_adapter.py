"""An in-process adapter that starts a helper process and never stops it (a local model server, a sidecar).

The helper's pid is written to the file named by $SPAWNING_ADAPTER_PIDS.
"""

import os
import subprocess
import sys

from sample_adapters import StreamOnly

_helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
with open(os.environ["SPAWNING_ADAPTER_PIDS"], "w") as pids:
    pids.write(str(_helper.pid))


class Spawning(StreamOnly):
    name = "spawning sample"


adapter = Spawning()
