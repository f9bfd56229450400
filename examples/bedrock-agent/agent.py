#!/usr/bin/env python3
"""A small Bedrock agent on boto3: ``converse_stream`` with thinking and tools, a session on disk.

    python examples/bedrock-agent/agent.py --base-url URL --session ID PROMPT

The kind of agent ``harness probe --format bedrock`` is for: nothing in it
knows the harness. ``--base-url`` is the Bedrock runtime endpoint boto3 is
pointed at (``endpoint_url``); requests are signed with SigV4 from the
environment's AWS credentials (placeholders when there are none, which the
loopback takes: it checks their shape, never their signature). botocore
parses the event-stream body; the agent builds each content block by its
``contentBlockIndex`` (a text block has no start event), joins a call's input
pieces, and sends each reasoning block back with its own signature and each
redacted block with its bytes. It keeps the conversation (``messages``) in a
JSON file per ``--session`` under ``$AGENT_STATE_DIR`` and runs up to eight
rounds per turn.

``--bug join-signatures`` puts back incident `bedrock-signature-joined`: one
signature buffer for the whole answer, never cleared between reasoning
blocks, so the second block goes back signed ``SIG1SIG2``.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys
import tempfile
from pathlib import Path

import boto3

MAX_ROUNDS = 8
TOOLS = {"tools": [
    {"toolSpec": {"name": "get_weather", "description": "Current weather in a city", "inputSchema": {"json": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}},
    {"toolSpec": {"name": "list_cities", "description": "Every city the weather service knows",
                  "inputSchema": {"json": {"type": "object", "properties": {}}}}},
]}
BUGS = ("join-signatures",)


def run_tool(name: str, arguments: dict) -> str:
    if name == "get_weather":
        return f"18 °C and clear in {arguments.get('city', '?')}"
    return "Zürich, Tokyo"


def stream_turn(client, model: str, messages: list, bug: str | None) -> tuple[list[dict], str]:
    """The content blocks of one streamed answer, by index, and its stop reason; raises on an exception event."""
    blocks: dict[int, dict] = {}
    inputs: dict[int, str] = {}
    stop, joined = None, ""
    response = client.converse_stream(
        modelId=model, messages=messages, toolConfig=TOOLS, inferenceConfig={"maxTokens": 8192},
        additionalModelRequestFields={"thinking": {"type": "enabled", "budget_tokens": 4096}})
    for event in response["stream"]:
        if "contentBlockStart" in event:
            start = event["contentBlockStart"]
            if "toolUse" in start.get("start", {}):
                tool = start["start"]["toolUse"]
                blocks[start["contentBlockIndex"]] = {"toolUse": {"toolUseId": tool["toolUseId"], "name": tool["name"]}}
                inputs[start["contentBlockIndex"]] = ""
        elif "contentBlockDelta" in event:
            index, delta = event["contentBlockDelta"]["contentBlockIndex"], event["contentBlockDelta"]["delta"]
            if "text" in delta:
                block = blocks.setdefault(index, {"text": ""})
                block["text"] += delta["text"]
            elif "toolUse" in delta:
                inputs[index] += delta["toolUse"].get("input", "")
            elif "reasoningContent" in delta:
                piece = delta["reasoningContent"]
                if "redactedContent" in piece:
                    blocks[index] = {"reasoningContent": {"redactedContent": piece["redactedContent"]}}
                    continue
                text = blocks.setdefault(index, {"reasoningContent": {"reasoningText": {"text": "", "signature": ""}}})
                said = text["reasoningContent"]["reasoningText"]
                said["text"] += piece.get("text", "")
                if "signature" in piece:
                    joined += piece["signature"]
                    said["signature"] = joined if bug == "join-signatures" else said["signature"] + piece["signature"]
        elif "messageStop" in event:
            stop = event["messageStop"]["stopReason"]
    if stop is None:
        raise RuntimeError("the stream ended before messageStop")
    for index, text in inputs.items():
        blocks[index]["toolUse"]["input"] = json.loads(text) if text else {}
    return [blocks[k] for k in sorted(blocks)], stop


def _stored(messages: list) -> list:
    """``messages`` as JSON: redacted bytes as base64 (read back by :func:`_loaded`)."""
    def blob(value):
        return {"$bytes": base64.b64encode(value).decode()} if isinstance(value, bytes) else value
    return json.loads(json.dumps(messages, default=blob))


def _loaded(value):
    if isinstance(value, dict):
        return base64.b64decode(value["$bytes"]) if value.keys() == {"$bytes"} else {k: _loaded(v) for k, v in value.items()}
    return [_loaded(v) for v in value] if isinstance(value, list) else value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--session", default="default")
    parser.add_argument("--model", default="anthropic.claude-sonnet-4-5-20250929-v1:0")
    parser.add_argument("--bug", choices=BUGS)
    parser.add_argument("prompt")
    args = parser.parse_args()
    state = Path(os.environ.get("AGENT_STATE_DIR") or Path(tempfile.gettempdir()) / "bedrock-agent")
    state.mkdir(parents=True, exist_ok=True)
    path = state / f"{args.session}.json"
    messages = _loaded(json.loads(path.read_text(encoding="utf-8"))) if path.exists() else []
    messages.append({"role": "user", "content": [{"text": args.prompt}]})
    client = boto3.client("bedrock-runtime", endpoint_url=args.base_url, region_name="us-east-1",
                          aws_access_key_id=os.environ.get("AWS_ACCESS_KEY_ID") or "AKIDEXAMPLE",
                          aws_secret_access_key=os.environ.get("AWS_SECRET_ACCESS_KEY") or "example-secret")
    for _ in range(MAX_ROUNDS):
        content, _stop = stream_turn(client, args.model, messages, args.bug)
        messages.append({"role": "assistant", "content": content})
        calls = [block["toolUse"] for block in content if "toolUse" in block]
        if not calls:
            print("".join(block.get("text", "") for block in content))
            path.write_text(json.dumps(_stored(messages), ensure_ascii=False), encoding="utf-8")
            return 0
        messages.append({"role": "user", "content": [
            {"toolResult": {"toolUseId": c["toolUseId"], "content": [{"text": run_tool(c["name"], c["input"])}],
                            "status": "success"}} for c in calls]})
    print("gave up after", MAX_ROUNDS, "rounds", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
