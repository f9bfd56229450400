#!/usr/bin/env python3
"""A small agent on the ``anthropic`` Python SDK: streamed Messages, extended thinking, tools, a session on disk.

    python examples/anthropic-agent/agent.py --base-url URL --session ID PROMPT

The kind of agent ``harness probe --format anthropic`` is for: nothing in it
knows the harness. It keeps the conversation (wire messages) in a JSON file
per ``--session`` under ``$AGENT_STATE_DIR`` (default: a folder in the
temporary directory) and runs up to eight rounds per turn. Each assistant
message goes back exactly as the SDK accumulated it, every block in the
order streamed, thinking with its signature, as Anthropic requires in a tool
loop with thinking on; only text blocks that are empty or whitespace are
left out, since Anthropic refuses those sent back.

``--bug reorder-thinking`` puts back incident `anthropic-replay-regrouped`
(every thinking block moved to the front); ``--bug drop-signature`` puts back
`anthropic-opaque-lost` (thinking sent back without its signature).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import anthropic

MAX_ROUNDS = 8
TOOLS = [
    {"name": "get_weather", "description": "Current weather in a city",
     "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
    {"name": "list_cities", "description": "Every city the weather service knows",
     "input_schema": {"type": "object", "properties": {}}},
]
BUGS = ("reorder-thinking", "drop-signature")


def run_tool(name: str, arguments: dict) -> str:
    if name == "get_weather":
        return f"18 °C and clear in {arguments.get('city', '?')}"
    return "Zürich, Tokyo"


def replayed(content: list[dict], bug: str | None) -> list[dict]:
    """The assistant content to keep: as received but for blank text blocks, unless a bug is asked for."""
    content = [b for b in content if not (b["type"] == "text" and not b["text"].strip())]
    if bug == "reorder-thinking":
        return [b for b in content if b["type"] == "thinking"] + [b for b in content if b["type"] != "thinking"]
    if bug == "drop-signature":
        return [{**b, "signature": ""} if b["type"] == "thinking" else b for b in content]
    return content


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--session", default="default")
    parser.add_argument("--model", default="claude-sonnet-4-5")
    parser.add_argument("--bug", choices=BUGS)
    parser.add_argument("prompt")
    args = parser.parse_args()
    state = Path(os.environ.get("AGENT_STATE_DIR") or Path(tempfile.gettempdir()) / "anthropic-agent")
    state.mkdir(parents=True, exist_ok=True)
    path = state / f"{args.session}.json"
    messages = json.loads(path.read_text(encoding="utf-8")) if path.exists() else []
    messages.append({"role": "user", "content": args.prompt})
    client = anthropic.Anthropic(base_url=args.base_url, api_key=os.environ.get("ANTHROPIC_API_KEY") or "example-key",
                                 max_retries=0)
    for _ in range(MAX_ROUNDS):
        with client.messages.stream(model=args.model, max_tokens=4096, tools=TOOLS, messages=messages,
                                    thinking={"type": "enabled", "budget_tokens": 1024}) as stream:
            final = stream.get_final_message()
        content = [block.model_dump(exclude_none=True) for block in final.content]
        messages.append({"role": "assistant", "content": replayed(content, args.bug)})
        calls = [b for b in content if b["type"] == "tool_use"]
        if final.stop_reason != "tool_use" or not calls:
            print("".join(b.get("text", "") for b in content if b["type"] == "text"))
            path.write_text(json.dumps(messages, ensure_ascii=False), encoding="utf-8")
            return 0
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": c["id"], "content": run_tool(c["name"], c["input"])}
            for c in calls]})
    print("gave up after", MAX_ROUNDS, "rounds", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
