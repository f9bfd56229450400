"""An untidy scripted turn the kernel contracts share: text beside calls, mixed tools, an unknown tool, rounds in a row.

Round 1: text beside three calls of a parallel-safe tool that finish in reverse
order. Round 2: a parallel-safe tool, a tool the turn does not offer, a tool
that is not parallel-safe (it and the first take a moment, so run together
they would overlap) and a tool that returns nothing. Round 3: the answer.
Each round has its own reasoning, or none.
"""

from __future__ import annotations

import json
import time

from harness.testing import OverlapProbe, ScriptedTool

QUESTION = "Compare a.txt with b.txt, then list the folder."
ANSWER = "They differ in line 3; the folder holds 4 files."


class PacedTool(ScriptedTool):
    """A scripted tool whose run takes the seconds its arguments name in ``"pause"``: later calls finish first."""

    def result_for(self, arguments: str) -> str:
        time.sleep(json.loads(arguments or "{}").get("pause", 0))
        return super().result_for(arguments)


class SilentTool(ScriptedTool):
    """A scripted tool that returns nothing."""

    def result_for(self, arguments: str) -> str:
        return ""


def _call(cid: str, name: str, **arguments) -> dict:
    return {"id": cid, "name": name, "arguments": json.dumps(arguments, separators=(",", ":"))}


ROUND_1 = [_call("call_r1_a", "read_file", path="a.txt", pause=0.06),
           _call("call_r1_b", "read_file", path="b.txt", pause=0.03),
           _call("call_r1_c", "read_file", path="c.txt", pause=0.0)]
ROUND_2 = [_call("call_r2_r", "read_file", path="d.txt", pause=0.02),
           _call("call_r2_x", "delete_everything", confirm=True),
           _call("call_r2_w", "write_note", text="diff at 3", pause=0.02),
           _call("call_r2_s", "touch", path="e.txt")]
ROUNDS = [
    {"content": "Let me read all three files.", "reasoning": "Read first.", "tool_calls": ROUND_1,
     "finish_reason": "tool_calls"},
    {"content": "", "tool_calls": ROUND_2, "finish_reason": "tool_calls"},
    {"content": ANSWER, "reasoning": "All four files are in.", "finish_reason": "stop"},
]
OFFERED = {"read_file", "write_note", "touch"}


def tools() -> list[ScriptedTool]:
    """Fresh tools for one turn, sharing one overlap probe."""
    probe = OverlapProbe()
    return [PacedTool("read_file", parallel_safe=True, probe=probe),
            PacedTool("write_note", parallel_safe=False, probe=probe),
            SilentTool("touch", parallel_safe=True, probe=probe)]


def expected_output(call: dict) -> str | None:
    """What the offered tool returns for ``call`` (None: the turn does not offer it)."""
    if call["name"] not in OFFERED:
        return None
    return "" if call["name"] == "touch" else f"{call['name']} -> {call['arguments']}"
