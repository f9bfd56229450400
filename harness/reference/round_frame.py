"""The reference agent frame for the neutral-turn formats: one turn of model rounds and tool runs.

Each round's model message carries the provider's blocks exactly as
received, in their order, reasoning and opaque values included: Anthropic
checks thinking signatures, Responses needs each reasoning item beside the
item it preceded, Gemini each thought signature on its part. The tool results
go back first in the next user content, one per call, in call order, each
naming its call (Gemini pairs by name and place, the others by id).
"""

from __future__ import annotations

import time
from typing import Any, Callable

from harness.reference.round_history import HistoryWire, round_event

MAX_ROUNDS = 16


class Frame:
    def __init__(self, model: Callable[[dict], dict], tools: list[Any], wire: HistoryWire, *,
                 clock: Callable[[], float] = time.time) -> None:
        self.model = model
        self.tools = {tool.name: tool for tool in tools}
        self.wire = wire
        self.clock = clock

    def run_turn(self, user_input: str) -> list[dict]:
        history: list = []
        self.wire.add(history, self.wire.serialize({"role": "user", "content": user_input}))
        events: list[dict] = []
        pending_input: str | None = user_input
        schemas = [tool.schema for tool in self.tools.values()]
        for _ in range(MAX_ROUNDS):
            turn = self.model(self.wire.request(list(history), schemas))
            blocks = turn.get("blocks") or []
            self.wire.add(history, self.wire.serialize({"role": "assistant", "blocks": blocks}))
            calls = [block for block in blocks if block.get("type") == "tool_call"]
            results = [{"tool_call_id": call["id"], "name": call["name"], "content": self._execute(call)}
                       for call in calls]
            events.append(round_event(pending_input, turn, results, self.clock()))
            pending_input = None
            if not calls:
                return events
            self.wire.add(history, self.wire.serialize({"role": "user", "content": "", "tool_results": results}))
        raise RuntimeError(f"turn did not finish within {MAX_ROUNDS} rounds")

    def _execute(self, call: dict) -> str:
        tool = self.tools.get(call["name"])
        if tool is None:
            return f"error: unknown tool {call['name']!r}"
        return tool(call.get("arguments") or "")
