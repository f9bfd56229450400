"""Other formats' references never apply a Gemini contract (the Gemini reference's own run: ``test_check_command``)."""

import os
import subprocess
import sys

import pytest


def _check(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}
    return subprocess.run([sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", *args],
                          capture_output=True, text=True, env=env, timeout=600)


@pytest.mark.parametrize("spec", ["harness.reference:adapter", "harness.reference:anthropic_adapter"])
def test_the_other_references_report_every_gemini_contract_not_applicable(spec):
    run = _check("--adapter", spec, "-k", "gemini")
    assert run.returncode == 9, run.stdout[-3000:] + run.stderr  # nothing applied: no contract of their format
    gemini = [line for line in run.stdout.splitlines() if "test_gemini_" in line]
    assert len(gemini) >= 9 and all(line.strip().startswith("NOT APPLICABLE") for line in gemini), "\n".join(gemini)
