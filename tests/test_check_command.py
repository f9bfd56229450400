"""``harness check`` and the plugin: adapter selection, not-applicable reporting, exit status."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rules_page import contract_formats, contract_of

TESTS = Path(__file__).parent


def _check(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    inherited = {k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}
    full_env = {**inherited, "PYTHONPATH": str(TESTS), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", *args],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=300,
    )


def _not_applicable(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.strip().startswith("NOT APPLICABLE")]


REFERENCES = [  # (adapter spec, its name, its format, at least this many contracts of the format)
    ("harness.reference:adapter", "reference", "chat", 150),
    ("harness.reference:anthropic_adapter", "reference-anthropic", "anthropic", 20),
    ("harness.reference:responses_adapter", "reference-responses", "openai-responses", 23),
    ("harness.reference:gemini_adapter", "reference-gemini", "gemini", 21),
]


@pytest.mark.parametrize(("spec", "name", "format", "least"), REFERENCES, ids=[r[2] for r in REFERENCES])
def test_each_reference_passes_every_contract_of_its_format_and_shows_no_other(spec, name, format, least,
                                                                                reference_check):
    # The README's command for each format (the session's one run of it).
    check = reference_check(format)
    assert check.spec == spec, f"the {format} row names {check.spec} as its reference, expected {spec}"
    run = check.run
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr
    assert run.stdout.startswith(f"adapter under test: {name} ({spec}) format: {format}"), run.stdout[:500]
    formats = contract_formats()
    lines = run.stdout.splitlines()
    passed = [line for line in lines if line.strip().startswith("PASSED")]
    assert len(passed) >= least, f"{len(passed)} passed, expected at least {least}"
    named = [line for line in lines if "::" in line]
    assert [line for line in named if format not in formats[contract_of(line)]] == []
    assert _not_applicable(run.stdout) == [], "a reference offers every capability its format's contracts call"
    others = [line for line in lines if re.fullmatch(r"\d+ contracts of other formats \([^)]+\) not run; -v lists them", line)]
    assert len(others) == 1 and f"{format}," not in others[0] and f"{format})" not in others[0], others
    assert " 0 failed" in lines[-1] and "not applicable" not in lines[-1], lines[-1]


def test_codec_only_adapter_reports_kernel_contracts_not_applicable():
    run = _check("--adapter", "sample_adapters:codec_only")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "adapter under test: codec-only sample" in run.stdout
    lines = run.stdout.splitlines()
    batch = [line for line in lines if "test_batch_pairing.py::" in line]
    assert batch and all(line.strip().startswith("NOT APPLICABLE") for line in batch), "\n".join(batch)
    assert not any(line.strip().startswith("PASSED") and "test_batch_pairing" in line for line in lines)
    summary = lines[-1]
    assert "not applicable" in summary and "0 failed" in summary, summary


def test_env_var_selects_the_adapter_and_a_broken_adapter_fails_the_check():
    # The top-level reasoning contracts are the ones this adapter breaks: a slice proves the selection.
    run = _check("-k", "top_level", env={"HARNESS_ADAPTER": "sample_adapters:reasoning_in_content"})
    assert run.returncode == 1, run.stdout + run.stderr
    assert "adapter under test: reasoning-in-content sample" in run.stdout
    failed = [line for line in run.stdout.splitlines() if line.strip().startswith("FAILED")]
    assert any("test_reasoning_top_level.py" in line for line in failed), run.stdout
    assert "expected a top-level 'reasoning_content' key" in run.stdout


@pytest.mark.parametrize(
    "spec, message",
    [("no_colon", "must look like 'package.module:attribute'"), ("sample_adapters:nope", "has no attribute 'nope'")],
)
def test_bad_adapter_spec_is_a_usage_error_naming_the_spec(spec, message):
    run = _check("--adapter", spec)
    assert run.returncode == 2, run.stdout + run.stderr
    assert message in run.stdout + run.stderr


def test_pytest_header_names_the_adapter_and_nightly_prints_its_seed():
    contracts = Path(__import__("harness.contracts", fromlist=["x"]).__file__).parent
    run = subprocess.run(
        [sys.executable, "-m", "pytest", str(contracts / "test_reasoning_omit_empty.py"), "-p", "no:cacheprovider",
         "--harness-profile", "nightly", "--adapter", "sample_adapters:codec_only"],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(TESTS)}, timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "harness: adapter under test: codec-only sample" in run.stdout
    assert "harness: hypothesis seed:" in run.stdout and "--hypothesis-seed=" in run.stdout
