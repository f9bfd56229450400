"""The gate says what it is doing from its start, and a SIGTERM during its baseline ends it with 143 at once.

The baseline takes a minute or more; a CI log that stays empty that long looks
hung. The first line must come before the baseline's verdict, and a job
cancelled then (SIGTERM) must end within seconds, as cancelled.
"""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from harness import exit_codes

STOPS_WITHIN = 30  # seconds from the signal to the end: "a few", with room for a loaded machine


def test_the_gate_speaks_before_its_baseline_and_a_sigterm_then_ends_it_as_terminated(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "harness", "gate", "--format", "chat", "--jobs", "1"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    first = proc.stdout.readline()  # the baseline's verdict would come a minute later: this must come first
    assert first.startswith("chat: starting: the contracts on the unpatched code (the baseline)"), first
    assert proc.poll() is None, "the gate ended before the signal"
    proc.send_signal(signal.SIGTERM)
    try:
        rest = proc.communicate(timeout=STOPS_WITHIN)[0]
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"still running {STOPS_WITHIN} s after SIGTERM")
    assert proc.returncode == exit_codes.TERMINATED, first + rest
    assert "green in" not in rest, f"the baseline ran to its end after the signal:\n{rest}"
    assert "interrupted" in rest, rest
