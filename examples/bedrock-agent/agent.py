#!/usr/bin/env python3
"""A small Bedrock Converse agent on boto3: ``converse_stream``, Claude's thinking, tools, a session on disk.

    python examples/bedrock-agent/agent.py --base-url URL --session ID PROMPT

The kind of agent ``harness probe --format bedrock`` is for: nothing in it
knows the harness. ``--base-url`` is the ``bedrock-runtime`` endpoint URL
(boto3's ``endpoint_url``; boto3 adds ``/model/MODEL/converse-stream`` and
signs each request with SigV4, from the usual AWS credentials or example
ones). It keeps the conversation (``messages``) in a JSON file per
``--session`` under ``$AGENT_STATE_DIR`` (default: a folder in the temporary
directory) and runs up to eight rounds per turn. Each streamed block is known
by its ``contentBlockIndex``; the blocks go back as one assistant message, in
index order, each reasoning block with its own signature and redacted bytes as
sent; the calls are answered in the next user message, one ``toolResult``
each.

``--bug carry-signature`` puts back incident `bedrock-signature-joined`: the
signature is one variable for the whole turn, never cleared between blocks, so
the second reasoning block goes back signed ``SIG1SIG2``.
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
from botocore.config import Config

MAX_ROUNDS = 8
TOOLS = {"tools": [
    {"toolSpec": {"name": "get_weather", "description": "Current weather in a city",
                  "inputSchema": {"json": {"type": "object", "properties": {"city": {"type": "string"}},
                                           "required": ["city"]}}}},
    {"toolSpec": {"name": "list_cities", "description": "Every city the weather service knows",
                  "inputSchema": {"json": {"type": "object", "properties": {}}}}},
]}
THINKING = {"thinking": {"type": "enabled", "budget_tokens": 2048}}
BUGS = ("carry-signature",)


def run_tool(name: str, arguments: dict) -> str:
    if name == "get_weather":
        return f"18 °C and clear in {arguments.get('city', '?')}"
    return "Zürich, Tokyo"


def stream_turn(client, model: str, messages: list, bug: str | None) -> tuple[list[dict], str]:
    """The content blocks of one streamed answer, in index order, and its stop reason; raises on an exception."""
    blocks: dict[int, dict] = {}
    carried = ""  # the bug's one signature for the whole turn
    stop = None
    response = client.converse_stream(modelId=model, messages=messages, toolConfig=TOOLS,
                                      inferenceConfig={"maxTokens": 4096}, additionalModelRequestFields=THINKING)
    for event in response["stream"]:  # botocore raises an exception message as EventStreamError
        if "contentBlockStart" in event:
            start = event["contentBlockStart"]
            tool = start["start"].get("toolUse")
            if tool is not None:
                blocks[start["contentBlockIndex"]] = {"toolUse": {**tool, "input": ""}}
        elif "contentBlockDelta" in event:
            index, delta = event["contentBlockDelta"]["contentBlockIndex"], event["contentBlockDelta"]["delta"]
            if "text" in delta:
                block = blocks.setdefault(index, {"text": ""})
                block["text"] += delta["text"]
            elif "toolUse" in delta:
                blocks[index]["toolUse"]["input"] += delta["toolUse"].get("input", "")
            elif "redactedContent" in delta["reasoningContent"]:
                blocks[index] = {"reasoningContent": {"redactedContent": delta["reasoningContent"]["redactedContent"]}}
            else:
                piece = delta["reasoningContent"]
                reasoning = blocks.setdefault(index, {"reasoningContent": {"reasoningText": {"text": ""}}})
                held = reasoning["reasoningContent"]["reasoningText"]
                held["text"] += piece.get("text", "")
                if "signature" in piece:
                    carried += piece["signature"]
                    held["signature"] = carried if bug == "carry-signature" else held.get("signature", "") + \
                        piece["signature"]
        elif "messageStop" in event:
            stop = event["messageStop"]["stopReason"]
    if stop is None:
        raise RuntimeError("the stream ended before messageStop")
    content = [blocks[i] for i in sorted(blocks)]
    for block in content:
        if "toolUse" in block:
            block["toolUse"]["input"] = json.loads(block["toolUse"]["input"] or "{}")
    return [b for b in content if "text" not in b or b["text"].strip()], stop


def _to_json(value):
    """Messages as JSON: redacted reasoning's bytes as base64 under a key of their own."""
    if isinstance(value, bytes):
        return {"$bytes": base64.b64encode(value).decode()}
    if isinstance(value, dict):
        return {k: _to_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_to_json(v) for v in value]
    return value


def _from_json(value):
    if isinstance(value, dict):
        return base64.b64decode(value["$bytes"]) if set(value) == {"$bytes"} else {
            k: _from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    return value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--session", default="default")
    parser.add_argument("--model", default="anthropic.claude-sonnet-4-20250514-v1:0")
    parser.add_argument("--bug", choices=BUGS)
    parser.add_argument("prompt")
    args = parser.parse_args()
    state = Path(os.environ.get("AGENT_STATE_DIR") or Path(tempfile.gettempdir()) / "bedrock-agent")
    state.mkdir(parents=True, exist_ok=True)
    path = state / f"{args.session}.json"
    messages = _from_json(json.loads(path.read_text(encoding="utf-8"))) if path.exists() else []
    messages.append({"role": "user", "content": [{"text": args.prompt}]})
    client = boto3.client("bedrock-runtime", endpoint_url=args.base_url,
                          region_name=os.environ.get("AWS_REGION") or "us-east-1",
                          aws_access_key_id=os.environ.get("AWS_ACCESS_KEY_ID") or "AKIAEXAMPLE",
                          aws_secret_access_key=os.environ.get("AWS_SECRET_ACCESS_KEY") or "example-secret",
                          config=Config(retries={"max_attempts": 1}))
    for _ in range(MAX_ROUNDS):
        content, _stop = stream_turn(client, args.model, messages, args.bug)
        messages.append({"role": "assistant", "content": content})
        calls = [block["toolUse"] for block in content if "toolUse" in block]
        if not calls:
            print("".join(block.get("text", "") for block in content))
            path.write_text(json.dumps(_to_json(messages), ensure_ascii=False), encoding="utf-8")
            return 0
        messages.append({"role": "user", "content": [
            {"toolResult": {"toolUseId": c["toolUseId"], "content": [{"text": run_tool(c["name"], c["input"])}],
                            "status": "success"}} for c in calls]})
    print("gave up after", MAX_ROUNDS, "rounds", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
