"""Every adapter-protocol path a format's reference offers is reached by at least one contract of that format.

A path is a method of a capability the reference offers (``harness.adapter``'s
protocols), and ``transform_request`` once per effort level: a format whose
request transform no contract calls with an effort has its whole effort
mapping unjudged, however many contracts call the method itself. Each format's
contracts run (the gate's derandomized profile) against its reference wrapped
by :mod:`capability_recorder`, which writes down every path called; a path of
the reference that no contract called fails here, named.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.adapter import CAPABILITIES, EFFORTS, load_adapter, protocol_methods
from harness.formats import SPECS

TESTS = Path(__file__).parent
ENV = {**{k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}, "PYTHONPATH": str(TESTS)}
RECORDERS = {"chat": "chat", "anthropic": "anthropic", "openai-responses": "openai_responses", "gemini": "gemini",
             "bedrock": "bedrock"}


def offered_paths(format: str) -> set[str]:
    """Every path the format's reference offers: its capabilities' methods, transform_request per effort."""
    reference = load_adapter(SPECS[format].reference)
    methods = {m for cap in reference.capabilities for m in protocol_methods(CAPABILITIES[cap])}
    paths = methods - {"transform_request"}
    if "transform_request" in methods:
        paths |= {f"transform_request effort={effort}" for effort in EFFORTS}
    return paths


def test_every_format_has_a_recorder():
    assert set(RECORDERS) == set(SPECS), f"recorders for {sorted(RECORDERS)}, formats {sorted(SPECS)}"


@pytest.mark.parametrize("format", sorted(SPECS))
def test_every_path_the_reference_offers_is_reached_by_a_contract(format, tmp_path):
    log = tmp_path / "paths.log"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "--pyargs", "harness.contracts", "-q", "-p", "no:cacheprovider",
         "--harness-profile", "ci", "--adapter", f"capability_recorder:{RECORDERS[format]}"],
        capture_output=True, text=True, env={**ENV, "CAPABILITY_LOG": str(log)}, cwd=tmp_path, timeout=1200)
    assert run.returncode == 0, f"the {format} reference's contracts did not all pass:\n{run.stdout[-3000:]}"
    reached = set(log.read_text().split("\n")) - {""} if log.exists() else set()
    unreached = offered_paths(format) - reached
    assert not unreached, (f"no {format} contract calls {sorted(unreached)} of its reference: each is a documented "
                           f"path with no contract (reached: {sorted(reached)})")
