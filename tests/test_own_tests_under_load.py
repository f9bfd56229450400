"""The suite's own property tests hold on a busy machine: no Hypothesis check of speed can fail them.

A CI runner at load 30 draws and runs slowly; the suite's conftest profile (as
the contracts' profiles do) measures no speed. Here a test whose every draw and
every run is slow, as on such a machine, runs under that conftest in a session
of its own, and passes.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from pathlib import Path

SLOW = """
import time

from hypothesis import given, settings, strategies as st


def _slowly(value):
    time.sleep(0.4)  # a draw on a loaded machine
    return value


@settings(max_examples=5)
@given(st.integers().map(_slowly))
def test_slow_draws_and_a_slow_body(number):
    time.sleep(0.3)  # past Hypothesis's default 200 ms deadline
    assert isinstance(number, int)
"""


def test_a_slow_property_test_passes_under_the_suites_conftest(tmp_path):
    shutil.copy(Path(__file__).parent / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_slow.py").write_text(SLOW)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_slow.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "1 passed" in run.stdout, run.stdout[-3000:]


BLOCKS = """
import threading


def test_blocks_until_interrupted():
    print("ready", flush=True)
    threading.Event().wait(240)  # only an interrupt ends this in time
"""

# Started as a background job of a non-interactive shell starts it (a CI script, a load generator's
# `pytest &`): SIGINT ignored, which exec keeps.
IGNORING_SIGINT = "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); os.execv(sys.executable, sys.argv)"


def test_the_suite_stops_on_sigint_even_when_started_ignoring_it(tmp_path):
    shutil.copy(Path(__file__).parent / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_blocks.py").write_text(BLOCKS)
    run = subprocess.Popen([sys.executable, "-c", IGNORING_SIGINT, "-m", "pytest", "-s", "-q", "-p",
                            "no:cacheprovider", "test_blocks.py"], cwd=tmp_path, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    try:
        lines = []
        for line in run.stdout:
            lines.append(line)
            if line.startswith("ready"):
                break
        run.send_signal(signal.SIGINT)
        out = "".join(lines) + run.communicate(timeout=200)[0]
    finally:
        run.kill()
    assert run.returncode == 2 and "KeyboardInterrupt" in out, (
        f"expected pytest interrupted (exit 2) by SIGINT, got exit {run.returncode}:\n{out[-3000:]}")
