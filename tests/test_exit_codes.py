"""One exit-code table for every subcommand: each code each subcommand can give, and the README's table."""

import os
import re
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness import exit_codes
from harness.cli import main

TESTS = Path(__file__).parent
README = TESTS.parent / "README.md"
ENV = {**{k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}, "PYTHONPATH": str(TESTS)}


def _harness(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "harness", *args], capture_output=True, text=True, env=ENV, cwd=cwd, timeout=600
    )


def test_the_readme_table_lists_every_code_once_with_its_meaning():
    text = README.read_text()
    table = dict(re.findall(r"^\| (\d+) \| ([^|]+) \|$", text, re.M))
    assert {int(code) for code in table} == set(exit_codes.MEANINGS), table
    for code, meaning in exit_codes.MEANINGS.items():
        assert table[str(code)].strip() == meaning, (code, table[str(code)], meaning)
    order = ", ".join(str(code) for code in exit_codes.PRECEDENCE)
    assert f"the first of {order} wins" in " ".join(text.split()), order


# --- check ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, code",
    [
        (["-k", "framing"], exit_codes.OK),
        (["-k", "top_level", "--adapter", "sample_adapters:reasoning_in_content"], exit_codes.CONTRACTS_FAILED),
        (["--levels", "wire,loose"], exit_codes.USAGE),
        (["--adapter", "sample_adapters:missing"], exit_codes.USAGE),
        (["-k", "no_contract_has_this_name"], exit_codes.NOTHING_TESTED),
        (["--adapter", "sample_adapters:no_capability", "-k", "framing"], exit_codes.NOTHING_TESTED),
    ],
    ids=["ok", "failed", "bad-level", "bad-adapter", "nothing-selected", "nothing-applied"],
)
def test_check(args, code):
    run = _harness("check", "--hypothesis-profile", "ci", *args)
    assert run.returncode == code, run.stdout + run.stderr


def test_check_interrupted_says_how_many_contracts_did_not_run():
    proc = subprocess.Popen(
        [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci",
         "--adapter", "sample_adapters:slow_stream"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV,
    )
    lines = []
    for line in proc.stdout:  # results arrive line by line, to a pipe too
        lines.append(line)
        if "::" in line:
            break
    proc.send_signal(signal.SIGINT)
    rest = proc.communicate(timeout=120)[0]
    out = "".join(lines) + rest
    assert proc.returncode == exit_codes.INTERRUPTED, out
    match = re.search(r"interrupted: (\d+) of (\d+) contracts did not run", out)
    assert match and 0 < int(match.group(1)) < int(match.group(2)), out


@pytest.mark.parametrize("command", ["check", "gate", "nightly", "report"])
def test_a_bug_in_the_harness_is_an_internal_error(command, monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise RuntimeError("planted")

    monkeypatch.setattr("harness.cli.check.run_check", broken)
    monkeypatch.setattr("harness.cli.mutate.run_known_bugs", broken)
    monkeypatch.setattr("harness.cli.mutate.run_gate", broken)
    monkeypatch.setattr("harness.cli.nightly.run_nightly", broken)
    monkeypatch.setattr("harness.cli.nightly.run_merge", broken)
    argv = {"report": ["report", "merge", "x.json", "-o", "out"]}.get(command, [command])
    assert main(argv) == exit_codes.INTERNAL
    err = capsys.readouterr().err
    assert "RuntimeError: planted" in err and "internal error" in err


# --- mutate and gate ------------------------------------------------------------------------------

ONE_BUG = textwrap.dedent("""
    [[mutant]]
    id = "accumulate-by-position"
    title = "Streamed tool-call fragments are accumulated by list position"
    incident = "sse-index-accumulation"
    file = "harness/reference/accumulator.py"
    find = "self.accs[index]"
    replace = "self.accs[i]"
    contracts = ["test_sse_index_accumulation.py"]
""")


def test_mutate_usage_error_for_a_missing_catalogue(tmp_path):
    run = _harness("mutate", "--config", str(tmp_path / "none.toml"))
    assert run.returncode == exit_codes.USAGE, run.stdout + run.stderr


def test_mutate_with_nothing_selected_is_not_green(tmp_path):
    catalogue = tmp_path / "mutants.toml"
    catalogue.write_text(ONE_BUG)
    run = _harness("mutate", "--config", str(catalogue), "--shard", "2/2")
    assert run.returncode == exit_codes.NOTHING_TESTED, run.stdout + run.stderr
    assert "nothing was tested" in run.stdout


def test_mutate_baseline_red(tmp_path):
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "calc.py").write_text("x = 1\n")
    (tmp_path / "mutants.toml").write_text(textwrap.dedent("""
        [runner]
        command = "python -c 'import sys; sys.exit(1)'"
        junit = "junit.xml"
        coverage = "lcov.info"

        [[mutant]]
        id = "one"
        title = "x changes"
        incident = "none"
        file = "calc.py"
        find = "x = 1"
        replace = "x = 2"
        contracts = ["t"]
    """))
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    run = _harness("mutate", "--config", "mutants.toml", cwd=tmp_path)
    assert run.returncode == exit_codes.BASELINE, run.stdout + run.stderr
    assert "baseline is red" in run.stdout


# Survived (3), timeout (4) and stale/invalid (5) come from real runs in test_mutation_verdicts.py and
# their precedence from test_verdict_rule.py; interrupted (130) from test_mutation_isolation.py.


# --- nightly and report merge ---------------------------------------------------------------------


def test_nightly_configuration_error(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.harness.nightly]\nbreak = 'high'\n")
    run = _harness("nightly", cwd=tmp_path)
    assert run.returncode == exit_codes.USAGE, run.stdout + run.stderr
    assert "[tool.harness.nightly]" in run.stdout


# Report merge: 0, 2 and 8 in test_nightly_reports.py; nightly's 7, 8 and 130 in test_nightly_score.py.
