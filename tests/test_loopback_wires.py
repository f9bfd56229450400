"""The loopback's rows: one per format beside chat, and ``harness serve`` names the route of every one."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from harness.adapter import DEFAULT_FORMAT, FORMATS
from harness.formats import spec_for
from harness.loopback.wires import WIRES


def test_the_rows_and_chat_are_the_formats():
    assert DEFAULT_FORMAT not in WIRES, "chat is served by its own provider profiles, not by a row"
    assert sorted([DEFAULT_FORMAT, *WIRES]) == sorted(FORMATS), "the loopback's rows and harness.adapter.FORMATS differ"
    for name, row in WIRES.items():
        assert row.format.name == name, f"the row {name!r} holds the route of {row.format.name!r}"
        assert row.suite and all(case.scenario in row.format.scenarios for case in row.suite), name


@pytest.fixture(scope="module")
def banner() -> str:
    run = subprocess.run([sys.executable, "-m", "harness", "serve", "--duration", "0.3"], capture_output=True,
                         text=True, timeout=60, env={**os.environ})
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.mark.parametrize("name", list(FORMATS))
def test_the_serve_banner_names_every_route(banner, name):
    origin = re.search(r"listening at (http://[^/\s]+)", banner).group(1)
    spec = spec_for(name)
    base = "/v1" if name == DEFAULT_FORMAT else WIRES[name].base_path
    line = f"harness serve: {spec.label} ({spec.endpoint}) at {origin}{base},"
    assert line in banner, f"the banner has no line for {name}:\n{banner}"
