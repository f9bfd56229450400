#!/usr/bin/env python3
"""The bridge kernel as an agent program: the same turn logic, its model rounds over real HTTP.

    python examples/bridge-kernel/agent.py --base-url URL --session ID [--provider deepseek] PROMPT

It stands for an agent binary nobody can import: ``kernel.Turn`` runs the turn,
this file plays the bridge's part with an HTTP client (streamed chat
completions, standard library only), two local tools, and a session file per
``--session`` (in ``$AGENT_STATE_DIR``, default a folder in the temporary
directory) from which each run replays the earlier turns. Test it with

    harness probe --tool get_weather --tool read_file \\
        --agent-cmd "python examples/bridge-kernel/agent.py --base-url {base_url} --session {session} {prompt}"

``--bug accumulate-by-position`` puts back incident `sse-index-accumulation`:
streamed tool-call fragments joined by their place in the chunk instead of
their ``index``. The probe's ``parallel-12`` scenario catches it.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import kernel  # noqa: E402

DEEPSEEK_URL = "https://api.deepseek.com"  # what render_history keys the reasoning replay on
TOOLS = [
    {"name": "get_weather", "parallel_safe": True, "schema": {"type": "function", "function": {
        "name": "get_weather", "description": "Current weather in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}},
    {"name": "read_file", "parallel_safe": False, "schema": {"type": "function", "function": {
        "name": "read_file", "description": "Read a text file",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}}},
]


class ProviderError(Exception):
    pass


def run_tool(name: str, arguments: str) -> str:
    try:
        args = json.loads(arguments or "{}")
    except ValueError:
        return f"error: arguments are not JSON: {arguments!r}"
    if name == "get_weather":
        return f"{args.get('city', '?')}: 18 °C, clear"
    if name == "read_file":
        return f"contents of {args.get('path', '?')}: (empty)"
    return f"error: no tool {name!r}"


def transform(body: dict, provider: str, era: str) -> dict:
    """The provider adapter's part: reasoning_content only for DeepSeek, by its era's rule."""
    body = json.loads(json.dumps(body))
    for message in body["messages"]:
        if provider != "deepseek" or era == "r1":
            message.pop("reasoning_content", None)
        elif message.get("role") == "assistant" and body.get("tools") and "reasoning_content" not in message:
            if era == "current" or message.get("tool_calls"):
                message["reasoning_content"] = ""
    return body


def sse_events(body: bytes) -> list[dict]:
    events, data = [], []
    for line in re.split(r"\r\n|\r|\n", body.decode("utf-8")):
        if line == "":
            if data and "\n".join(data) != "[DONE]":
                events.append(json.loads("\n".join(data)))
            data = []
        elif line.startswith("data:"):
            data.append(line[6:] if line.startswith("data: ") else line[5:])
    return events


def accumulate(events: list[dict], bug: str | None) -> dict:
    content, reasoning, calls, finish = [], [], [], None
    for event in events:
        if "error" in event:
            raise ProviderError(f"the stream ended with an error: {event['error']}")
        for choice in event.get("choices") or ():
            delta = choice.get("delta") or {}
            content.append(delta.get("content") or "")
            reasoning.append(delta.get("reasoning_content") or "")
            finish = choice.get("finish_reason") or finish
            for position, fragment in enumerate(delta.get("tool_calls") or ()):
                function = fragment.get("function") or {}
                if bug == "accumulate-by-position":
                    while len(calls) <= position:
                        calls.append({"id": "", "name": "", "arguments": "", "index": position})
                    call = calls[position]
                else:
                    index = fragment.get("index", calls[-1]["index"] if calls else 0)
                    same = [c for c in calls if c["index"] == index]
                    if not same or (fragment.get("id") and fragment["id"] != same[-1]["id"]):
                        calls.append({"id": "", "name": "", "arguments": "", "index": index})
                        same = [calls[-1]]
                    call = same[-1]
                call["id"] = fragment.get("id") or call["id"]
                call["name"] = function.get("name") or call["name"]
                call["arguments"] += function.get("arguments") or ""
    return {"content": "".join(content), "reasoning": "".join(reasoning), "finish_reason": finish,
            "tool_calls": [{k: c[k] for k in ("id", "name", "arguments")} for c in calls]}


class HttpChannel:
    """What the bridge harness would answer, answered here: model rounds over HTTP, tools run locally."""

    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options
        parts = urlsplit(options.base_url)
        self.host, self.port = parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)
        self.path = parts.path.rstrip("/") + "/chat/completions"
        self.secure = parts.scheme == "https"

    def ask(self, method: str, params: dict) -> dict:
        if method == "tool":
            return {"content": run_tool(params["name"], params["arguments"])}
        body = transform(params["request"], self.options.provider, self.options.era)
        body["model"] = self.options.model
        kind = http.client.HTTPSConnection if self.secure else http.client.HTTPConnection
        connection = kind(self.host, self.port, timeout=60)
        connection.request("POST", self.path, json.dumps(body), {"Content-Type": "application/json"})
        response = connection.getresponse()
        raw = response.read()
        connection.close()
        if response.status >= 400:
            raise ProviderError(f"HTTP {response.status}: {raw.decode('utf-8', 'replace')[:500]}")
        return accumulate(sse_events(raw), self.options.bug)

    def ask_all(self, method: str, params_list: list[dict]) -> list[dict]:
        return [self.ask(method, params) for params in params_list]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--session", required=True)
    parser.add_argument("--provider", default="openai", help="deepseek gets reasoning_content back")
    parser.add_argument("--era", default="current", choices=("r1", "v3.2", "current"))
    parser.add_argument("--model", default="bridge-kernel")
    parser.add_argument("--bug", choices=("accumulate-by-position",), help="put a known bug back")
    parser.add_argument("prompt")
    options = parser.parse_args(argv)
    state = Path(os.environ.get("AGENT_STATE_DIR") or Path(tempfile.gettempdir()) / "bridge-kernel-agent")
    state.mkdir(parents=True, exist_ok=True)
    session = state / (re.sub(r"[^A-Za-z0-9_.-]", "_", options.session) + ".json")
    events = json.loads(session.read_text(encoding="utf-8")) if session.exists() else []
    turn = kernel.Turn(HttpChannel(options), TOOLS)
    turn.messages = kernel.render_history(events, DEEPSEEK_URL if options.provider == "deepseek" else None)
    try:
        new = turn.run(options.prompt)
    except (ProviderError, OSError, ValueError) as exc:
        print(f"agent: the turn failed: {exc}", file=sys.stderr)
        return 1
    session.write_text(json.dumps(events + new, ensure_ascii=False), encoding="utf-8")
    print(new[-1]["response"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
