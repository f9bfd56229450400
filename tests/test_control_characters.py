"""No raw control character of an adapter's text reaches the console or a GitHub annotation.

An adapter's name (the run's header) and its error messages are the adapter's
text: shown with ESC and BEL as escapes (``\\x1b``, ``\\x07``) in every line
``harness check`` prints, ``::error`` workflow commands included.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from harness import exit_codes

TESTS = Path(__file__).parent


def test_the_header_and_the_annotations_show_an_adapters_control_characters_escaped():
    env = {**{k: v for k, v in os.environ.items() if k not in ("HARNESS_ADAPTER", "GITHUB_STEP_SUMMARY")},
           "PYTHONPATH": str(TESTS), "GITHUB_ACTIONS": "true"}
    run = subprocess.run(
        [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", "--adapter",
         "escaping_adapter:adapter", "-k", "split_arguments_are_joined"],
        capture_output=True, text=True, env=env, timeout=600,
    )
    out = run.stdout
    assert run.returncode == exit_codes.CONTRACTS_FAILED, out[-3000:] + run.stderr[-3000:]
    errors = [line for line in out.splitlines() if line.startswith("::error")]
    assert errors, f"no annotation:\n{out[-3000:]}"
    assert "adapter under test: escaping sample \\x1b]0;owned\\x07\\x1b[2J" in out, out[:2000]
    assert any("cannot parse \\x1b]0;owned\\x07" in line for line in errors), errors
    raw = [line for line in out.splitlines() if "\x1b" in line or "\x07" in line]
    assert not raw, f"lines with a raw ESC or BEL: {raw!r}"
