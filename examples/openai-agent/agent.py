#!/usr/bin/env python3
"""A small agent on openai-python's own client: streamed chat completions, tools, a session on disk.

    python examples/openai-agent/agent.py --base-url URL --session ID [--provider deepseek] PROMPT

The kind of agent ``harness probe`` is for: nothing in it knows the harness.
It keeps the whole conversation (wire messages) in a JSON file per
``--session`` under ``$AGENT_STATE_DIR`` (default: a folder in the temporary
directory), runs up to eight model rounds per turn, and sends
``reasoning_content`` back only to DeepSeek (``--provider deepseek``), as
DeepSeek's thinking mode asks and OpenAI's strict schema forbids.

    harness probe --tool get_weather --tool read_file \\
        --agent-cmd "python examples/openai-agent/agent.py --base-url {base_url} --session {session} {prompt}"

``--bug save-results-without-calls`` puts back incident `batch-path-pairing`:
the session is saved with every tool result but with the assistant messages
stripped of their ``tool_calls``, so the next turn sends tool messages that
answer no call, and the provider refuses the conversation for good.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from pathlib import Path

import openai

MAX_ROUNDS = 8
TOOLS = [
    {"type": "function", "function": {
        "name": "get_weather", "description": "Current weather in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}},
    {"type": "function", "function": {
        "name": "read_file", "description": "Read a text file",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}},
]


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


def one_round(client: openai.OpenAI, model: str, messages: list[dict]) -> dict:
    """Stream one completion; the assistant message it makes (with reasoning_content when streamed)."""
    stream = client.chat.completions.create(model=model, messages=messages, tools=TOOLS, stream=True)
    content, reasoning, calls = [], [], []
    latest: dict[int, dict] = {}  # upstream index -> the call now open at that index
    for chunk in stream:
        for choice in chunk.choices:
            delta = choice.delta
            content.append(delta.content or "")
            reasoning.append((delta.model_extra or {}).get("reasoning_content") or "")
            for fragment in delta.tool_calls or ():
                call = latest.get(fragment.index)
                if call is None or (fragment.id and call["id"] and fragment.id != call["id"]):
                    # A new index, or a gateway that numbers every call 0 opening the next one with a new id.
                    call = latest[fragment.index] = {"id": "", "name": "", "arguments": ""}
                    calls.append(call)
                call["id"] = fragment.id or call["id"]
                if fragment.function is not None:
                    call["name"] = fragment.function.name or call["name"]
                    call["arguments"] += fragment.function.arguments or ""
    message: dict = {"role": "assistant", "content": "".join(content) or (None if calls else "")}
    if "".join(reasoning):
        message["reasoning_content"] = "".join(reasoning)
    if calls:
        message["tool_calls"] = [{"id": c["id"], "type": "function",
                                  "function": {"name": c["name"], "arguments": c["arguments"]}}
                                 for c in calls]
    return message


def for_provider(messages: list[dict], provider: str) -> list[dict]:
    if provider == "deepseek":
        # With tools, DeepSeek wants reasoning_content on every earlier assistant turn ("" where none).
        return [{**m, "reasoning_content": m.get("reasoning_content", "")} if m["role"] == "assistant" else m
                for m in messages]
    return [{k: v for k, v in m.items() if k != "reasoning_content"} for m in messages]


def saved(messages: list[dict], bug: str | None) -> list[dict]:
    if bug == "save-results-without-calls":
        return [{k: v for k, v in m.items() if k != "tool_calls"} for m in messages]
    return messages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--session", required=True)
    parser.add_argument("--provider", default="openai")
    parser.add_argument("--model", default="gpt-4.1-mini")
    parser.add_argument("--bug", choices=("save-results-without-calls",), help="put a known bug back")
    parser.add_argument("prompt")
    options = parser.parse_args(argv)
    state = Path(os.environ.get("AGENT_STATE_DIR") or Path(tempfile.gettempdir()) / "openai-agent")
    state.mkdir(parents=True, exist_ok=True)
    session = state / (re.sub(r"[^A-Za-z0-9_.-]", "_", options.session) + ".json")
    history = json.loads(session.read_text(encoding="utf-8")) if session.exists() else []
    client = openai.OpenAI(base_url=options.base_url, api_key=os.environ.get("OPENAI_API_KEY", "unused"),
                           max_retries=0, timeout=60)
    messages = history + [{"role": "user", "content": options.prompt}]
    try:
        for _ in range(MAX_ROUNDS):
            message = one_round(client, options.model, for_provider(messages, options.provider))
            messages.append(message)
            for call in message.get("tool_calls") or ():
                result = run_tool(call["function"]["name"], call["function"]["arguments"])
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": result})
            if not message.get("tool_calls"):
                break
    except openai.APIError as exc:
        print(f"agent: the turn failed: {exc}", file=sys.stderr)
        return 1
    session.write_text(json.dumps(saved(messages, options.bug), ensure_ascii=False), encoding="utf-8")
    print(messages[-1].get("content") or "")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
