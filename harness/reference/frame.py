"""The reference agent frame: one turn of LLM rounds and tool executions.

A round is an LLM step, then the tools it asked for, either down the serial
path (begin, then execute, one call at a time) or, when every requested tool
is parallel-safe, down the concurrent batch path (fan out on a pool, join,
then an ordered tail). Both paths record the call with
``append_tool_call_record`` next to its result, so the persisted event always
pairs calls with results; the in-memory messages are built separately and
would look paired even if the record were missing.

A round's reasoning is taken from that round's own response, before the frame
branches on tool calls: ``self.resp`` is only replaced by tool rounds, so during
the final text-only round it still holds the tool round before it.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from harness.reference.context import ContextEvent, ToolResult
from harness.reference.messages import Message, ToolCall, to_wire

MAX_ROUNDS = 16


class Frame:
    def __init__(
        self,
        model: Callable[[dict], dict],
        tools: list[Any],
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.model = model
        self.tools = {tool.name: tool for tool in tools}
        self.clock = clock
        self.msgs: list[dict] = []
        self.events: list[ContextEvent] = []
        self.resp: dict | None = None  # the last model response that asked for tools  # pragma: no mutate (equivalent: `= None` -> `= ""`: set before it is read)
        self._reset_round()

    def _reset_round(self) -> None:
        self.tool_calls: list[ToolCall] = []
        self.tool_results: list[ToolResult] = []
        self.tools_used: list[str] = []
        self.turn_reasoning: str | None = None  # pragma: no mutate (equivalent: `= None` -> `= ""`: set before it is read)
        self.turn_details: tuple[dict, ...] = ()  # pragma: no mutate (equivalent: `()` -> *: set before it is read)
        self.turn_response = ""  # pragma: no mutate (equivalent: `""` -> *: set before it is read)

    def run_turn(self, user_input: str) -> list[ContextEvent]:
        self.msgs.append(to_wire(Message(role="user", content=user_input)))
        pending_input = user_input
        for _ in range(MAX_ROUNDS):
            wants_tools = self.step_llm()
            if wants_tools:
                self.step_tools()
            self._persist_round(pending_input)
            pending_input = ""
            if not wants_tools:
                return self.events
        raise RuntimeError(f"turn did not finish within {MAX_ROUNDS} rounds")  # pragma: no mutate (out of scope: `f"turn did not finish within {MAX_ROUNDS} rounds"` -> `None`: error wording)

    def request(self) -> dict:
        schemas = [tool.schema for tool in self.tools.values()]
        return {"model": "reference", "messages": list(self.msgs), "tools": schemas, "stream": True}  # pragma: no mutate (out of scope: `"reference"` -> *: placeholder model name)

    def step_llm(self) -> bool:
        """One model call; True when it asked for tools (``self.resp`` then holds its response)."""
        response = self.model(self.request())
        # Recorded before the branch, so a text-only round never inherits the
        # reasoning of the tool round before it.
        self.turn_reasoning = response.get("reasoning") or None
        self.turn_response = response.get("content") or ""
        self.turn_details = tuple(response.get("reasoning_details") or ())
        calls = _calls_of(response)
        self.msgs.append(
            to_wire(
                Message(
                    role="assistant",
                    content=self.turn_response,
                    reasoning=self.turn_reasoning,
                    tool_calls=tuple(calls),
                    reasoning_details=self.turn_details,
                )
            )
        )
        if not calls:
            return False
        # Only a round that asks for tools replaces it: during a text-only round
        # it still holds the previous tool round's response, whose reasoning is
        # not this round's (persisting it from here misattributes reasoning).
        self.resp = response
        return True

    def step_tools(self) -> None:
        """Run the calls of ``self.resp``: as one batch when every tool is parallel-safe."""
        pending = _calls_of(self.resp)
        if self._batch_runnable(pending):
            self.step_tool_batch(pending)
        else:
            for call in pending:
                self.step_tool_begin(call)
                self.step_tool_exec(call)

    def _batch_runnable(self, calls: list[ToolCall]) -> bool:
        return all(getattr(self.tools.get(c.name), "parallel_safe", False) for c in calls)  # pragma: no mutate (out of scope: `False` -> `True`, `False` -> `None`: path of a round with an unoffered tool)

    def append_tool_call_record(self, call: ToolCall) -> None:
        self.tool_calls.append(call)
        if call.name not in self.tools_used:
            self.tools_used.append(call.name)

    def step_tool_begin(self, call: ToolCall) -> None:
        self.append_tool_call_record(call)

    def step_tool_exec(self, call: ToolCall) -> None:
        self._record_result(call, self._execute(call))

    def step_tool_batch(self, calls: list[ToolCall]) -> None:
        with ThreadPoolExecutor(max_workers=len(calls)) as pool:  # pragma: no mutate (out of scope: `len(calls)` -> `None`: pool size)
            futures = [pool.submit(self._execute, call) for call in calls]
        # Ordered tail: the frame's lists are only touched here, after the join.
        for call, future in zip(calls, futures):
            self.append_tool_call_record(call)
            self._record_result(call, future.result())

    def _execute(self, call: ToolCall) -> str:
        tool = self.tools.get(call.name)
        if tool is None:
            return f"error: unknown tool {call.name!r}"
        return tool(call.arguments)

    def _record_result(self, call: ToolCall, output: str) -> None:
        self.tool_results.append(ToolResult(call.id, output))
        self.msgs.append(to_wire(Message(role="tool", content=output, tool_call_id=call.id)))

    def _persist_round(self, user_input: str) -> None:
        self.events.append(
            ContextEvent(
                input=user_input,
                response=self.turn_response,
                reasoning=self.turn_reasoning,
                tool_calls=self.tool_calls,
                reasoning_details=list(self.turn_details),
                tool_results=self.tool_results,
                tools_used=self.tools_used,
                timestamp=self.clock(),
            )
        )
        self._reset_round()


def _calls_of(response: dict) -> list[ToolCall]:
    return [ToolCall.from_neutral(c) for c in response.get("tool_calls") or ()]
