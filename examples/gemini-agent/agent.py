#!/usr/bin/env python3
"""A small Gemini agent in plain Python with httpx: streamed ``generateContent``, thinking, tools, a session on disk.

    python examples/gemini-agent/agent.py --base-url URL --session ID PROMPT

The kind of agent ``harness probe --format gemini`` is for: nothing in it
knows the harness. ``--base-url`` is the API's origin (the agent adds
``/v1beta/models/MODEL:streamGenerateContent?alt=sse``). It keeps the
conversation (``contents``) in a JSON file per ``--session`` under
``$AGENT_STATE_DIR`` (default: a folder in the temporary directory) and runs
up to eight rounds per turn. Each SSE event is a whole response whose parts
append to the answer; the parts go back as one model content, in the order
they came, each ``thoughtSignature`` on the part it came on, as Gemini 3
requires for function calling.

``--bug drop-signature`` puts back incident `gemini-signature-aggregation`:
the parts go back without their ``thoughtSignature``, as stream aggregators
that rebuilt the answer from names and arguments did.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

import httpx

MAX_ROUNDS = 8
TOOLS = [{"functionDeclarations": [
    {"name": "get_weather", "description": "Current weather in a city",
     "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
    {"name": "list_cities", "description": "Every city the weather service knows",
     "parameters": {"type": "object", "properties": {}}},
]}]
BUGS = ("drop-signature",)


def run_tool(name: str, arguments: dict) -> str:
    if name == "get_weather":
        return f"18 °C and clear in {arguments.get('city', '?')}"
    return "Zürich, Tokyo"


def sse_data(lines) -> list[dict]:
    """The JSON data of each server-sent event (``data:`` lines joined, the event ends at a blank line)."""
    found, data = [], []
    for line in [*lines, ""]:
        if not line:
            if data:
                found.append(json.loads("\n".join(data)))
            data = []
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
    return found


def stream_turn(client: httpx.Client, url: str, body: dict) -> tuple[list[dict], str]:
    """The parts of one streamed answer, in order, and its finish reason; raises on an error or a cut stream."""
    parts, finish = [], None
    with client.stream("POST", url, params={"alt": "sse"}, json=body) as response:
        if response.status_code != 200:
            response.read()
            raise RuntimeError(f"HTTP {response.status_code}: {response.text}")
        for chunk in sse_data(response.iter_lines()):
            if "error" in chunk:
                raise RuntimeError(f"error in the stream: {chunk['error']}")
            candidate = (chunk.get("candidates") or [{}])[0]
            parts += (candidate.get("content") or {}).get("parts") or []
            finish = candidate.get("finishReason") or finish
    if finish is None:
        raise RuntimeError("the stream ended before a finishReason")
    return parts, finish


def replayed(parts: list[dict], bug: str | None) -> list[dict]:
    """The model content's parts to keep: as received, unless a bug is asked for."""
    if bug == "drop-signature":
        return [{k: v for k, v in part.items() if k != "thoughtSignature"} for part in parts]
    return parts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--session", default="default")
    parser.add_argument("--model", default="gemini-3-pro-preview")
    parser.add_argument("--bug", choices=BUGS)
    parser.add_argument("prompt")
    args = parser.parse_args()
    state = Path(os.environ.get("AGENT_STATE_DIR") or Path(tempfile.gettempdir()) / "gemini-agent")
    state.mkdir(parents=True, exist_ok=True)
    path = state / f"{args.session}.json"
    contents = json.loads(path.read_text(encoding="utf-8")) if path.exists() else []
    contents.append({"role": "user", "parts": [{"text": args.prompt}]})
    url = f"{args.base_url.rstrip('/')}/v1beta/models/{args.model}:streamGenerateContent"
    headers = {"x-goog-api-key": os.environ.get("GEMINI_API_KEY") or "example-key"}
    with httpx.Client(headers=headers, timeout=60) as client:
        for _ in range(MAX_ROUNDS):
            body = {"contents": contents, "tools": TOOLS,
                    "generationConfig": {"thinkingConfig": {"includeThoughts": True}}}
            parts, _finish = stream_turn(client, url, body)
            contents.append({"role": "model", "parts": replayed(parts, args.bug)})
            calls = [part["functionCall"] for part in parts if "functionCall" in part]
            if not calls:
                print("".join(p.get("text", "") for p in parts if not p.get("thought")))
                path.write_text(json.dumps(contents, ensure_ascii=False), encoding="utf-8")
                return 0
            contents.append({"role": "user", "parts": [
                {"functionResponse": {**({"id": c["id"]} if c.get("id") else {}), "name": c["name"],
                                      "response": {"result": run_tool(c["name"], c.get("args") or {})}}}
                for c in calls]})
    print("gave up after", MAX_ROUNDS, "rounds", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
