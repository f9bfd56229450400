"""``harness probe --format openai-responses|gemini|bedrock`` against each format's example agent.

Each probe passes its agent and fails the agent's seeded bug (Responses: the
reasoning item dropped from the replayed input; Gemini: a thoughtSignature
lost; Bedrock: reasoning signatures joined across blocks) with the provider's
own 400.
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness import exit_codes
from harness.loopback.wires import WIRES
from harness.rules.bedrock_history import REASONING_AS_SENT
from harness.rules.gemini_history import CALL_SIGNED
from harness.rules.responses_history import CALL_WITH_REASONING

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
TOOLS = ["--tool", "get_weather", "--tool", "list_cities"]


@dataclass(frozen=True)
class Probed:
    format: str
    agent: Path
    rule: str  # the rule its seeded bug breaks
    scenario: str  # a scenario that meets the bug
    bug: str
    refusal: str  # the provider's 400 text


PROBED = [
    Probed("openai-responses", EXAMPLES / "responses-agent" / "agent.py", CALL_WITH_REASONING,
           "reasoning-tools", "drop-reasoning",
           "of type 'function_call' was provided without its required 'reasoning' item"),
    Probed("gemini", EXAMPLES / "gemini-agent" / "agent.py", CALL_SIGNED, "signed-calls", "drop-signature",
           "Function call is missing a thought_signature in functionCall parts"),
    Probed("bedrock", EXAMPLES / "bedrock-agent" / "agent.py", REASONING_AS_SENT, "signed-reasoning",
           "join-signatures", "blocks in the latest assistant message cannot be modified"),
]


@pytest.fixture(params=PROBED, ids=[p.format for p in PROBED])
def probed(request) -> Probed:
    return request.param


def _probe(probed: Probed, tmp_path, *args, bug: str | None = None, agent: str | None = None):
    flag = f" --bug {bug}" if bug else ""
    template = agent or f"{sys.executable} {probed.agent} --base-url {{base_url}} --session {{session}}{flag} {{prompt}}"
    env = {"AGENT_STATE_DIR": str(tmp_path / "state"), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "harness", "probe", "--format", probed.format, *TOOLS,
                           "--agent-cmd", template, *args], capture_output=True, text=True, timeout=300, env=env)


def _cases(report: Path) -> dict[str, str]:
    """"classname::name" of each testcase -> "failed" or "passed" (or "skipped"), from the JUnit file."""
    out = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        out[f"{case.get('classname')}::{case.get('name')}"] = ("failed" if case.find("failure") is not None
                                 else "skipped" if case.find("skipped") is not None else "passed")
    return out


def test_the_agent_passes_the_whole_suite(probed, tmp_path):
    report = tmp_path / "junit.xml"
    run = _probe(probed, tmp_path, "--junitxml", str(report))
    assert run.returncode == exit_codes.OK, run.stdout[-3000:] + run.stderr[-2000:]
    cases = _cases(report)
    assert cases and set(cases.values()) == {"passed"}, cases
    assert sum(probed.rule in name for name in cases) == len(WIRES[probed.format].suite), sorted(cases)
    assert f"provider profile: {probed.format}" in run.stdout, run.stdout[:1000]


def test_the_probe_fails_the_seeded_bug_with_the_providers_400(probed, tmp_path):
    report, markdown = tmp_path / "junit.xml", tmp_path / "r.md"
    run = _probe(probed, tmp_path, "--scenario", probed.scenario, "--junitxml", str(report),
                 "--markdown", str(markdown), bug=probed.bug)
    assert run.returncode == exit_codes.CONTRACTS_FAILED, run.stdout[-3000:] + run.stderr[-2000:]
    failed = {n for n, s in _cases(report).items() if s == "failed"}
    assert any(probed.rule in n for n in failed), failed
    refusal = probed.refusal
    assert refusal in report.read_text(encoding="utf-8"), f"the 400 text {refusal!r} is not in the JUnit finding"
    assert refusal in markdown.read_text(encoding="utf-8"), f"the 400 text {refusal!r} is not in the Markdown report"
    assert f"{probed.format} answered HTTP 400" in markdown.read_text(encoding="utf-8"), "the status is not reported"


def test_an_agent_that_never_calls_the_provider_is_never_green(probed, tmp_path):
    run = _probe(probed, tmp_path, "--scenario", "zero-argument-tool", agent=f"{sys.executable} -c pass {{base_url}}")
    assert run.returncode == exit_codes.NOTHING_TESTED, run.stdout[-2000:] + run.stderr[-2000:]
