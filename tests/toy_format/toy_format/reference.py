"""The toy format's reference adapter: a stream decoder keyed by each event's block index, and a kernel."""

from __future__ import annotations

import copy
import json
import time

from toy_format.history import calls_of, model_message, question, tool_message


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

    def run_turn(self, user_input: str, model, tools: list) -> dict:
        """The kernel's tool loop: each round's blocks go back as received, its results right after, in call order."""
        offered = {tool.name: tool for tool in tools}
        history = [question(user_input)]
        events: list[dict] = []
        while True:
            blocks = copy.deepcopy(model({"messages": copy.deepcopy(history), "tools": sorted(offered)}).get("blocks")
                                   or [])
            results = [{"tool_call_id": c["id"], "name": c["name"], "content": _run(offered, c)}
                       for c in calls_of(blocks)]
            events.append({"input": None if events else user_input, "blocks": copy.deepcopy(blocks),
                           "tool_results": results, "timestamp": time.time()})
            history.append(model_message(blocks))
            if not results:
                return {"events": events}
            history.append(tool_message(results))

    def render_history(self, events: list[dict], base_url: str | None = None) -> list[dict]:
        history: list[dict] = []
        for event in events:
            if event.get("input"):
                history.append(question(event["input"]))
            history.append(model_message(copy.deepcopy(event["blocks"])))
            if event.get("tool_results"):
                history.append(tool_message(event["tool_results"]))
        return history


def _run(offered: dict, call: dict) -> str:
    tool = offered.get(call["name"])
    return tool(call["arguments"]) if tool is not None else f"error: no tool {call['name']!r}"


adapter = ToyAdapter()
