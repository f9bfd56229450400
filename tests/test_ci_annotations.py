"""Under GitHub Actions, failures become annotations on a file and line, and the job gets a summary.

``harness check`` annotates a failing contract on the adapter's line; ``harness
mutate``/``gate``/``nightly`` annotate each mutant not killed on its patched line.
"""

import os
import subprocess
import sys
from pathlib import Path

from test_foreign_runner import CALC, RUNNER, TEST_CALC

from harness.report import annotations as ci_annotations

TESTS = Path(__file__).parent


def _check(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess, str]:
    summary = tmp_path / "step-summary.md"
    env = {**{k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}, "PYTHONPATH": str(TESTS),
           "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_WORKSPACE": str(TESTS)}
    run = subprocess.run([sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", *args],
                         capture_output=True, text=True, env=env, timeout=600)
    return run, summary.read_text() if summary.exists() else ""


def test_a_crash_is_annotated_on_the_adapter_line_that_raised(tmp_path):
    run, summary = _check(tmp_path, "--adapter", "sample_adapters:crashing_stream", "-k", "twelve")
    assert run.returncode == 1, run.stdout + run.stderr
    raising = next(n for n, line in enumerate((TESTS / "sample_adapters.py").read_text().splitlines(), 1)
                   if "raise KeyError" in line)
    annotations = [line for line in run.stdout.splitlines() if line.startswith("::error ")]
    assert len(annotations) == 1 and annotations[0].startswith(
        f"::error file=sample_adapters.py,line={raising},title=failed [wire%2C stream] "
        "test_sse_index_accumulation.py%3A%3Atest_twelve_parallel_calls_of_the_incident::"
    ), annotations
    assert "KeyError: 'call slot 12'" in annotations[0] and "%0Araised in the adapter:%0A" in annotations[0]
    assert "| wire | stream | 0 | 1 | 0 | 0 |" in summary, summary


def test_an_assertion_is_annotated_on_the_adapter_class(tmp_path):
    run, _ = _check(tmp_path, "--adapter", "sample_adapters:reasoning_in_content", "-k", "top_level_beside")
    assert run.returncode == 1, run.stdout + run.stderr
    class_line = next(n for n, line in enumerate((TESTS / "sample_adapters.py").read_text().splitlines(), 1)
                      if line.startswith("class ReasoningInContent"))
    annotations = [line for line in run.stdout.splitlines() if line.startswith("::error ")]
    assert len(annotations) == 1 and annotations[0].startswith(
        f"::error file=sample_adapters.py,line={class_line},title=failed [provider%2C messages] "
    ), annotations


def test_nothing_is_annotated_outside_github_actions():
    env = {**{k: v for k, v in os.environ.items() if k not in ("HARNESS_ADAPTER", "GITHUB_ACTIONS")},
           "PYTHONPATH": str(TESTS)}
    run = subprocess.run([sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", "--adapter",
                          "sample_adapters:reasoning_in_content", "-k", "top_level_beside"],
                         capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 1 and "::error" not in run.stdout, run.stdout


def test_workflow_command_escaping():
    assert ci_annotations.error("50% done\nnext", "a,b:c.py", 3, "t: x") == (
        "::error file=a%2Cb%3Ac.py,line=3,title=t%3A x::50%25 done%0Anext"
    )
    assert ci_annotations.error("plain") == "::error::plain"


# The foreign project's known bug (killed), and a second bug its test cannot tell from the original (survives).
SURVIVOR = """
[[mutant]]
id = "empty-start"
title = "each call starts from an empty string written another way"
file = "calc.py"
find = '    calls.setdefault(index, "")'
replace = '    calls.setdefault(index, "" + "")'
contracts = ["test_pieces_join_by_index"]
"""


def test_mutate_annotates_each_mutant_not_killed_on_its_patched_line(tmp_path):
    (tmp_path / "calc.py").write_text(CALC)
    (tmp_path / "test_calc.py").write_text(TEST_CALC)
    (tmp_path / "mutants.toml").write_text(RUNNER.format(python=sys.executable) + SURVIVOR)
    for args in (["init", "-q"], ["add", "calc.py", "test_calc.py", "mutants.toml"]):
        subprocess.run(["git", *args], cwd=tmp_path, check=True)
    summary = tmp_path / "step-summary.md"
    summary.write_text("## an earlier step\n")
    env = {**os.environ, "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary),
           "GITHUB_WORKSPACE": str(tmp_path)}
    run = subprocess.run([sys.executable, "-m", "harness", "mutate", "--config", str(tmp_path / "mutants.toml"),
                          "--jobs", "1", "--report-dir", str(tmp_path / "reports")],
                         capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)
    assert run.returncode == 3, run.stdout + run.stderr
    annotations = [line for line in run.stdout.splitlines() if line.startswith("::error")]
    assert len(annotations) == 1, run.stdout
    line = next(n for n, text in enumerate(CALC.splitlines(), 1) if 'calls.setdefault(index, "")' in text)
    assert annotations[0].startswith(
        f"::error file=calc.py,line={line},title=survived%3A empty-start::survived: the patched lines ran under "
    ), annotations
    assert "%0Aeach call starts from an empty string written another way" in annotations[0]
    text = summary.read_text()
    # Appended after what earlier steps wrote, and the same Markdown as the report directory's summary.md.
    assert text.startswith("## an earlier step\n## Known bugs: 1/2 killed\n"), text
    assert text.removeprefix("## an earlier step\n") == (tmp_path / "reports" / "summary.md").read_text() + "\n"
    assert "| `empty-start` | survived | calc.py:2 |" in text and "| `by-position` | killed (assertion) |" in text
    assert (tmp_path / "reports" / "mutation-report.html").exists()
