"""Transport over the bridge: the harness serves cassettes and scenarios on loopback to an adapter in Node."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "node-transport"
SELECT = ["-k", "transport or round_trip"]



@pytest.fixture(autouse=True)
def _node():
    """Node.js is part of the suite's setup, as for the Vercel examples: its absence fails, never skips."""
    if shutil.which("node") is None:
        pytest.fail("node is not installed: the node-transport example needs Node.js 20 or newer", pytrace=False)


def _check(bridge: Path) -> subprocess.CompletedProcess:
    # No silence limit (--adapter-timeout 0), as in the example's runner command: on a loaded machine a
    # slow reply would be an error, not the verdict under test; the subprocess timeout is the hang guard.
    return subprocess.run(
        [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", "--adapter-cmd",
         f"node {bridge}", "--adapter-timeout", "0", *SELECT],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )


def _copy_with(tmp_path: Path, find: str, replace: str) -> Path:
    copy = tmp_path / "node-transport"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns(".v8", "junit.xml", "lcov.info"))
    sse = copy / "src" / "sse.js"
    text = sse.read_text(encoding="utf-8")
    assert text.count(find) == 1
    sse.write_text(text.replace(find, replace), encoding="utf-8")
    return copy / "bridge.js"


def test_every_transport_contract_passes_over_the_bridge():
    run = _check(EXAMPLE / "bridge.js")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    lines = [line for line in run.stdout.splitlines() if "PASSED" in line]
    modules = {line.split("::")[0].split()[-1] for line in lines}
    assert {"test_transport_requests.py", "test_transport_streams.py", "test_transport_delivery.py",
            "test_reasoning_round_trip.py"} <= modules, run.stdout[-3000:]


def test_the_split_event_bug_turns_the_delivery_contracts_red(tmp_path):
    bridge = _copy_with(tmp_path, "this.text += this.decoder.decode(", "this.text = this.decoder.decode(")
    run = _check(bridge)
    assert run.returncode == 1, run.stdout[-3000:]
    failed = [line for line in run.stdout.splitlines() if line.strip().startswith("FAILED")]
    # Only contracts that cut the stream across reads see it.
    cutting = ("test_transport_delivery.py", "test_transport_bodies.py")
    assert failed and all(any(module in line for module in cutting) for line in failed), "\n".join(failed)
    assert any("test_transport_delivery.py" in line and "[inside-events]" in line for line in failed)
    # Whole bodies (the cassette contracts) never show it.
    assert "PASSED  [wire] test_transport_streams.py" in run.stdout


def test_the_examples_known_bugs_are_killed_by_the_transport_contracts():
    # The example's runner command calls `harness`: the one installed beside this interpreter.
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    run = subprocess.run([sys.executable, "-m", "harness", "mutate", "--config", str(EXAMPLE / "mutants.toml")],
                         capture_output=True, text=True, timeout=900, cwd=ROOT, env={**os.environ, "PATH": path})
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "killed    split-event" in run.stdout and "killed    utf8-split" in run.stdout, run.stdout
