#!/usr/bin/env python3
"""A small agent on the ``openai`` Python SDK's Responses API: streamed, reasoning kept, tools, a session on disk.

    python examples/responses-agent/agent.py --base-url URL --session ID PROMPT

The kind of agent ``harness probe --format openai-responses`` is for: nothing
in it knows the harness. It keeps the conversation (``input`` items) in a
JSON file per ``--session`` under ``$AGENT_STATE_DIR`` (default: a folder in
the temporary directory) and runs up to eight rounds per turn. It asks for
nothing to be stored (``store: false``) and for the reasoning's
``encrypted_content``, so every output item goes back in the next request
whole and in the order streamed, each reasoning item before the item it came
with.

``--bug drop-reasoning`` puts back incident `responses-call-without-reasoning`:
the reasoning items are dropped from the replayed input, as histories that
kept only messages and tool calls did.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import openai

MAX_ROUNDS = 8
TOOLS = [
    {"type": "function", "name": "get_weather", "description": "Current weather in a city",
     "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
    {"type": "function", "name": "list_cities", "description": "Every city the weather service knows",
     "parameters": {"type": "object", "properties": {}}},
]
BUGS = ("drop-reasoning",)


def run_tool(name: str, arguments: dict) -> str:
    if name == "get_weather":
        return f"18 °C and clear in {arguments.get('city', '?')}"
    return "Zürich, Tokyo"


def replayed(output: list[dict], bug: str | None) -> list[dict]:
    """The output items to keep: as received, unless a bug is asked for."""
    if bug == "drop-reasoning":
        return [item for item in output if item["type"] != "reasoning"]
    return output


def completed(events) -> openai.types.responses.Response:
    """The response ``response.completed`` carries; a stream that ends any other way is an error, never an answer.

    The whole response is read from that event rather than rebuilt from the
    deltas, so the output items go back exactly as the provider finished them.
    """
    for event in events:
        if event.type == "response.completed":
            return event.response
        if event.type in ("error", "response.failed", "response.incomplete"):
            raise RuntimeError(f"the response did not complete: {event.to_json(indent=None)}")
    raise RuntimeError("the stream ended before response.completed")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--session", default="default")
    parser.add_argument("--model", default="gpt-5")
    parser.add_argument("--bug", choices=BUGS)
    parser.add_argument("prompt")
    args = parser.parse_args()
    state = Path(os.environ.get("AGENT_STATE_DIR") or Path(tempfile.gettempdir()) / "responses-agent")
    state.mkdir(parents=True, exist_ok=True)
    path = state / f"{args.session}.json"
    items = json.loads(path.read_text(encoding="utf-8")) if path.exists() else []
    items.append({"role": "user", "content": args.prompt})
    client = openai.OpenAI(base_url=args.base_url, api_key=os.environ.get("OPENAI_API_KEY") or "example-key",
                           max_retries=0)
    for _ in range(MAX_ROUNDS):
        final = completed(client.responses.create(model=args.model, input=items, tools=TOOLS, store=False,
                                                  include=["reasoning.encrypted_content"], stream=True,
                                                  reasoning={"effort": "low", "summary": "auto"}))
        output = [item.model_dump(exclude_none=True) for item in final.output]
        items += replayed(output, args.bug)
        calls = [item for item in output if item["type"] == "function_call"]
        if not calls:
            print(final.output_text)
            path.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
            return 0
        items += [{"type": "function_call_output", "call_id": call["call_id"],
                   "output": run_tool(call["name"], json.loads(call["arguments"] or "{}"))} for call in calls]
    print("gave up after", MAX_ROUNDS, "rounds", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
