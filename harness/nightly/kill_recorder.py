"""A pytest plugin for mutmut's test runs inside the copy: what was tested, and what killed each mutant.

mutmut loads it with ``-p harness.nightly.kill_recorder`` (see ``mutmut_run``).
It writes into the directory named by ``$HARNESS_NIGHTLY_PROBE``:

- ``imports.json``: the file each ``harness.reference`` module was imported
  from, after a run that tested no mutant, so the shadow guard can tell
  whether mutmut's mutated copy was the code under test;
- ``kills/<mutant name>``: the first contract that failed under that mutant,
  with its message.

Only the standard library and pytest are imported at module level.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path

import pytest

PROBE_ENV = "HARNESS_NIGHTLY_PROBE"
REFERENCE = "harness.reference"
# Values mutmut puts in MUTANT_UNDER_TEST that name no mutant.
_NOT_A_MUTANT = {"", "stats", "fail", "list_all_tests", "mutant_generation"}


def _probe_dir() -> Path | None:
    value = os.environ.get(PROBE_ENV)
    return Path(value) if value else None


def _mutant() -> str:
    return os.environ.get("MUTANT_UNDER_TEST", "")


def reference_files() -> dict[str, str]:
    """Module name -> file for the reference and its submodules, as imported in this process."""
    importlib.import_module(REFERENCE)
    return {
        name: str(Path(module.__file__).resolve())
        for name, module in sorted(sys.modules.items())
        if (name == REFERENCE or name.startswith(REFERENCE + ".")) and getattr(module, "__file__", None)
    }


def pytest_sessionfinish(session: pytest.Session) -> None:
    probe = _probe_dir()
    if probe is None or _mutant() not in _NOT_A_MUTANT:
        return
    (probe / "imports.json").write_text(json.dumps(reference_files(), indent=2), encoding="utf-8")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    probe, mutant = _probe_dir(), _mutant()
    if probe is None or mutant in _NOT_A_MUTANT or not report.failed:
        return
    kill = probe / "kills" / mutant
    if kill.exists():
        return
    crash = getattr(report.longrepr, "reprcrash", None)
    message = crash.message if crash is not None else str(report.longrepr or "")
    kill.parent.mkdir(parents=True, exist_ok=True)
    kill.write_text(json.dumps({"test": report.nodeid, "message": message[:2000]}), encoding="utf-8")
