"""Every duration on the command line is a finite number in its range: anything else is exit 2 naming it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from harness import exit_codes


@pytest.mark.parametrize(
    "args, said",
    [
        (["serve", "--duration", "-5"], "argument --duration: '-5' is not over zero"),
        (["serve", "--duration", "0"], "argument --duration: '0' is not over zero"),
        (["serve", "--duration", "1e300"], "argument --duration: '1e300' is longer than this platform can wait"),
        (["serve", "--client-timeout", "-5"], "argument --client-timeout: '-5' is not over zero"),
        (["serve", "--delay", "-1"], "argument --delay: '-1' is negative"),
        (["probe", "--agent-timeout", "inf", "--agent-cmd", "true"],
         "argument --agent-timeout: 'inf' is not a finite number"),
        (["check", "--adapter-timeout", "nan"], "argument --adapter-timeout: 'nan' is not a finite number"),
        (["check", "--adapter-timeout", "-2"], "argument --adapter-timeout: '-2' is negative"),
        (["gate", "--timeout", "-1"], "argument --timeout: '-1' is not over zero"),
        (["mutate", "--baseline-timeout", "0"], "argument --baseline-timeout: '0' is not over zero"),
    ],
)
def test_a_duration_out_of_range_is_a_usage_error(args, said):
    run = subprocess.run([sys.executable, "-m", "harness", *args], capture_output=True, text=True, timeout=120)
    assert run.returncode == exit_codes.USAGE, run.stdout + run.stderr
    assert said in run.stderr, run.stderr
