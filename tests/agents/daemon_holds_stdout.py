"""An agent that leaves a daemon behind: a grandchild in a session of its own, holding the agent's stdout.

    python daemon_holds_stdout.py PIDFILE {base_url}

PIDFILE gets two lines: the agent's pid (its process group's id, as the probe
starts it) and the daemon's. The daemon sleeps with the agent's stdout open,
so whoever reads that pipe to its end waits for the daemon, not the agent.
"""

import os
import sys
import time

agent = os.getpid()
if os.fork() == 0:
    os.setsid()  # out of the agent's process group: killing the group does not reach it
    with open(sys.argv[1], "w", encoding="utf-8") as pidfile:
        pidfile.write(f"{agent}\n{os.getpid()}\n")
    time.sleep(600)
    os._exit(0)
print("started a daemon; the agent itself is done", flush=True)
