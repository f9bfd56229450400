"""An agent whose output holds what XML 1.0 and Markdown tables cannot: ANSI colour codes, NUL, backticks.

    python noisy.py {base_url}

It writes a coloured traceback-like tail to stderr and exits 3, so the
probe's reports quote that output in the agent-finished failure.
"""

import sys

sys.stdout.write("plain \x00 start | `tick` ``` fence\n")
sys.stderr.write("\x1b[31mError\x1b[0m: \x07bell \x0bvt \x1b[1m| table | cell |\x1b[0m\n```\nTraceback \x08 `x`\n")
sys.exit(3)
