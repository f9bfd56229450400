"""Adapters that hang or return garbage: an error or a failure naming the method, never a pass, never a hung run."""

import os
import re
import subprocess
import sys
import threading
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
    # The contracts' process, where the replies are read (``harness check`` watches it from another).
    script = (
        "import resource, sys\n"
        "from harness.cli.check import CheckOptions, run_contracts\n"
        "code = run_contracts(CheckOptions(profile='ci', adapter_cmd=sys.argv[1], keyword='framing or top_level'))\n"
        "print('PEAK_KB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
        "sys.exit(code)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script, bridge],
        capture_output=True, text=True, env=ENV, timeout=600,
    )
    out = run.stdout
    assert run.returncode == 1, out[-3000:] + run.stderr[-3000:]
    assert "over the limit of 8388608 bytes; it was dropped unread" in out, out[-3000:]
    assert out.splitlines()[-2].startswith("0 passed, 0 failed, "), out.splitlines()[-3:]
    peak_mb = int(out.splitlines()[-1].split()[1]) / 1024
    assert peak_mb < 300, f"peak memory {peak_mb:.0f} MB"
    assert len(out) < 200_000, f"{len(out)} characters of output"


def _run_check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", *args],
        capture_output=True, text=True, env=ENV, timeout=600,
    )


def _complete_with_errors_naming(run: subprocess.CompletedProcess, fault: str) -> list[str]:
    """The run ended with its summary and exit 1, every contract it ran an error naming parse_stream and ``fault``.

    ``fault`` is a regular expression.
    """
    out = run.stdout
    assert run.returncode == 1, out[-3000:] + run.stderr[-3000:]
    assert "interrupted" not in out + run.stderr, out[-3000:]
    assert "by rule level and capability:" in out, f"no summary:\n{out[-3000:]}"
    summary = out.splitlines()[-1]
    assert re.fullmatch(r"0 passed, 0 failed, [1-9]\d* error", summary), summary
    errors = [line for line in out.splitlines() if re.fullmatch(r"\s*ERROR  \[\w+\] \S+", line)]
    assert len(errors) == int(summary.split(", ")[2].split()[0]), out[-3000:]
    details = [line for line in out.splitlines() if re.match(r" {17}Adapter(Fault|Timeout): ", line)]
    assert len(details) == len(errors) and all("parse_stream(b'data: " in line and re.search(fault, line) for line in details), "\n".join(details)
    return errors


FAULTS = {
    "exits": r"called os\._exit\(3\), which would end the harness's process",
    "exits_swallowed": r"called os\._exit\(3\), which would end the harness's process",
    "raises_keyboard_interrupt": "raised KeyboardInterrupt, a BaseException that is not an Exception",
    "raises_system_exit": "raised SystemExit: 0, a BaseException that is not an Exception",
    "raises_generator_exit": "raised GeneratorExit, a BaseException that is not an Exception",
    "raises_own_base_exception": "raised OwnBaseException: stop, a BaseException that is not an Exception",
    "returns_nested": "returned a value nested deeper than 100 levels",
    "returns_huge": "returned a value larger than 4,000,000 items and characters",
}


@pytest.mark.parametrize("adapter", sorted(FAULTS))
def test_an_adapter_that_ends_stops_or_floods_the_run_is_an_error_of_each_contract(adapter):
    run = _run_check("--adapter", f"sample_adapters:{adapter}", "-k", "index_accumulation or framing")
    _complete_with_errors_naming(run, FAULTS[adapter])


def test_a_spinning_adapter_times_out_in_each_contract_and_the_run_completes():
    run = _run_check("--adapter", "sample_adapters:spins", "--adapter-timeout", "1", "-k", "index_accumulation")
    # Hypothesis replays the example that hung: that call is not made again, and says which one hung.
    _complete_with_errors_naming(run, r"did not return within 1 s \(--adapter-timeout\); the call was abandoned"
                                      r"|not called: parse_stream\(b'data: .* already hung in this contract")


def test_an_abandoned_spinning_call_is_stopped():
    from sample_adapters import spins

    from harness.under_test.guard import AdapterTimeout, GuardedAdapter

    guarded = GuardedAdapter(spins, spins.name, timeout=0.2)
    with pytest.raises(AdapterTimeout, match=r"parse_stream\(b'tool_calls'\) did not return within 0.2 s"):
        guarded.parse_stream(b"tool_calls")
    abandoned = [t for t in threading.enumerate() if t.name == "adapter parse_stream"]
    assert len(abandoned) == 1, abandoned
    abandoned[0].join(60)  # a bound on the wait, not a claim about time: it ends at once, or never
    assert not abandoned[0].is_alive(), "the abandoned call still spins, taking the CPU from the rest of the run"


def test_a_bridge_reply_with_nan_or_infinity_is_an_error_naming_the_request():
    bridge = f"{sys.executable} {TESTS / 'bridges' / 'nan.py'}"
    run = _run_check("--adapter-cmd", bridge, "-k", "index_accumulation")
    out = run.stdout
    assert run.returncode == 1, out[-3000:] + run.stderr[-3000:]
    assert re.fullmatch(r"0 passed, 0 failed, [1-9]\d* error", out.splitlines()[-1]), out.splitlines()[-1]
    assert re.search(r"bridge error on request #\d+ parse_stream\(body=b'data: .*malformed reply line: "
                     r"not JSON \(NaN is not a JSON value\)", out), out[-3000:]


def test_a_bridge_answering_30_mb_replies_is_refused_unread():
    bridge = f"{sys.executable} {TESTS / 'bridges' / 'huge.py'} 30"
    run = _run_check("--adapter-cmd", bridge, "-k", "framing")
    out = run.stdout
    assert run.returncode == 1, out[-3000:] + run.stderr[-3000:]
    assert re.search(r"bridge error on request #\d+ parse_stream\(body=b'data: .*a reply line of 31457\d+ bytes, "
                     r"over the limit of 8388608 bytes; it was dropped unread", out), out[-3000:]
