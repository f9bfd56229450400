"""The codec contracts over the bridge (the Node example) against the same contracts in-process.

The contracts are every one whose only capability is ``codec``; each side runs
them in a fresh ``pytest`` process under the ``ci`` Hypothesis profile, as a
user's run would, so both include interpreter and pytest start-up and the
bridge side also the adapter's start and handshake.

    python benchmarks/bridge_vs_inprocess.py [--repeat 5] [--adapter-cmd "node examples/node-adapter/bridge.js"]

Prints each run and the medians; the goal is a ratio of at most 2.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.adapter import FIXTURE_NAMES, GROUPS
from harness.plugin import CONTRACTS_DIR

CODEC_FIXTURES = {FIXTURE_NAMES[cap] for cap in GROUPS["codec"]}
ALL_FIXTURES = set(FIXTURE_NAMES.values())

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
PLUGIN = Path(__file__).stem  # this module, loaded into each run to select the contracts
NODE_EXAMPLE = "node examples/node-adapter/bridge.js"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Loaded into each measured run (``-p``): keep the contracts that need codec capabilities and nothing else."""
    items[:] = [item for item in items if set(getattr(item, "fixturenames", ())) & ALL_FIXTURES <= CODEC_FIXTURES
                and set(getattr(item, "fixturenames", ())) & CODEC_FIXTURES]


def timed_run(adapter_args: list[str]) -> tuple[float, float]:
    """One run's wall time, and the session time pytest reports (without start-up)."""
    args = [sys.executable, "-m", "pytest", str(CONTRACTS_DIR), "-q", "-p", "no:cacheprovider", "-p", PLUGIN,
            "--rootdir", str(CONTRACTS_DIR), "--harness-profile", "ci", *adapter_args]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")]))}
    started = time.perf_counter()
    run = subprocess.run(args, cwd=REPO, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if run.returncode != 0:
        raise SystemExit(f"contracts not green with {adapter_args}; benchmark a green run:\n{run.stdout[-3000:]}")
    summary = run.stdout.strip().splitlines()[-1]
    print(f"  {summary}")
    return elapsed, float(re.search(r" in ([0-9.]+)s", summary).group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--adapter-cmd", default=NODE_EXAMPLE, help=f"the bridge adapter (default: {NODE_EXAMPLE})")
    options = parser.parse_args()

    runs: dict[str, list[tuple[float, float]]] = {"in-process": [], "bridge": []}
    sides = {"in-process": ["--adapter", "harness.reference:adapter"], "bridge": ["--adapter-cmd", options.adapter_cmd]}
    for n in range(1, options.repeat + 1):
        for side, adapter_args in sides.items():  # alternated, so load on the machine hits both alike
            print(f"run {n} {side}:")
            runs[side].append(timed_run(adapter_args))
    for k, what in enumerate(("wall time", "pytest session time")):
        base, over = (statistics.median(t[k] for t in runs[side]) for side in sides)
        print(f"median {what}: in-process {base:.2f}s, bridge {over:.2f}s, ratio {over / base:.2f} (goal: at most 2)")


if __name__ == "__main__":
    main()
