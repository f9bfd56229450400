"""A warm process that forks one probe per mutant run.

Importing pytest, Hypothesis and coverage costs each fresh interpreter a
couple of seconds; a mutant's contracts usually run in a fraction of that.
This script imports them once, then for each request forks a child that
runs :mod:`probe` in the requested copy. Nothing from ``harness`` is imported
here, so every child still imports the patched copy.

Protocol, JSON lines: read ``{"spec": path, "cwd": dir, "log": path}``; write
``{"pid": n}`` once the child runs (its own session, so it can be killed with
everything it started), then ``{"exit": code}`` when it ends.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

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


def _probe():
    spec = importlib.util.spec_from_file_location("_harness_probe", Path(__file__).with_name("probe.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _child(request: dict, probe) -> None:
    os.setsid()
    os.chdir(request["cwd"])
    log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    sys.stdin.close()
    code = 1
    try:
        code = probe.main(request["spec"])
    except BaseException as exc:  # the parent reads the log; the exit code says it died
        print(f"probe crashed: {type(exc).__name__}: {exc}", flush=True)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def main() -> None:
    probe = _probe()
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(request, probe)
        print(json.dumps({"pid": pid}), flush=True)
        _, status = os.waitpid(pid, 0)
        print(json.dumps({"exit": os.waitstatus_to_exitcode(status)}), flush=True)


if __name__ == "__main__":
    main()
