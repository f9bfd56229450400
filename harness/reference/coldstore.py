"""Cold storage: each persisted event as one text block per role, read back by id.

Writing splits an event into blocks (input, reasoning, response, one per tool
output; none for a role without text) and keeps a small record of the rest.
Reasoning is a block of its own, never folded into the response: loading puts
it back into a different field, and merged the model would read its own chain
of thought as something it said. A block's id is a hash of the event's place
in the store, its timestamp, the block's role and its position among that
role's blocks (two events may share a timestamp: rounds persisted within one
clock tick, or several events whose clock was never set and reads zero);
loading derives the ids again from the record and reads each block by id. The
record keeps the timestamp exactly as the event had it, zero included, so
writer and reader always hash the same number.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from harness.reference.context import ContextEvent, ToolResult
from harness.reference.event_parts import event_parts
from harness.reference.messages import ToolCall


def block_id(event: int, timestamp: float, role: str, position: int) -> str:
    # repr() is exact for floats and survives the JSON round trip of the record.
    return hashlib.sha256(f"{event}|{timestamp!r}|{role}|{position}".encode()).hexdigest()[:24]  # pragma: no mutate (out of scope: `24` -> `25`: block-id length)


def store(events: list[ContextEvent]) -> dict:
    """Events to a plain-JSON cold store ``{"events": [record], "blocks": [block]}``."""
    records: list[dict] = []
    blocks: list[dict] = []
    for number, event in enumerate(events):
        stamp = event.timestamp
        records.append(
            {
                "timestamp": stamp,
                "tool_calls": [call.to_neutral() for call in event.tool_calls],
                "tool_result_ids": [result.tool_call_id for result in event.tool_results],
                "tools_used": list(event.tools_used),
            }
        )
        if event.reasoning_details:
            # Opaque to us and to a reader: kept whole in the record, never split into text blocks.
            records[-1]["reasoning_details"] = list(event.reasoning_details)
        blocks += [
            {"id": block_id(number, stamp, part.role, part.position), "role": part.role, "content": part.content}
            for part in event_parts(event)
        ]
    return {"events": records, "blocks": blocks}


def load(cold: Mapping) -> list[ContextEvent]:
    """A cold store back to events; a block that is absent reads as empty text."""
    by_id = {block["id"]: block["content"] for block in cold["blocks"]}
    return [_load_event(record, by_id, number) for number, record in enumerate(cold["events"])]


def _load_event(record: Mapping, by_id: Mapping[str, str], number: int) -> ContextEvent:
    stamp = record["timestamp"]

    def text(role: str, position: int = 0) -> str:
        return by_id.get(block_id(number, stamp, role, position), "")

    return ContextEvent(
        input=text("input"),
        response=text("response"),
        reasoning=text("reasoning") or None,
        reasoning_details=list(record.get("reasoning_details") or ()),
        tool_calls=[ToolCall.from_neutral(call) for call in record["tool_calls"]],
        tool_results=[
            ToolResult(call_id, text("tool_output", k)) for k, call_id in enumerate(record["tool_result_ids"])
        ],
        tools_used=list(record["tools_used"]),
        timestamp=stamp,
    )
