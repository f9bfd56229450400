"""The Responses reference passes every contract of its format, and only those apply to it."""

import os
import subprocess
import sys


def test_the_responses_reference_passes_the_responses_contracts_and_no_other_applies():
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}
    run = subprocess.run([sys.executable, "-m", "harness", "check", "--adapter", "harness.reference:responses_adapter",
                          "--hypothesis-profile", "ci"], capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr
    assert run.stdout.startswith("adapter under test: reference-responses (harness.reference:responses_adapter) "
                                 "format: openai-responses"), run.stdout[:500]
    lines = run.stdout.splitlines()
    passed = [line for line in lines if line.strip().startswith("PASSED")]
    assert len(passed) >= 11 and all("test_responses_" in line for line in passed), "\n".join(passed)
    assert not [line for line in lines if line.strip().startswith("NOT APPLICABLE") and "test_responses_" in line]
    assert " 0 failed" in lines[-1], lines[-1]
