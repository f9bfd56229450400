"""``harness probe --format anthropic`` against examples/anthropic-agent: it passes the agent, fails either bug."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import anthropic  # noqa: F401  # the test extra installs the SDK the example agent uses: its absence fails
import pytest

from harness import exit_codes


AGENT = Path(__file__).resolve().parents[1] / "examples" / "anthropic-agent" / "agent.py"
TOOLS = ["--tool", "get_weather", "--tool", "list_cities"]


def _probe(tmp_path, *args, bug: str | None = None, agent: str | None = None):
    flag = f" --bug {bug}" if bug else ""
    template = agent or f"{sys.executable} {AGENT} --base-url {{base_url}} --session {{session}}{flag} {{prompt}}"
    env = {"AGENT_STATE_DIR": str(tmp_path / "state"), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "harness", "probe", "--format", "anthropic", *TOOLS,
                           "--agent-cmd", template, *args], capture_output=True, text=True, timeout=300, env=env)


def _cases(report: Path) -> dict[str, str]:
    """testcase name -> "failed" or "passed" (or "skipped"), from the JUnit file."""
    out = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        out[case.get("name")] = ("failed" if case.find("failure") is not None
                                 else "skipped" if case.find("skipped") is not None else "passed")
    return out


def test_the_agent_passes_the_whole_messages_suite(tmp_path):
    report = tmp_path / "junit.xml"
    run = _probe(tmp_path, "--junitxml", str(report), "--markdown", str(tmp_path / "r.md"))
    assert run.returncode == exit_codes.OK, run.stdout[-3000:] + run.stderr[-2000:]
    cases = _cases(report)
    assert cases and set(cases.values()) == {"passed"}, cases
    assert any("anthropic-thinking-unmodified" in name for name in cases), sorted(cases)


@pytest.mark.parametrize("bug, text", [
    ("reorder-thinking", "blocks in the latest assistant message cannot be modified"),
    ("drop-signature", "Invalid `signature` in `thinking` block"),
])
def test_the_probe_fails_each_bug_with_anthropics_400(tmp_path, bug, text):
    report, markdown = tmp_path / "junit.xml", tmp_path / "r.md"
    run = _probe(tmp_path, "--scenario", "interleaved-thinking", "--junitxml", str(report), "--markdown",
                 str(markdown), bug=bug)
    assert run.returncode == exit_codes.CONTRACTS_FAILED, run.stdout[-3000:] + run.stderr[-2000:]
    failed = {n for n, s in _cases(report).items() if s == "failed"}
    assert any("anthropic-thinking-unmodified" in n for n in failed), failed
    assert text in report.read_text(encoding="utf-8"), f"the 400 text {text!r} is not in the JUnit finding"
    assert text in markdown.read_text(encoding="utf-8"), f"the 400 text {text!r} is not in the Markdown report"


def test_an_agent_that_never_calls_the_provider_is_never_green(tmp_path):
    run = _probe(tmp_path, "--scenario", "zero-argument-tool", agent=f"{sys.executable} -c pass {{base_url}}")
    assert run.returncode == exit_codes.NOTHING_TESTED, run.stdout[-2000:] + run.stderr[-2000:]
