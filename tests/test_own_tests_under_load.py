"""The suite's own property tests hold on a busy machine: no Hypothesis check of speed can fail them.

A CI runner at load 30 draws and runs slowly; the suite's conftest profile (as
the contracts' profiles do) measures no speed. Here a test whose every draw and
every run is slow, as on such a machine, runs under that conftest in a session
of its own, and passes.
"""

from __future__ import annotations

import shutil
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
