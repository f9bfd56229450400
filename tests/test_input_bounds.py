"""Every file the harness reads is bounded in size and depth: past either, exit 2 naming the file, no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness import exit_codes
from harness.cli.expectations_file import MAX_BYTES as EXPECTATIONS_BYTES
from harness.config.table_schema import MAX_DEPTH, MAX_FILE_BYTES


def _harness(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)


def _deep_json(levels: int) -> str:
    return '{"contracts": ' + "[" * levels + "]" * levels + "}"


def _deep_toml(levels: int) -> str:
    return "x = " + "[" * levels + "]" * levels + "\n"


@pytest.mark.parametrize(
    "name, text, command, said",
    [
        ("deep.json", _deep_json(100_000), ["check", "--expectations", "deep.json"],
         f"expectations error: deep.json: nested deeper than {MAX_DEPTH} levels; not read"),
        ("deeper.json", _deep_json(MAX_DEPTH + 2), ["check", "--expectations", "deeper.json"],
         f"expectations error: deeper.json: contracts{'.0' * MAX_DEPTH}: nested deeper than {MAX_DEPTH} levels"),
        ("deep.toml", _deep_toml(100_000), ["mutate", "--config", "deep.toml"],
         f"deep.toml: nested deeper than {MAX_DEPTH} levels; not read"),
        ("many.toml", "".join(f'[contracts."test_x{n}.py::test_y"]\nstatus = "fail"\nreason = "r"\n'
                              for n in range(100_000)), ["check", "--expectations", "many.toml"],
         f"many.toml: the expectations file is larger than {EXPECTATIONS_BYTES:,} bytes; it was not read"),
        ("huge.toml", "# " + "x" * MAX_FILE_BYTES + "\n", ["mutate", "--config", "huge.toml"],
         f"huge.toml: the catalogue is larger than {MAX_FILE_BYTES:,} bytes; it was not read"),
    ],
    ids=["json-100000-deep", "json-just-too-deep", "catalogue-100000-deep", "expectations-100000-entries",
         "catalogue-too-large"],
)
def test_a_file_too_deep_or_too_large_is_a_usage_error_naming_it(tmp_path, name, text, command, said):
    (tmp_path / name).write_text(text)
    run = _harness(*command, cwd=tmp_path)
    assert run.returncode == exit_codes.USAGE, f"exit {run.returncode}:\n{run.stdout[-2000:]}{run.stderr[-2000:]}"
    assert said in run.stdout, run.stdout[-2000:]
    assert "Traceback" not in run.stdout + run.stderr, run.stderr[-2000:]


def test_a_cassette_too_large_is_refused_unread(tmp_path):
    from harness.loopback.cassette import MAX_BYTES

    big = tmp_path / "big.yaml"
    with open(big, "wb") as handle:
        handle.truncate(MAX_BYTES + 1)  # sparse: no disk spent
    run = _harness("serve", "--cassette", str(big), "--duration", "1", cwd=tmp_path)
    assert run.returncode == exit_codes.USAGE, run.stdout[-2000:] + run.stderr[-2000:]
    assert f"{big} is larger than {MAX_BYTES:,} bytes" in run.stderr, run.stderr[-2000:]
