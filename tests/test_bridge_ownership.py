"""A bridge adapter's process belongs to the run's one owner of child processes, like every other child.

``harness check --adapter-cmd`` stopped by SIGTERM or SIGINT (once, or again
while it cleans up) leaves neither the adapter nor anything the adapter
started; nor does ``harness mutate`` on the Node example, whose tests start
the bridge themselves; nor does ``harness probe`` the agent program it runs.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from test_mutation_faults import _alive

from harness.bridge import load_bridge
from harness.exit_codes import interrupted_by
from harness.processes import Children, current

REPO = Path(__file__).parent.parent
HANG_WITH_CHILD = Path(__file__).parent / "bridges" / "hang_with_child.py"
HANGING_AGENT = Path(__file__).parent / "bridges" / "hanging_agent.py"


def _wait_for(predicate, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _kill(pids: list[int]) -> None:
    """Clean-up for a failing test: the processes this test made the harness start, by pid."""
    for pid in pids:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


def _assert_gone(pids: list[int], what: str, command: str, output: str) -> None:
    survivors = [p for p in pids if _alive(p)]
    assert not survivors, f"{what} processes outlived the {command}: {survivors}\n{output}"


def _clean_up(harness: subprocess.Popen, pids: list[int]) -> None:
    if harness.poll() is None:
        harness.kill()
        harness.wait()
    _kill(pids)


@pytest.mark.parametrize(
    "signals",
    [("SIGTERM",), ("SIGINT",), ("SIGTERM", "SIGTERM"), ("SIGINT", "SIGINT")],
    ids=lambda s: "-then-".join(s),
)
def test_a_stopped_check_leaves_no_adapter_process(tmp_path, signals):
    pid_file = tmp_path / "pids"
    command = f"{sys.executable} {HANG_WITH_CHILD} {pid_file}"
    harness = subprocess.Popen(
        [sys.executable, "-m", "harness", "check", "--adapter-cmd", command, "--adapter-timeout", "600",
         "-k", "twelve"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO,
        env={k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"},
    )
    pids: list[int] = []
    try:
        assert _wait_for(pid_file.exists, 120), "the adapter never reached its hang"
        pids = [int(p) for p in pid_file.read_text().split()]
        assert all(_alive(p) for p in pids)
        time.sleep(0.5)  # well inside the hung request
        for number, name in enumerate(signals):
            if number:
                time.sleep(0.3)  # the second one lands while the first is being cleaned up after
            harness.send_signal(getattr(signal, name))
        output, _ = harness.communicate(timeout=60)
        # A second signal after the clean-up ends the process the default way: it was asked to.
        assert harness.returncode in (interrupted_by(getattr(signal, signals[0])), -getattr(signal, signals[-1])), output
        _assert_gone(pids, "adapter", "check", output)
    finally:
        _clean_up(harness, pids)


def test_the_bridge_registers_with_the_owner_of_the_block_it_starts_in(tmp_path):
    command = f"{sys.executable} {Path(__file__).parent / 'bridges' / 'echo.py'}"
    with Children() as owner:
        assert current() is owner
        bridge = load_bridge(command, timeout=30).obj
        (pid,) = owner.running()
        assert _alive(pid)
        # Not closed: leaving the block is enough.
    assert not _alive(pid)
    assert current() is None
    bridge.close()


def test_the_first_signal_kills_every_group_before_the_run_hears_of_it():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt), Children() as owner:
        sleeper = owner.start([sys.executable, "-c", "import time; time.sleep(60)"])
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(10)
        except KeyboardInterrupt:
            # Still inside the block: nothing has cleaned up yet, and the child is already gone.
            assert sleeper.wait(timeout=5) == -signal.SIGKILL
            raise
    assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_a_stopped_mutation_run_on_the_node_example_leaves_no_node_process(tmp_path):
    scratch = Path(tempfile.mkdtemp(prefix="ownership-", dir=tmp_path))
    harness = subprocess.Popen(
        [sys.executable, "-m", "harness", "mutate", "--config", "examples/node-adapter/mutants.toml", "--jobs", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO,
        env={**os.environ, "TMPDIR": str(scratch)},
    )

    def in_scratch() -> list[tuple[int, str]]:
        found = []
        for cwd in Path("/proc").glob("[0-9]*/cwd"):
            try:
                if os.readlink(cwd).startswith(str(scratch)):
                    cmdline = (cwd.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                    found.append((int(cwd.parent.name), cmdline))
            except OSError:
                continue
        return found

    try:
        # The Node tests start the bridge themselves: once it runs, the run is as deep as it gets.
        assert _wait_for(lambda: any("bridge.js" in c for _, c in in_scratch()), 120), "the bridge never started"
        harness.send_signal(signal.SIGTERM)
        time.sleep(0.05)
        harness.send_signal(signal.SIGTERM)
        output, _ = harness.communicate(timeout=60)
        assert harness.returncode in (interrupted_by(signal.SIGTERM), -signal.SIGTERM), output
        assert _wait_for(lambda: not in_scratch(), 2), f"left running: {in_scratch()}\n{output}"
    finally:
        if harness.poll() is None:
            harness.kill()
            harness.wait()
        _kill([pid for pid, _ in in_scratch()])


@pytest.mark.parametrize("name", ["SIGTERM", "SIGINT"])
def test_a_stopped_probe_leaves_no_agent_process(tmp_path, name):
    pid_file = tmp_path / "pids"
    harness = subprocess.Popen(
        [sys.executable, "-m", "harness", "probe", "--agent-timeout", "600",
         "--agent-cmd", f"{sys.executable} {HANGING_AGENT} {pid_file} {{base_url}}"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path,
    )
    pids: list[int] = []
    try:
        assert _wait_for(pid_file.exists, 120), "the agent never reached its hang"
        pids = [int(p) for p in pid_file.read_text().split()]
        harness.send_signal(getattr(signal, name))
        output, _ = harness.communicate(timeout=60)
        assert harness.returncode == interrupted_by(getattr(signal, name)), output
        _assert_gone(pids, "agent", "probe", output)
    finally:
        _clean_up(harness, pids)
