"""An agent that leaves a daemon behind: a grandchild in a session of its own, holding the agent's stdout.

    python daemon_holds_stdout.py PIDFILE {base_url}

The daemon writes its pid to PIDFILE and sleeps with the agent's stdout open,
so whoever reads that pipe to its end waits for the daemon, not the agent.
"""

import os
import sys
import time

if os.fork() == 0:
    os.setsid()  # out of the agent's process group: killing the group does not reach it
    with open(sys.argv[1], "w", encoding="utf-8") as pidfile:
        pidfile.write(str(os.getpid()))
    time.sleep(600)
    os._exit(0)
print("started a daemon; the agent itself is done", flush=True)
