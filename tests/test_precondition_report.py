"""A contract that fails only because another contract's rule is broken says so on one line, naming that contract.

The refusal cases of ``test_stream_refusals`` first parse the stream without
its fault; a parser that keys call fragments by position (incident
`sse-index-accumulation`) mis-parses it, so each case fails for the cause
``test_sse_index_accumulation`` reports in full.
"""

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).parent
ENV = {**{k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}, "PYTHONPATH": str(TESTS)}
CAUSE = ("not judged: parsing the stream without the fault fails, the rule of test_sse_index_accumulation.py or "
         "test_stream_text.py: start there (the stream without the fault parsed to ")


def test_each_case_failing_for_another_contracts_rule_is_one_line_naming_it():
    run = subprocess.run(
        [sys.executable, "-m", "harness", "check", "--adapter", "position_keyed_adapter:adapter",
         "-k", "stream_refusals or sse_index_accumulation"],
        capture_output=True, text=True, env=ENV, timeout=600)
    out = run.stdout
    assert run.returncode == 1, f"exit {run.returncode}\n{out[-3000:]}{run.stderr[-2000:]}"
    lines = out.splitlines()
    live = [n for n, line in enumerate(lines) if line.lstrip().startswith("FAILED  [")]  # not the summary's list
    refusals = [n for n in live if "test_stream_refusals.py::" in lines[n]]
    assert len(refusals) >= 10, out[-3000:]
    for n in refusals:
        under = []
        for line in lines[n + 1:]:
            if not line.startswith(" " * 17) or not line.strip():
                break
            under.append(line.strip())
        assert len(under) == 1 and under[0].startswith(CAUSE), (
            f"{lines[n].strip()}: expected one line naming the contract whose failure is the cause, got {under}")
    first_cause = next(n for n in live if "test_sse_index_accumulation.py::" in lines[n])
    assert first_cause < refusals[0], "the contract that is the cause should be reported before those it fails"


def test_every_precondition_names_contracts_that_exist():
    import ast

    contracts = Path(__file__).resolve().parents[1] / "harness" / "contracts"
    named = []
    for path in sorted(contracts.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "precondition":
                named += [(path.name, arg.value) for arg in node.args[1:] if isinstance(arg, ast.Constant)]
    assert named, "no contract states a precondition: this test would check nothing"
    missing = [(where, name) for where, name in named if not (contracts / f"{name}.py").is_file()]
    assert not missing, f"preconditions naming no contract module: {missing}"


def test_a_crash_under_a_precondition_stays_a_crash_for_the_gate():
    import pytest

    from harness.mutation.kill_kind import kind
    from harness.outcomes.mutants import ASSERTION, CRASH
    from harness.plugin.preconditions import PreconditionFailed, precondition

    def adapter_crashes():
        return None + 1

    def failing(crash: bool):
        with pytest.raises(PreconditionFailed) as caught, precondition("x", "test_stream_text"):
            try:
                adapter_crashes() if crash else None
            except TypeError as exc:
                raise AssertionError("parse_stream raised TypeError on a valid input") from exc
            raise AssertionError("wrong")
        return caught.value

    assert kind(failing(crash=True), lambda filename: True) == CRASH
    assert kind(failing(crash=False), lambda filename: True) == ASSERTION
