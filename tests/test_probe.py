"""harness probe against three unmodified agents, each with a known bug the probe must catch."""

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import vercel_sdk

from harness.loopback.probe import ProbeUsage, agent_argv

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ["--tool", "get_weather", "--tool", "read_file"]
ARGS = "--base-url {base_url} --session {session} --provider {provider}"
AGENTS = {
    "bridge-kernel": (f"{sys.executable} examples/bridge-kernel/agent.py {ARGS}", "accumulate-by-position"),
    "openai-python": (f"{sys.executable} examples/openai-agent/agent.py {ARGS}", "save-results-without-calls"),
    "vercel-ai": (f"node examples/vercel-agent/agent.js {ARGS}", "save-text-only"),
}


def _probe(tmp_path, *args, bug: str | None = None, agent: str = "bridge-kernel"):
    command, _ = AGENTS[agent]
    template = command + (f" --bug {bug}" if bug else "") + " {prompt}"
    env = {**os.environ, "AGENT_STATE_DIR": str(tmp_path / "sessions")}
    return subprocess.run([sys.executable, "-m", "harness", "probe", *TOOLS, "--agent-cmd", template, *args],
                          capture_output=True, text=True, timeout=600, cwd=ROOT, env=env)


def _needs(agent):
    """The Vercel agent's packages come with the README's test command: without them the test fails, saying why."""
    missing = vercel_sdk.missing() if agent == "vercel-ai" else None
    if missing is not None:
        pytest.fail(missing, pytrace=False)


# The Vercel AI SDK itself loses the arguments of calls a gateway numbers all at index 0 (a robust-level
# shape, outside the format), so its agent is held to the other levels.
LEVELS = {"vercel-ai": ["--levels", "wire,provider,policy"]}


@pytest.mark.parametrize("profile", ["openai", "deepseek"])
@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_the_fixed_agent_passes_the_whole_suite(tmp_path, agent, profile):
    _needs(agent)
    run = _probe(tmp_path, "--profile", profile, *LEVELS.get(agent, []), agent=agent)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " 0 failed" in run.stdout.splitlines()[-1]


CAUGHT_BY = {  # the known bug of each agent, and the checks that must catch it
    "bridge-kernel": ("parallel-12", {"parallel-12::calls-carried"}),
    "openai-python": ("parallel-12", {"parallel-12::orphan-tool-message", "parallel-12::history-replayed"}),
    "vercel-ai": ("parallel-12", {"parallel-12::history-replayed"}),
}


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_the_probe_catches_the_agents_known_bug(tmp_path, agent):
    _needs(agent)
    scenario, checks = CAUGHT_BY[agent]
    report = tmp_path / "junit.xml"
    run = _probe(tmp_path, "--scenario", scenario, "--junitxml", str(report), "--markdown", str(tmp_path / "r.md"),
                 bug=AGENTS[agent][1], agent=agent)
    assert run.returncode == 1, run.stdout[-4000:]
    failed = {f"{case.get('classname').removeprefix('probe.')}::{case.get('name')}"
              for case in ET.parse(report).getroot().iter("testcase") if case.find("failure") is not None}
    assert checks <= failed, (failed, run.stdout[-3000:])
    assert "sent: " in run.stdout, "each failure shows the excerpt of the request that broke the rule"
    assert "## Failures" in (tmp_path / "r.md").read_text(encoding="utf-8")


def test_a_deepseek_era_mismatch_is_caught_with_the_providers_answer(tmp_path):
    command, _ = AGENTS["bridge-kernel"]
    env = {**os.environ, "AGENT_STATE_DIR": str(tmp_path)}
    run = subprocess.run([sys.executable, "-m", "harness", "probe", *TOOLS, "--profile", "deepseek",
                          "--scenario", "thinking-tools", "--agent-cmd", command + " --era r1 {prompt}"],
                         capture_output=True, text=True, timeout=600, cwd=ROOT, env=env)
    assert run.returncode == 1
    assert "FAILED  [provider] thinking-tools::reasoning-missing" in run.stdout
    assert "The reasoning_content in the thinking mode must be passed back to the API." in run.stdout


def test_placeholders_are_replaced_inside_each_argument():
    values = {"base_url": "http://127.0.0.1:1/v1", "session": "s 1", "prompt": "what's up?", "provider": "openai",
              "model": "m"}
    assert agent_argv("agent --url={base_url} --session {session} {prompt}", values) == [
        "agent", "--url=http://127.0.0.1:1/v1", "--session", "s 1", "what's up?"]
    with pytest.raises(ProbeUsage, match="no {base_url}"):
        agent_argv("agent {prompt}", values)


def test_usage_errors_and_nothing_tested(tmp_path):
    bad = subprocess.run([sys.executable, "-m", "harness", "probe", "--agent-cmd", "agent {prompt}"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "no {base_url}" in bad.stderr
    unknown = subprocess.run([sys.executable, "-m", "harness", "probe", "--scenario", "nope", "--agent-cmd",
                              "agent {base_url}"], capture_output=True, text=True, timeout=60)
    assert unknown.returncode == 2 and "unknown scenario" in unknown.stderr
    # No tool allowed: no call is streamed, so the only robust check has nothing to look at.
    command, _ = AGENTS["bridge-kernel"]
    nothing = subprocess.run([sys.executable, "-m", "harness", "probe", "--levels", "robust", "--scenario",
                              "index-zero", "--agent-cmd", command + " {prompt}"], capture_output=True, text=True,
                             timeout=120, cwd=ROOT, env={**os.environ, "AGENT_STATE_DIR": str(tmp_path)})
    assert nothing.returncode == 9, nothing.stdout


TEXT_AGENT = (f"{sys.executable} tests/agents/text_replay_agent.py --base-url {{base_url}} --session {{session}} "
              "{prompt}")


@pytest.mark.parametrize("tools", [["final_answer", "get_weather"], ["get_weather"]], ids=["ends-by-tool", "observes"])
def test_an_agent_of_another_style_passes_every_wire_check(tmp_path, tools):
    """Tool rounds replayed as text, a turn ended through a final-answer tool, a wrapped prompt: habits, not rules.

    With final_answer allowed the agent ends every turn on its first tool round; without it, it replays rounds as
    "Calling tools" / "Observation" text until its step limit. Either way every wire check holds, and its habits
    show only as policy findings.
    """
    args = [arg for name in tools for arg in ("--tool", name)]
    run = subprocess.run([sys.executable, "-m", "harness", "probe", *args, "--agent-cmd", TEXT_AGENT],
                         capture_output=True, text=True, timeout=600, cwd=ROOT,
                         env={**os.environ, "AGENT_STATE_DIR": str(tmp_path)})
    levels = {m[1]: (int(m[2]), int(m[3])) for m in re.finditer(r"(?m)^  (\w+) +(\d+) passed, (\d+) failed",
                                                                  run.stdout)}
    assert levels["wire"][1] == 0 and levels["wire"][0] > 0, (levels, run.stdout[-4000:])
    assert levels["policy"][1] > 0, f"the agent's style shows as policy findings: {levels}"
    failed = set(re.findall(r"FAILED  \[\w+\] [\w-]+::([\w-]+)", run.stdout))
    assert failed <= {"calls-structured", "turn-ends-in-text"}, (failed, run.stdout[-4000:])
