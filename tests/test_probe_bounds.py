"""`harness probe` as a user runs it, against an agent that loops: it is stopped at the bound and failed as looping.

The bound counts requests, not seconds, so the verdict is the same on a quiet
machine and a loaded one; the agent's time limit is only the backstop.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from harness import exit_codes
from harness.loopback.probe_case import MAX_REQUESTS

AGENT = Path(__file__).parent / "agents" / "loops.py"


def _probe(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", "probe", "--scenario", "usage", "--agent-timeout",
                           "500", "--agent-cmd", f"{sys.executable} {AGENT} {{base_url}}", *args],
                          capture_output=True, text=True, timeout=600)


def test_an_agent_past_the_default_bound_is_stopped_and_failed_as_looping():
    run = _probe()
    out = run.stdout + run.stderr
    assert run.returncode == exit_codes.CONTRACTS_FAILED, f"exit {run.returncode}\n{out[-3000:]}"
    assert (f"turn 1 sent more than {MAX_REQUESTS} requests in one turn (--max-requests): stopped as looping"
            in run.stdout), run.stdout[-3000:]


def test_the_bound_is_an_option_and_a_bad_value_is_a_usage_error():
    run = _probe("--max-requests", "3")
    assert run.returncode == exit_codes.CONTRACTS_FAILED, run.stdout[-3000:] + run.stderr[-2000:]
    assert "turn 1 sent more than 3 requests in one turn" in run.stdout, run.stdout[-3000:]
    bad = _probe("--max-requests", "0")
    assert bad.returncode == exit_codes.USAGE, bad.stdout[-2000:] + bad.stderr[-2000:]
    assert "argument --max-requests: '0' is not a number of requests (1 or more)" in bad.stderr, bad.stderr
