#!/usr/bin/env python3
"""A small agent kernel in its own process, tested by the harness over the bridge protocol.

    harness check --adapter-cmd "python examples/bridge-kernel/kernel.py"

It stands for a kernel written in any language: it uses only the standard
library and knows the harness only through JSON lines on stdin/stdout
(``docs/adapter-protocol.md``). During ``run_turn`` the harness plays the model
and the tools: the kernel asks it for each model round with a ``model``
request and for each tool execution with a ``tool`` request. When every tool a
round asks for is parallel-safe, the kernel sends all the ``tool`` requests
before reading any reply, so they run at the same time on the harness side,
which observes the overlap itself.

Rules kept: each round is persisted with its own reasoning, recorded before the
kernel branches on "tool calls or final text"; both tool paths record every
call next to its result; rendered history carries ``reasoning_content`` only
for DeepSeek, and only where a round had reasoning.
"""

from __future__ import annotations

import json
import sys
import time
from urllib.parse import urlsplit

PROTOCOL = 1
MAX_ROUNDS = 16
DEEPSEEK_HOST = "api.deepseek.com"


class Refused(Exception):
    """An error reply of a given protocol type."""

    def __init__(self, type: str, message: str) -> None:
        super().__init__(message)
        self.type = type


class Channel:
    """The kernel's end of the bridge: replies to the harness, and requests of its own."""

    def __init__(self) -> None:
        self._next_id = 0

    def read(self) -> dict | None:
        line = sys.stdin.readline()
        return json.loads(line) if line else None

    def write(self, message: dict) -> None:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

    def ask_all(self, method: str, params_list: list[dict]) -> list[dict]:
        """Send every request first, then collect the replies: they are in flight together."""
        ids = []
        for params in params_list:
            self._next_id += 1
            ids.append(f"k{self._next_id}")
            self.write({"id": ids[-1], "method": method, "params": params})
        replies: dict[str, dict] = {}
        while len(replies) < len(ids):
            message = self.read()
            if message is None:
                raise SystemExit("the harness closed the channel during a turn")
            if message.get("id") not in ids:
                raise Refused("internal", f"expected replies to {ids}, got {message}")
            replies[message["id"]] = message
        return [_result(replies[i]) for i in ids]

    def ask(self, method: str, params: dict) -> dict:
        return self.ask_all(method, [params])[0]


def _result(reply: dict):
    error = reply.get("error")
    if error is None:
        return reply["result"]
    if error["type"] == "invalid_request":
        return {"content": f"error: {error['message']}"}  # a tool the harness cannot run: the model reads why
    raise Refused("internal", f"the harness aborted the turn: {error['message']}")


class Turn:
    """One agent turn: model rounds and the tools they ask for, persisted round by round."""

    def __init__(self, channel: Channel, tools: list[dict]) -> None:
        self.channel = channel
        self.tools = {tool["name"]: tool for tool in tools}
        self.messages: list[dict] = []
        self.events: list[dict] = []

    def run(self, user_input: str) -> list[dict]:
        self.messages.append({"role": "user", "content": user_input})
        pending_input = user_input
        for _ in range(MAX_ROUNDS):
            response = self.channel.ask("model", {"request": self._request()})
            reasoning = response.get("reasoning") or None  # this round's own, before any branch
            content = response.get("content") or ""
            calls = response.get("tool_calls") or []
            self.messages.append(wire_assistant(content, reasoning, calls))
            results = self._run_tools(calls)
            self.events.append(
                {
                    "input": pending_input,
                    "response": content,
                    "reasoning": reasoning,
                    "tool_calls": calls,
                    "tool_results": results,
                    "tools_used": list(dict.fromkeys(call["name"] for call in calls)),
                    "timestamp": time.time(),
                }
            )
            pending_input = ""
            if not calls:
                return self.events
        raise Refused("internal", f"the turn did not finish within {MAX_ROUNDS} rounds")

    def _request(self) -> dict:
        schemas = [tool["schema"] for tool in self.tools.values()]
        return {"model": "bridge-kernel", "messages": list(self.messages), "tools": schemas, "stream": True}

    def _run_tools(self, calls: list[dict]) -> list[dict]:
        params = [{"name": call["name"], "arguments": call["arguments"]} for call in calls]
        if calls and all(self.tools.get(call["name"], {}).get("parallel_safe") for call in calls):
            outputs = self.channel.ask_all("tool", params)  # the batch path: all in flight at once
        else:
            outputs = [self.channel.ask("tool", p) for p in params]  # the serial path
        results = []
        for call, output in zip(calls, outputs):
            results.append({"tool_call_id": call["id"], "content": output["content"]})
            self.messages.append({"role": "tool", "content": output["content"], "tool_call_id": call["id"]})
        return results


def wire_assistant(content: str, reasoning: str | None, calls: list[dict]) -> dict:
    message: dict = {"role": "assistant", "content": content if content or not calls else None}
    if reasoning:
        message["reasoning_content"] = reasoning
    if calls:
        message["tool_calls"] = [
            {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
            for c in calls
        ]
    return message


def render_history(events: list[dict], base_url: str | None) -> list[dict]:
    # Only DeepSeek asks for reasoning back; strict endpoints reject the unknown field.
    replays = base_url is not None and urlsplit(base_url).hostname == DEEPSEEK_HOST
    messages = []
    for event in events:
        if event.get("input"):
            messages.append({"role": "user", "content": event["input"]})
        reasoning = event.get("reasoning") if replays else None
        messages.append(wire_assistant(event.get("response") or "", reasoning, event.get("tool_calls") or []))
        for result in event.get("tool_results") or []:
            messages.append({"role": "tool", "content": result["content"] or "", "tool_call_id": result["tool_call_id"]})
    return messages


def handshake(channel: Channel, params: dict) -> dict:
    if params.get("protocol") != PROTOCOL:
        raise Refused("unsupported", f"this kernel speaks protocol {PROTOCOL}, not {params.get('protocol')}")
    return {"protocol": PROTOCOL, "name": "python bridge kernel", "capabilities": ["kernel"]}


METHODS = {
    "handshake": handshake,
    "run_turn": lambda channel, p: {"events": Turn(channel, p["tools"]).run(p["user_input"])},
    "render_history": lambda channel, p: render_history(p["events"], p.get("base_url")),
}


def main() -> None:
    channel = Channel()
    while (request := channel.read()) is not None:
        method = METHODS.get(request.get("method"))
        try:
            if method is None:
                raise Refused("unsupported", f"no method {request.get('method')!r}")
            channel.write({"id": request["id"], "result": method(channel, request.get("params", {}))})
        except Refused as exc:
            channel.write({"id": request["id"], "error": {"type": exc.type, "message": str(exc)}})
        except Exception as exc:  # a bug of ours: say so on stderr, answer, and keep serving
            print(f"{request.get('method')} failed: {exc!r}", file=sys.stderr, flush=True)
            channel.write({"id": request["id"], "error": {"type": "internal", "message": repr(exc)}})


if __name__ == "__main__":
    main()
