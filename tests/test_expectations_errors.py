"""An expected failure is a failed assertion: an adapter hanging in a contract marked ``fail`` is an error.

The run is the real command, as a user runs it: ``harness check --expectations``
with an entry for a contract the adapter cannot run (its ``parse_stream`` hangs
past ``--adapter-timeout``). An XFAIL there would hide a broken adapter behind
a written-down rule violation.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from harness import exit_codes

TESTS = Path(__file__).parent
ENV = {**{k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}, "PYTHONPATH": str(TESTS)}
CONTRACT = "test_sse_index_accumulation.py::test_split_arguments_are_joined_by_index"


def test_a_contract_marked_fail_that_errors_is_an_error_not_an_xfail(tmp_path):
    expectations = tmp_path / "expectations.toml"
    expectations.write_text(f'[contracts."{CONTRACT}"]\nstatus = "fail"\nreason = "known: index keyed wrong"\n')
    run = subprocess.run(
        [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", "--adapter-timeout", "1",
         "--adapter", "sample_adapters:hangs_in_parse", "-k", "split_arguments_are_joined",
         "--expectations", str(expectations)],
        capture_output=True, text=True, env=ENV, timeout=600,
    )
    out = run.stdout
    assert run.returncode == exit_codes.CONTRACTS_FAILED, f"exit {run.returncode}:\n{out[-3000:]}"
    assert re.search(rf"^\s*ERROR\s+\[\w+\] {re.escape(CONTRACT)}", out, re.M), out[-3000:]
    assert not re.search(r"^\s*XFAIL", out, re.M), f"an error shown as an expected failure:\n{out[-3000:]}"
    assert f"not the expected failure: {CONTRACT} is marked 'fail'" in out, out[-3000:]
    assert f"  ERROR       {CONTRACT}: expected to fail on an assertion (fail), but could not run" in out, out[-3000:]
    assert re.search(r"expectations \(.*\): 0 expected failures", out), out[-3000:]
