"""An agent that prints far more than anyone should keep: SIZE megabytes to stdout, then exits 0.

    python big_output.py SIZE {base_url}
"""

import sys

line = b"x" * 1023 + b"\n"
for _ in range(int(sys.argv[1]) * 1024):
    sys.stdout.buffer.write(line)
