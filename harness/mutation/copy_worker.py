"""The copy executor's warm worker: pytest and its plugins imported once, then one copy's run per fork.

Importing pytest, Hypothesis and coverage costs each fresh interpreter a
couple of seconds; a mutant's contracts usually run in a fraction of that.
Started by :mod:`warm_fork` (``python warm_fork.py copy_worker``), this worker
imports them once and says it is ready; each request ``{"spec": path, "cwd":
dir}`` then runs :mod:`copy_run` in a fork, in the requested copy. Nothing
from ``harness`` is imported here, so every fork imports the patched copy.
"""

from __future__ import annotations

import os

# Warm the heavy imports the contracts and pytest's plugins need; never harness itself.
import _hypothesis_pytestplugin  # noqa: F401
import coverage  # noqa: F401
import httpx  # noqa: F401
import hypothesis.strategies  # noqa: F401
import pytest  # noqa: F401
import syrupy  # noqa: F401
import vcr  # noqa: F401
import yaml  # noqa: F401
import _pytest.config  # noqa: F401
import _pytest.main  # noqa: F401
import _pytest.python  # noqa: F401

from . import copy_run
from .warm_fork import WarmFork


def _job(request: dict) -> dict:
    os.chdir(request["cwd"])
    return copy_run.main(request["spec"])


def main(fork: WarmFork, args: list[str]) -> None:
    fork.ready()
    fork.serve(_job)
