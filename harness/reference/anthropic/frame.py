"""The reference agent frame for Messages: one turn of model rounds and tool runs.

Each round's assistant message carries the provider's blocks exactly as
received, in their order, thinking and signatures included: with thinking on,
the provider checks them on the next request of a tool loop. The tool results
go back first in the next user message, one per tool use, in call order.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from harness.reference.anthropic.messages import serialize_message
from harness.reference.anthropic.rounds import round_event

MAX_ROUNDS = 16
MAX_TOKENS = 4096


class Frame:
    def __init__(self, model: Callable[[dict], dict], tools: list[Any], *,
                 clock: Callable[[], float] = time.time) -> None:
        self.model = model
        self.tools = {tool.name: tool for tool in tools}
        self.clock = clock

    def run_turn(self, user_input: str) -> list[dict]:
        messages = [serialize_message({"role": "user", "content": user_input})]
        events: list[dict] = []
        pending_input: str | None = user_input
        for _ in range(MAX_ROUNDS):
            turn = self.model(self._request(messages))
            blocks = turn.get("blocks") or []
            messages.append(serialize_message({"role": "assistant", "blocks": blocks}))
            calls = [block for block in blocks if block.get("type") == "tool_call"]
            results = [{"tool_call_id": call["id"], "content": self._execute(call)} for call in calls]
            events.append(round_event(pending_input, turn, results, self.clock()))
            pending_input = None
            if not calls:
                return events
            messages.append(serialize_message({"role": "user", "content": "", "tool_results": results}))
        raise RuntimeError(f"turn did not finish within {MAX_ROUNDS} rounds")

    def _request(self, messages: list[dict]) -> dict:
        schemas = [tool.schema for tool in self.tools.values()]
        return {"model": "reference", "max_tokens": MAX_TOKENS, "messages": list(messages), "tools": schemas,
                "stream": True}

    def _execute(self, call: dict) -> str:
        tool = self.tools.get(call["name"])
        if tool is None:
            return f"error: unknown tool {call['name']!r}"
        return tool(call.get("arguments") or "")
