"""Contract classes a project subclasses: several adapters in one pytest session, one implementation with --adapter."""

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _pytest(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--harness-profile", "ci",
                           "-rA", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=900)


def test_the_two_adapter_example_runs_both_in_one_session():
    run = _pytest(REPO / "examples" / "two-adapters")
    out = run.stdout
    assert run.returncode == 0, out[-4000:] + run.stderr
    passed = re.findall(r"^PASSED (\S+)", out, re.M)
    assert any("::TestInProcessCodec::TestSseIndexAccumulation::" in p for p in passed), out[-3000:]
    assert any("::TestBridgeKernel::TestBatchPairing::test_batch_path_pairs_calls_and_results" in p
               for p in passed), out[-3000:]
    assert "harness: adapter under test: in-process codec" in out and "python bridge kernel" in out


def test_a_broken_adapter_fails_in_its_own_class_only(tmp_path):
    (tmp_path / "test_mine.py").write_text(textwrap.dedent("""
        from harness.reference import adapter as reference
        from harness.testing import AdapterContracts

        class Folded:
            def serialize_message(self, message):
                wire = dict(reference.serialize_message(message))
                reasoning = wire.pop("reasoning_content", None)
                if reasoning:
                    wire["content"] = reasoning + (wire.get("content") or "")
                return wire

        class TestGood(AdapterContracts):
            adapter = reference

        class TestFolded(AdapterContracts):
            adapter = Folded()
    """))
    run = _pytest(tmp_path, "-k", "TopLevel")
    out = run.stdout
    assert run.returncode == 1, out[-4000:] + run.stderr
    failed = re.findall(r"^FAILED (\S+)", out, re.M)
    assert failed and all("::TestFolded::TestReasoningTopLevel::" in f for f in failed), failed
    passed = re.findall(r"^PASSED (\S+)", out, re.M)
    assert any("::TestGood::TestReasoningTopLevel::" in p for p in passed), out[-3000:]
