"""The harness's own model and tools for kernel contracts.

They are the backdoor that lets a contract check a kernel without trusting it:
the scripted model keeps every request the kernel sent, and the scripted tools
keep when they ran, so evidence such as "the parallel-safe tools overlapped"
comes from the harness, never from the adapter's own report.
"""

from __future__ import annotations

import copy
import json
import threading
import time
from dataclasses import dataclass, field

OVERLAP_WAIT_SECONDS = 2.0


class ScriptExhausted(AssertionError):
    """The kernel asked the model for more rounds than the script has."""


@dataclass
class ScriptedModel:
    """Answers each request with the next scripted neutral response."""

    rounds: list[dict]
    requests: list[dict] = field(default_factory=list)

    def __call__(self, request: dict) -> dict:
        self.requests.append(copy.deepcopy(request))
        n = len(self.requests)
        if n > len(self.rounds):
            raise ScriptExhausted(
                f"kernel sent request #{n} but the script has {len(self.rounds)} rounds; "
                f"last request messages: {json.dumps(request.get('messages'), ensure_ascii=False)[:500]}"
            )
        response = {"content": "", "reasoning": "", "tool_calls": [], "finish_reason": "stop"}
        response.update(copy.deepcopy(self.rounds[n - 1]))
        return response


class OverlapProbe:
    """Counts tool executions in flight; a barrier makes a real overlap certain.

    With ``parties`` set, each execution waits (bounded) until that many are
    running at once. A kernel that runs them one at a time only pays the wait
    once and leaves ``max_in_flight == 1`` as evidence.
    """

    def __init__(self, parties: int = 0) -> None:
        self._lock = threading.Lock()
        self._barrier = threading.Barrier(parties, timeout=OVERLAP_WAIT_SECONDS) if parties > 1 else None
        self.in_flight = 0
        self.max_in_flight = 0

    def enter(self) -> None:
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        if self._barrier is not None:
            try:
                self._barrier.wait()
            except threading.BrokenBarrierError:
                pass

    def leave(self) -> None:
        with self._lock:
            self.in_flight -= 1


@dataclass
class ToolRun:
    arguments: str
    started: float
    finished: float
    thread: int


@dataclass
class ScriptedTool:
    """A tool whose result is derived from its arguments and which logs each run."""

    name: str
    parallel_safe: bool = False
    probe: OverlapProbe | None = None
    runs: list[ToolRun] = field(default_factory=list)

    @property
    def schema(self) -> dict:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": f"scripted tool {self.name}",
                "parameters": {"type": "object", "properties": {}},
            },
        }

    def result_for(self, arguments: str) -> str:
        return f"{self.name} -> {arguments}"

    def __call__(self, arguments: str) -> str:
        started = time.monotonic()
        if self.probe is not None:
            self.probe.enter()
        try:
            return self.result_for(arguments)
        finally:
            if self.probe is not None:
                self.probe.leave()
            self.runs.append(ToolRun(arguments, started, time.monotonic(), threading.get_ident()))
