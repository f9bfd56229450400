"""harness probe against agents that misbehave as programs: silent, noisy, chatty, or leaving a daemon behind.

The probe's verdict must come from the wire: an agent that never asks the
provider tested nothing (exit 9), whatever it prints; the reports stay valid
whatever the agent writes; the agent timeout bounds the run even when a
daemon holds the agent's output open; and only a bounded tail of that output
is kept.
"""

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from harness import exit_codes
from harness.loopback.probe import KEPT_OUTPUT
from harness.processes import run_owned

ROOT = Path(__file__).resolve().parents[1]
AGENTS = ROOT / "tests" / "agents"


def _probe(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "harness", "probe", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def _agent(name, *args):
    return " ".join([sys.executable, str(AGENTS / name), *args, "{base_url}"])


def test_an_agent_that_never_calls_the_provider_tested_nothing():
    run = _probe("--scenario", "usage", "--scenario", "stream-error", "--agent-cmd", _agent("silent.py"))
    assert run.returncode == exit_codes.NOTHING_TESTED, (run.returncode, run.stdout, run.stderr)
    assert "nothing was tested" in run.stderr and "call the provider" in run.stderr, run.stderr
    last = run.stdout.strip().splitlines()[-1]
    assert last.startswith("0 passed, 0 failed"), f"every check over zero requests is not applicable; got {last!r}"


def test_reports_stay_valid_for_any_agent_output(tmp_path):
    junit, markdown = tmp_path / "probe.xml", tmp_path / "probe.md"
    run = _probe("--scenario", "usage", "--agent-cmd", _agent("noisy.py"), "--junitxml", str(junit),
                 "--markdown", str(markdown))
    assert run.returncode == exit_codes.CONTRACTS_FAILED, (run.stdout, run.stderr)
    cases = {case.get("name"): case for case in ET.parse(junit).getroot().iter("testcase")}
    failure = cases["agent-finished"].find("failure")
    assert failure is not None, "the agent exited 3: agent-finished fails"
    assert "\\x1b[1m| table" in failure.text and "exited with status 3" in failure.get("message"), failure.text
    text = markdown.read_text(encoding="utf-8")
    assert not any(ord(c) < 32 and c != "\n" for c in text), f"control characters in the Markdown: {text!r}"
    assert "```" not in text, "a fence from the agent's output would swallow the rest of the report"
    failures = text.split("## Failures", 1)[1]
    quoted = [line for line in failures.splitlines() if line.startswith("  - output: ")]
    assert quoted and all(line.count("`") == 2 for line in quoted), f"one inline code span per excerpt: {quoted}"


def test_a_daemon_holding_the_agents_stdout_ends_at_the_agent_timeout(tmp_path):
    pids = tmp_path / "pids"
    run = _probe("--scenario", "usage", "--agent-timeout", "2", "--agent-cmd",
                 _agent("daemon_holds_stdout.py", str(pids)))
    agent, daemon = (int(n) for n in pids.read_text().split())
    try:
        assert run.returncode == exit_codes.CONTRACTS_FAILED, (run.stdout, run.stderr)
        assert "usage::agent-finished" in run.stdout and "ran past its time limit" in run.stdout, run.stdout
        try:
            os.killpg(agent, 0)
        except ProcessLookupError:
            pass
        else:
            raise AssertionError(f"the agent's process group {agent} outlived the probe")
    finally:
        os.kill(daemon, 9)  # in a session of its own, out of the probe's reach: this test started it


def test_only_a_bounded_tail_of_a_huge_output_is_kept():
    size = 32  # MiB: far over what is kept, small enough for a shared test machine
    proc, out, err, timed_out = run_owned([sys.executable, str(AGENTS / "big_output.py"), str(size), "-"], 120,
                                          keep=KEPT_OUTPUT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert not timed_out and proc.returncode == 0
    assert len(out.data) == KEPT_OUTPUT, f"kept {len(out.data)} bytes of stdout, expected the last {KEPT_OUTPUT}"
    assert out.dropped == size * 1024 * 1024 - KEPT_OUTPUT and out.data.endswith(b"x\n")
    assert out.text().startswith(f"[... {out.dropped} earlier bytes not kept ...]")
    assert len(err.data) == 0


def test_an_agent_that_calls_the_provider_is_not_asked_whether_it_does():
    """Only policy checks selected, none with a tool round to judge: the hint names what they lacked."""
    run = _probe("--levels", "policy", "--agent-cmd", _agent("asks_once.py"))
    assert run.returncode == exit_codes.NOTHING_TESTED, (run.returncode, run.stdout[-2000:], run.stderr)
    assert "call the provider" not in run.stderr, run.stderr
    assert "nothing was tested: the agent asked the provider, but no check selected found what it looks at in " \
           "its requests: " in run.stderr and "no tool call was streamed" in run.stderr, run.stderr
