"""The stream a library reads an assistant turn from, for the adapters whose libraries replay what they streamed.

Those libraries have no way to write an assistant message from scratch: what
their users send back is what the library accumulated from the stream. So the
message to serialize is first served to the library as Anthropic streams it
(blocks one after another, each value whole, usage as Anthropic splits it over
``message_start`` and ``message_delta``).
"""

from __future__ import annotations

from harness.wire.anthropic_events import Plan, turn_body

# Anthropic's message_start carries the input count and an output count of 1; message_delta the final output count.
_USAGE = {"input_tokens": 12, "output_tokens": 34}
_PLAN = Plan(start_usage={"input_tokens": 12, "output_tokens": 1})


def replay_body(blocks: list[dict]) -> bytes:
    """The Messages SSE body that streams ``blocks`` as one complete assistant turn."""
    stop = "tool_use" if any(b["type"] == "tool_call" for b in blocks) else "end_turn"
    return turn_body({"blocks": blocks, "stop_reason": stop, "usage": _USAGE}, _PLAN)
