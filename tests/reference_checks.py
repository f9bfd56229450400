"""One ``harness check`` of each format's reference per test session, shared by every test that needs it whole.

Several tests judge the same run: the README's command passes the reference
and shows only its format's contracts (``test_check_command``), the
acceptance tests' check before their known bug (``test_*_acceptance``), and
the protocol paths the contracts reached (``test_capability_paths``). Each
full run costs minutes on a busy machine, so it is made once: the README's
command (``--adapter`` for every format but chat, whose reference is the
default) with :mod:`capability_recorder` loaded as a pytest plugin in the
contracts' process, writing down every path called while changing nothing
the run reports.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from harness.formats import SPECS

TESTS = Path(__file__).parent
ROOT = TESTS.parent
DEFAULT_FORMAT = "chat"  # the format of the reference `harness check` tests when no adapter is named


@dataclass(frozen=True)
class ReferenceCheck:
    format: str
    spec: str  # the reference adapter, module:attribute
    run: subprocess.CompletedProcess
    reached: frozenset[str]  # every protocol path a contract called (capability_recorder)


def run_check(format: str, scratch: Path) -> ReferenceCheck:
    """``harness check --hypothesis-profile ci`` of ``format``'s reference, run from the project's root."""
    spec = SPECS[format].reference
    log = scratch / "paths.log"
    inherited = {k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}
    env = {**inherited, "PYTHONPATH": str(TESTS), "CAPABILITY_LOG": str(log),
           "PYTEST_ADDOPTS": f"{inherited.get('PYTEST_ADDOPTS', '')} -p capability_recorder".strip()}
    run = subprocess.run(
        [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci",
         *(["--adapter", spec] if format != DEFAULT_FORMAT else [])],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=1800,
    )
    reached = frozenset(log.read_text(encoding="utf-8").split("\n")) - {""} if log.exists() else frozenset()
    return ReferenceCheck(format, spec, run, reached)
