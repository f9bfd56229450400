"""``harness check`` with the Gemini reference passes every Gemini contract; other formats' references never apply them."""

import os
import subprocess
import sys

import pytest


def _check(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}
    return subprocess.run([sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", *args],
                          capture_output=True, text=True, env=env, timeout=600)


def _lines(stdout: str, status: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.strip().startswith(status)]


def test_the_gemini_reference_passes_every_gemini_contract_and_no_other_applies():
    run = _check("--adapter", "harness.reference:gemini_adapter")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr
    assert run.stdout.startswith("adapter under test: reference-gemini (harness.reference:gemini_adapter) "
                                 "format: gemini"), run.stdout[:500]
    passed = _lines(run.stdout, "PASSED")
    assert len(passed) >= 9 and all("test_gemini_" in line for line in passed), "\n".join(passed)
    assert not any("test_gemini_" in line for line in _lines(run.stdout, "NOT APPLICABLE"))
    assert " 0 failed" in run.stdout.splitlines()[-1]


@pytest.mark.parametrize("spec", ["harness.reference:adapter", "harness.reference:anthropic_adapter"])
def test_the_other_references_report_every_gemini_contract_not_applicable(spec):
    run = _check("--adapter", spec, "-k", "gemini")
    assert run.returncode == 9, run.stdout[-3000:] + run.stderr  # nothing applied: no contract of their format
    gemini = [line for line in run.stdout.splitlines() if "test_gemini_" in line]
    assert len(gemini) >= 9 and all(line.strip().startswith("NOT APPLICABLE") for line in gemini), "\n".join(gemini)
