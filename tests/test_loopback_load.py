"""The bounded load benchmark runs as a test: 100 concurrent streaming requests on loopback, no error."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_one_hundred_concurrent_streams_are_served_without_an_error():
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "loopback_load.py"), "--requests", "100",
                          "--deadline", "60"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "100 concurrent streaming requests" in run.stdout and "0 error(s); 100 recorded" in run.stdout
