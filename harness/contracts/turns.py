"""An untidy scripted turn the kernel contracts share: text beside calls, mixed tools, an unknown tool, rounds in a row.

Round 1: text beside three calls of a parallel-safe tool, which the script
lets finish in reverse order (each waits until all three are inside, then for
the ones after it to finish): a kernel that records results as they complete
gets them backwards, on any machine. Round 2: a parallel-safe tool, a tool the
turn does not offer, a tool that is not parallel-safe and a tool that returns
nothing; a kernel that fans this round out on a pool is held until the
parallel-safe read and the unsafe write are inside together, so running them
side by side always shows. Round 3: the answer. Each round has its own
reasoning, or none. The tool rounds end as gateways end them: the first with
``stop`` and a usage, the second with no finish reason and no usage, so only
a kernel that runs the calls, whatever the finish reason says, gets through.

:data:`CUT_ROUNDS` is the same turn with one more call in round 2 whose
arguments were cut off (a round ended by the token limit): the decoder hands
it over as streamed, and every later stage carries it as it came.
"""

from __future__ import annotations

import json

from harness.testing import OverlapProbe, Rendezvous, ScriptedTool
from harness.testing.scripted import ended

QUESTION = "Compare a.txt with b.txt, then list the folder."
ANSWER = "They differ in line 3; the folder holds 4 files."


class SilentTool(ScriptedTool):
    """A scripted tool that returns nothing."""

    def result_for(self, arguments: str) -> str:
        return ""


def _call(cid: str, name: str, **arguments) -> dict:
    return {"id": cid, "name": name, "arguments": json.dumps(arguments, separators=(",", ":"))}


ROUND_1 = [_call("call_r1_a", "read_file", path="a.txt"),
           _call("call_r1_b", "read_file", path="b.txt"),
           _call("call_r1_c", "read_file", path="c.txt")]
ROUND_2 = [_call("call_r2_r", "read_file", path="d.txt"),
           _call("call_r2_x", "delete_everything", confirm=True),
           _call("call_r2_w", "write_note", text="diff at 3"),
           _call("call_r2_s", "touch", path="e.txt")]
ROUNDS = [
    ended({"content": "Let me read all three files.", "reasoning": "Read first.", "tool_calls": ROUND_1}, "chat", 1),
    ended({"content": "", "tool_calls": ROUND_2}, "chat", 2),
    {"content": ANSWER, "reasoning": "All four files are in.", "finish_reason": "stop"},
]
# A call whose arguments were cut off mid-stream: the kernel may run it or answer it with an error text, but the
# call goes back, is persisted and is stored exactly as the model made it.
CUT = {"id": "call_r2_c", "name": "read_file", "arguments": '{"path": "f.t'}
CUT_ROUNDS = [ROUNDS[0], {**ROUNDS[1], "tool_calls": [*ROUND_2, CUT]}, ROUNDS[2]]
OFFERED = {"read_file", "write_note", "touch"}
UNSAFE = {"write_note"}

# Round 1 finishes last call first; round 2 is held only when the kernel runs it on a pool.
BATCH = Rendezvous(tuple(c["arguments"] for c in ROUND_1),
                   finish_order=tuple(c["arguments"] for c in reversed(ROUND_1)))
MIXED = Rendezvous((ROUND_2[0]["arguments"], ROUND_2[2]["arguments"]), pooled_only=True)


def tools() -> list[ScriptedTool]:
    """Fresh tools for one turn, sharing one overlap probe (``tools()[0].probe``)."""
    probe = OverlapProbe(BATCH, MIXED)
    return [ScriptedTool("read_file", parallel_safe=True, probe=probe),
            ScriptedTool("write_note", parallel_safe=False, probe=probe),
            SilentTool("touch", parallel_safe=True, probe=probe)]


def expected_output(call: dict) -> str | None:
    """What the offered tool returns for ``call`` (None: the turn does not offer it)."""
    if call["name"] not in OFFERED:
        return None
    return "" if call["name"] == "touch" else f"{call['name']} -> {call['arguments']}"


def answers(call: dict, content: object) -> bool:
    """Whether ``content`` answers ``call``: what the tool returned, or, for a call the kernel may refuse (a tool
    the turn does not offer, arguments cut off), an error text the model can read."""
    want = expected_output(call)
    if want is None or call["id"] == CUT["id"]:
        return isinstance(content, str) and bool(content.strip())
    return content == want


def as_made(calls: list[dict]) -> list[tuple]:
    """Each call as the model made it: id, name and raw arguments."""
    return [(c["id"], c["name"], c["arguments"]) for c in calls]


def replayed(message: dict) -> list[tuple]:
    """Each call of a wire assistant message as it goes back: id, name and arguments."""
    return [(c.get("id"), (c.get("function") or {}).get("name"), (c.get("function") or {}).get("arguments"))
            for c in message.get("tool_calls") or ()]


def unsafe_overlaps(probe: OverlapProbe) -> list[str]:
    """Each moment a tool that is not parallel-safe was inside beside another run (exact, from the probe)."""
    return [f"{run} entered while {list(inside)} ran" for run, inside in probe.overlaps
            if any(r.split("(", 1)[0] in UNSAFE for r in (run, *inside))]
