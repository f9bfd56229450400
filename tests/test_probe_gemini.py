"""``harness probe --format gemini`` against examples/gemini-agent: it passes the agent, fails its lost signature."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness import exit_codes
from harness.rules.gemini_history import CALL_SIGNED

pytest.importorskip("httpx")

AGENT = Path(__file__).resolve().parents[1] / "examples" / "gemini-agent" / "agent.py"
TOOLS = ["--tool", "get_weather", "--tool", "list_cities"]
REFUSAL = "Function call is missing a thought_signature in functionCall parts"


def _probe(tmp_path, *args, bug: str | None = None, agent: str | None = None):
    flag = f" --bug {bug}" if bug else ""
    template = agent or f"{sys.executable} {AGENT} --base-url {{base_url}} --session {{session}}{flag} {{prompt}}"
    env = {"AGENT_STATE_DIR": str(tmp_path / "state"), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "harness", "probe", "--format", "gemini", *TOOLS,
                           "--agent-cmd", template, *args], capture_output=True, text=True, timeout=300, env=env)


def _cases(report: Path) -> dict[str, str]:
    """"classname::name" of each testcase -> "failed" or "passed" (or "skipped"), from the JUnit file."""
    out = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        out[f"{case.get('classname')}::{case.get('name')}"] = ("failed" if case.find("failure") is not None
                                 else "skipped" if case.find("skipped") is not None else "passed")
    return out


def test_the_agent_passes_the_whole_gemini_suite(tmp_path):
    report = tmp_path / "junit.xml"
    run = _probe(tmp_path, "--junitxml", str(report))
    assert run.returncode == exit_codes.OK, run.stdout[-3000:] + run.stderr[-2000:]
    cases = _cases(report)
    assert cases and set(cases.values()) == {"passed"}, cases
    assert sum(CALL_SIGNED in name for name in cases) == 5, sorted(cases)
    assert "provider profile: gemini" in run.stdout, run.stdout[:1000]


def test_the_probe_fails_the_lost_signature_with_geminis_400(tmp_path):
    report, markdown = tmp_path / "junit.xml", tmp_path / "r.md"
    run = _probe(tmp_path, "--scenario", "signed-calls", "--junitxml", str(report), "--markdown", str(markdown),
                 bug="drop-signature")
    assert run.returncode == exit_codes.CONTRACTS_FAILED, run.stdout[-3000:] + run.stderr[-2000:]
    failed = {n for n, s in _cases(report).items() if s == "failed"}
    assert any(CALL_SIGNED in n for n in failed), failed
    assert REFUSAL in report.read_text(encoding="utf-8"), f"the 400 text {REFUSAL!r} is not in the JUnit finding"
    assert REFUSAL in markdown.read_text(encoding="utf-8"), f"the 400 text {REFUSAL!r} is not in the Markdown report"
    assert "gemini answered HTTP 400" in markdown.read_text(encoding="utf-8"), "the status is not reported"


def test_an_agent_that_never_calls_the_provider_is_never_green(tmp_path):
    run = _probe(tmp_path, "--scenario", "zero-argument-tool", agent=f"{sys.executable} -c pass {{base_url}}")
    assert run.returncode == exit_codes.NOTHING_TESTED, run.stdout[-2000:] + run.stderr[-2000:]
