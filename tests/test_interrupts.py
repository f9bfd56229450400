"""``harness check`` stopped by a signal, or by its adapter ending the process: a summary and the signal's code.

Whatever the adapter is doing (hung in a call, spinning), SIGINT ends the run
with exit 130 and SIGTERM (how CI cancels a job) with 143, within seconds, with
the counts of what ran and never an internal error; an adapter that ends the
process (``os._exit`` at import) leaves a run that says so and exits 1, not the
adapter's status with no output.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from harness import exit_codes

TESTS = Path(__file__).parent
ENV = {**{k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}, "PYTHONPATH": str(TESTS)}
STOPS_WITHIN = 30  # seconds from the signal to the end of the run: "a few", with room for a loaded machine


def _check(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", *args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV,
    )


def _stopped_after_first_result(proc: subprocess.Popen, signum: int) -> str:
    """Send ``signum`` once the first contract's line is out (the run is under way); the whole output."""
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if "::" in line:
            break
    assert proc.poll() is None, "the run ended before the signal:\n" + "".join(lines)
    proc.send_signal(signum)
    try:
        rest = proc.communicate(timeout=STOPS_WITHIN)[0]
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"still running {STOPS_WITHIN} s after {signal.Signals(signum).name}:\n{''.join(lines)[-3000:]}")
    return "".join(lines) + rest


@pytest.mark.parametrize(
    "adapter, signum, code",
    [
        ("hangs_in_parse", signal.SIGTERM, exit_codes.TERMINATED),
        ("hangs_in_parse", signal.SIGINT, exit_codes.INTERRUPTED),
        ("spins", signal.SIGTERM, exit_codes.TERMINATED),
    ],
    ids=["hung-SIGTERM", "hung-SIGINT", "spinning-SIGTERM"],
)
def test_a_signal_stops_a_run_whatever_the_adapter_does_with_a_summary_and_its_code(adapter, signum, code):
    proc = _check("--adapter", f"sample_adapters:{adapter}", "--adapter-timeout", "2")
    out = _stopped_after_first_result(proc, signum)
    assert proc.returncode == code, f"exit {proc.returncode}, expected {code}:\n{out[-3000:]}"
    assert "INTERNALERROR" not in out and "Traceback" not in out, out[-3000:]
    counts = re.search(r"^\d+ passed, \d+ failed.*$", out, re.M)
    assert counts, f"no counts of what ran:\n{out[-3000:]}"
    counted = sum(map(int, re.findall(r"\d+", counts.group(0))))
    assert counted >= 1, f"the contract already reported is not counted: {counts.group(0)}"
    match = re.search(rf"^interrupted: (\d+) of (\d+) contracts did not run \({signal.Signals(signum).name}", out, re.M)
    assert match and 0 < int(match.group(1)) < int(match.group(2)), out[-3000:]


def test_an_adapter_ending_the_process_at_import_is_reported_not_passed_on():
    proc = _check("--adapter", "adapter_exits_at_import:adapter")
    out = proc.communicate(timeout=600)[0]
    assert proc.returncode == exit_codes.CONTRACTS_FAILED, f"exit {proc.returncode}:\n{out}"
    assert "the contracts' process ended before any contract started (exit status 3)" in out, out


STUCK = """
from harness.processes import Children
with Children():
    said = False
    while True:  # a main thread that swallows the interrupt, as code stuck in a retry loop would
        try:
            if not said:  # said inside the loop: the signal may land as soon as it is out
                said = True
                print("ready", flush=True)
            input()
        except (KeyboardInterrupt, EOFError):
            pass
"""


def test_a_run_that_swallows_the_interrupt_is_ended_after_the_grace_period_with_the_signals_code():
    proc = subprocess.Popen([sys.executable, "-c", STUCK], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=ENV)
    assert proc.stdout.readline() == "ready\n"
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=STOPS_WITHIN)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"still running {STOPS_WITHIN} s after SIGTERM")
    assert proc.returncode == exit_codes.TERMINATED, err
    assert "harness: still running 8 s after SIGTERM; ended" in err, err


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = Path(f"/proc/{pid}/stat")
    return not (state.exists() and state.read_text().split(") ")[-1].startswith("Z"))  # a zombie has ended


def test_a_process_an_in_process_adapter_starts_does_not_outlive_the_run(tmp_path):
    pids = tmp_path / "pids"
    env = {**ENV, "SPAWNING_ADAPTER_PIDS": str(pids)}
    run = subprocess.run([sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", "--adapter",
                          "spawning_adapter:adapter", "-k", "split_arguments_are_joined"],
                         capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == exit_codes.OK, run.stdout[-3000:] + run.stderr[-3000:]
    helper = int(pids.read_text())
    try:
        assert not _alive(helper), f"the adapter's helper process {helper} outlived the run"
    finally:
        if _alive(helper):
            os.kill(helper, signal.SIGKILL)
