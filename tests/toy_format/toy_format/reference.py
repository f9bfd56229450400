"""The toy format's reference adapter: a stream decoder keyed by each event's block index."""

from __future__ import annotations

import json



class StreamError(ValueError):
    """A body the toy decoder refuses."""


def parse_stream(body: bytes) -> dict:
    blocks: dict[int, dict] = {}
    values: dict[int, list[str]] = {}
    stop = None
    for number, line in enumerate(body.splitlines(), 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except ValueError as exc:
            raise StreamError(f"line {number} is not JSON: {exc}") from None
        if "stop" in event:
            stop = event
            continue
        index = event["block"]
        if "start" in event:
            blocks[index] = dict(event["start"])
            values[index] = []
        else:
            values[index].append(event["delta"])
    if stop is None:
        raise StreamError("the stream ended before its stop line")
    turn_blocks = []
    for index in sorted(blocks):
        block = blocks[index]
        block["text" if block["type"] == "text" else "arguments"] = "".join(values[index])
        turn_blocks.append(block)
    return {"blocks": turn_blocks, "stop_reason": stop["stop"], "usage": stop.get("usage")}


class ToyAdapter:
    name = "reference-toy"
    format = "toy-ndjson"

    def parse_stream(self, body: bytes) -> dict:
        return parse_stream(body)


adapter = ToyAdapter()
