"""What ``harness check`` tells a user: capabilities per method, levels, failures in full, no green without a test."""

import os
import re
import subprocess
import sys
from pathlib import Path

from harness.mutation.junit_read import DEFAULT_ASSERTION_PATTERN, read_junit
from harness.under_test.failures import describe
from rules_page import contract_of, contracts

TESTS = Path(__file__).parent


def _check(*args: str) -> subprocess.CompletedProcess:
    env = {**{k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}, "PYTHONPATH": str(TESTS)}
    return subprocess.run(
        [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", *args],
        capture_output=True, text=True, env=env, timeout=600,
    )


def _statuses(out: str) -> dict[str, str]:
    """nodeid -> status word from the per-contract lines."""
    found = {}
    for line in out.splitlines():
        words = line.split()
        if len(words) >= 3 and words[-2].startswith("[") and "::" in words[-1]:
            status = " ".join(words[:-2])
            found[words[-1]] = status
    return found


def test_a_stream_only_adapter_runs_its_stream_contracts_and_nothing_else():
    run = _check("--adapter", "sample_adapters:stream_only")
    assert run.returncode == 0, run.stdout + run.stderr
    statuses = _statuses(run.stdout)
    table = contracts()
    stream = {k: v for k, v in statuses.items() if table[contract_of(k)][0] == "stream" and "chat" in table[contract_of(k)][1]}
    assert stream and set(stream.values()) == {"PASSED"}, stream
    others = {k: v for k, v in statuses.items() if k not in stream}
    assert others and set(others.values()) == {"NOT APPLICABLE"}, others
    assert "capabilities: stream" in run.stdout.splitlines()[0]


def test_an_adapter_with_no_recognised_method_is_never_green():
    run = _check("--adapter", "sample_adapters:no_capability")
    assert run.returncode == 9, run.stdout + run.stderr
    assert "nothing was tested: no contract applied to adapter no-capability sample" in run.stdout
    assert "its public methods: chat" in run.stdout
    assert "stream (parse_stream)" in run.stdout and "codec = messages + request + stream" in run.stdout


def test_require_turns_a_missing_capability_into_a_usage_error():
    run = _check("--adapter", "sample_adapters:stream_only", "--require", "stream,messages", "-k", "framing")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "does not offer messages" in run.stdout + run.stderr


def test_a_method_raising_not_implemented_makes_its_contracts_not_applicable():
    run = _check("--adapter", "sample_adapters:transform_not_implemented", "-k", "thinking or top_level")
    assert run.returncode == 0, run.stdout + run.stderr
    statuses = _statuses(run.stdout)
    transform = {k: v for k, v in statuses.items() if k.startswith("test_thinking_switch")}
    assert transform and set(transform.values()) == {"NOT APPLICABLE"}, statuses
    assert any(k.startswith("test_reasoning_top_level") and v == "PASSED" for k, v in statuses.items()), statuses


def test_levels_select_and_every_line_names_its_level():
    run = _check("--levels", "robust", "--adapter", "sample_adapters:stream_only")
    assert run.returncode == 0, run.stdout + run.stderr
    lines = [line for line in run.stdout.splitlines() if "::" in line and line.startswith(" ")]
    assert lines and all("[robust]" in line for line in lines), "\n".join(lines)
    assert "levels: robust" in run.stdout


def test_a_crash_in_the_adapter_shows_its_minimal_example_and_the_adapters_own_frames():
    run = _check("--adapter", "sample_adapters:crashing_stream", "-k", "interleaving")
    assert run.returncode == 1, run.stdout + run.stderr
    out = run.stdout
    assert "KeyError: 'call slot 2'" in out, out
    # The property's pinned examples run first: the one that fails is shown as Hypothesis names it.
    assert re.search(r"Failing (test case|explicit example): test_any_interleaving_keeps_each_calls_arguments\(", out), out
    assert "raised in the adapter:" in out and "sample_adapters.py" in out and "in _tool_calls_of" not in out, out
    assert "in parse_stream" in out and "raise KeyError" in out, out


def test_every_distinct_failure_is_shown_with_its_example():
    def crash():
        raise KeyError("slot")

    failures_found = []
    for thrower, note in ((lambda: crash(), "Falsifying example: f(x=1)"), (lambda: _fail(), "Falsifying example: f(x=2)")):
        try:
            thrower()
        except Exception as exc:
            exc.add_note(note)
            failures_found.append(exc)
    lines = describe(ExceptionGroup("Hypothesis found 2 distinct failures.", failures_found))
    text = "\n".join(lines)
    assert lines[0].startswith("2 distinct failures: [1] KeyError: 'slot'; [2] expected 1, got 2"), lines[0]
    assert "[1/2] KeyError: 'slot'" in text and "[2/2] expected 1, got 2" in text, text
    assert "Falsifying example: f(x=1)" in text and "Falsifying example: f(x=2)" in text, text
    assert "raised in the adapter:" in text and "in crash" in text, text
    assert "assert 1 == 2" not in text, "pytest's rewrite of the assert expression should not be shown"


def _fail():
    raise AssertionError("expected 1, got 2\nassert 1 == 2")


def test_header_comes_first_and_names_levels_policies_profile_and_seed():
    run = _check("--adapter", "sample_adapters:stream_only", "-k", "framing", "--hypothesis-seed", "1234",
                 "--policy", "effort.medium=high")
    assert run.returncode == 0, run.stdout + run.stderr
    head = run.stdout.splitlines()[:7]
    assert head[0].startswith("adapter under test: stream-only sample"), head
    assert "levels: all" in head and "hypothesis profile: ci" in head, head
    assert "policies: effort.medium=high (others default)" in head, head
    assert "hypothesis seed: 1234 (replay with --hypothesis-seed=1234)" in head, head


def test_a_bad_policy_is_a_usage_error_naming_it():
    run = _check("--policy", "effort.medium=huge", "-k", "framing")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "effort.medium" in run.stdout + run.stderr and "huge" in run.stdout + run.stderr


def test_a_policy_table_in_the_projects_pyproject_is_read(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.harness.policy]\n"effort.medium" = "high"\n')
    env = {**{k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}, "PYTHONPATH": str(TESTS)}
    run = subprocess.run(
        [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", "-k", "effort_ladder"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600,
    )
    # The reference sends low for medium, so a project that decided "high" sees the policy contract fail.
    assert run.returncode == 1, run.stdout + run.stderr
    assert "policies: effort.medium=high (others default)" in run.stdout
    failed = [line for line in run.stdout.splitlines() if line.strip().startswith("FAILED")]
    assert failed and all("[policy" in line for line in failed), "\n".join(failed)


def test_junit_and_markdown_carry_level_and_capability(tmp_path):
    junit, markdown = tmp_path / "junit.xml", tmp_path / "summary.md"
    run = _check("--adapter", "sample_adapters:reasoning_in_content", "-k", "top_level or framing",
                 "--junitxml", str(junit), "--markdown", str(markdown))
    assert run.returncode == 1, run.stdout + run.stderr
    import xml.etree.ElementTree as ET

    cases = list(ET.parse(junit).getroot().iter("testcase"))
    props = [{p.get("name"): p.get("value") for p in case.iter("property")} for case in cases]
    assert cases and all(p.get("level") in ("wire", "robust", "provider", "policy") and p.get("capability")
                         for p in props), props
    # A failed contract's JUnit type is its exception's, so a runner reading the file (the known-bug
    # engine on a team's own command, with its default pattern) tells a failed assertion from an error.
    failed = {case.get("name"): case.find("failure") for case in cases if case.find("failure") is not None}
    assert failed and all(f.get("type") == "AssertionError" for f in failed.values()), {
        name: f.get("type") for name, f in failed.items()}
    read = read_junit(junit, DEFAULT_ASSERTION_PATTERN)
    assert {e["outcome"] for e in read.values() if e["outcome"] != "passed"} == {"assertion"}, read
    text = markdown.read_text()
    assert "| provider | messages | 0 | 3 | 0 | 0 |" in text, text
    assert "`test_reasoning_top_level.py::test_reasoning_is_top_level_beside_content`" in text, text


def test_the_nightly_profile_prints_its_seed_for_replay():
    run = _check("--adapter", "sample_adapters:stream_only", "-k", "interleaving")
    first = run.stdout
    assert "hypothesis seed" not in first, "the ci profile is derandomized and has no seed to print"
    env = {**{k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}, "PYTHONPATH": str(TESTS)}
    nightly = subprocess.run(
        [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "nightly", "-k", "framing",
         "--adapter", "sample_adapters:stream_only"],
        capture_output=True, text=True, env=env, timeout=600,
    )
    assert nightly.returncode == 0, nightly.stdout + nightly.stderr
    seed_lines = [line for line in nightly.stdout.splitlines()[:7] if line.startswith("hypothesis seed: ")]
    assert seed_lines and "(replay with --hypothesis-seed=" in seed_lines[0], nightly.stdout[:800]
