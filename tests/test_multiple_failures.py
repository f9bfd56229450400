"""One failure never hides another: a property reports every distinct broken part of the rule.

Hypothesis reports one failure per assertion site (``report_multiple_bugs``,
on in every harness profile), so the stream contracts give each part of a
rule its own ``assert``. An adapter with two independent bugs must be told
about both in one run.
"""

import os
import re
import subprocess
import sys
import textwrap

from harness.config.hypothesis_profiles import PROFILES


def test_every_profile_reports_multiple_bugs():
    assert all(values.get("report_multiple_bugs") is True for values in PROFILES.values()), PROFILES


def test_two_planted_bugs_are_both_reported(tmp_path):
    (tmp_path / "two_bugs.py").write_text(textwrap.dedent('''
        from harness.reference import adapter as reference
        from harness.testing import sse


        class TwoBugs:
            """Drops the calls of a delta that also carries text; strips what is not ASCII from reasoning."""

            def parse_stream(self, body):
                import json

                events = []
                for line in body.decode().split("\\n"):
                    if line.startswith("data: ") and line != "data: [DONE]":
                        chunk = json.loads(line[len("data: "):])
                        for choice in chunk.get("choices", []):
                            delta = choice.get("delta") or {}
                            if delta.get("content"):
                                delta.pop("tool_calls", None)
                        events.append(chunk)
                parsed = reference.parse_stream(sse(events))
                parsed["reasoning"] = parsed["reasoning"].encode("ascii", "ignore").decode()
                return parsed


        adapter = TwoBugs()
    '''))
    # The gate's own runner and profile: the settings a contract runs under are the ones under test.
    run = subprocess.run(
        [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", "--adapter", "two_bugs:adapter",
         "-k", "test_reasoning_is_every_piece_in_order"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )
    out = run.stdout
    assert run.returncode == 1, out[-4000:] + run.stderr
    assert re.search(r"\b[2-9] distinct failures", out), out[-4000:]
    assert "should be there" in out, f"the dropped calls were not reported:\n{out[-4000:]}"
    assert "the reasoning was altered" in out, f"the mangled reasoning was not reported:\n{out[-4000:]}"
