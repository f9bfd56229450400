"""Adapters that hang or return garbage: an error or a failure naming the method, never a pass, never a hung run."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
ENV = {**{k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}, "PYTHONPATH": str(TESTS)}


def test_an_in_process_adapter_that_hangs_errors_each_contract_and_the_run_goes_on():
    proc = subprocess.Popen(
        [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", "--adapter-timeout", "1",
         "--adapter", "sample_adapters:hangs_in_parse", "-k", "index_accumulation or framing"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV,
    )
    running_at_first_result = None
    lines = []
    for line in proc.stdout:  # to a pipe, results arrive while the run goes on
        lines.append(line)
        if running_at_first_result is None and "::" in line:
            # Each of the five or more contracts still to come hangs for its 1 s limit first.
            running_at_first_result = proc.poll() is None
    proc.wait(timeout=300)  # the hang guard: a hung run fails here
    out = "".join(lines)
    assert proc.returncode == 1, out
    errors = [line for line in lines if line.strip().startswith("ERROR")]
    assert len(errors) >= 5, out
    assert "parse_stream(b'data: " in out and "did not return within 1 s (--adapter-timeout)" in out, out
    assert running_at_first_result, "results should arrive while the run goes on, not when it ends"


@pytest.mark.parametrize("adapter", ["returns_none", "returns_string", "returns_list", "returns_wrong_field"])
def test_wrong_shapes_fail_naming_method_and_field_and_nothing_passes(adapter):
    run = subprocess.run(
        [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci",
         "--adapter", f"sample_adapters:{adapter}"],
        capture_output=True, text=True, env=ENV, timeout=600,
    )
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    assert out.splitlines()[-1].startswith("0 passed, "), out.splitlines()[-1]
    for method in ("parse_stream", "serialize_message", "transform_request"):
        assert f"{method} returned a wrong shape at " in out, f"no shape failure for {method}:\n{out[-3000:]}"
    if adapter == "returns_wrong_field":
        assert "parse_stream returned a wrong shape at .content: 7 is not of type 'string'" in out, out[-3000:]


def test_a_bridge_answering_100_mb_replies_keeps_the_harness_small_and_its_output_short():
    bridge = f"{sys.executable} {TESTS / 'bridges' / 'huge.py'}"
    script = (
        "import resource, sys\n"
        "from harness.cli import main\n"
        "code = main(sys.argv[1:])\n"
        "print('PEAK_KB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
        "sys.exit(code)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script, "check", "--hypothesis-profile", "ci", "--adapter-cmd", bridge,
         "-k", "framing or top_level"],
        capture_output=True, text=True, env=ENV, timeout=600,
    )
    out = run.stdout
    assert run.returncode == 1, out[-3000:] + run.stderr[-3000:]
    assert "over the limit of 33554432 bytes; it was dropped unread" in out, out[-3000:]
    assert out.splitlines()[-2].startswith("0 passed, 0 failed, "), out.splitlines()[-3:]
    peak_mb = int(out.splitlines()[-1].split()[1]) / 1024
    assert peak_mb < 300, f"peak memory {peak_mb:.0f} MB"
    assert len(out) < 200_000, f"{len(out)} characters of output"
