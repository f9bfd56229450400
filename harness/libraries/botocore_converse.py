"""The contracts' view of botocore (boto3): ``converse_stream`` reading the body with AWS's own event-stream parser.

``parse_stream`` serves the body to ``client.converse_stream(...)`` of a
``bedrock-runtime`` client answered in memory
(:mod:`harness.libraries.bedrock_runtime`): botocore checks the framing, reads
the headers and yields each event as the dict its ConverseStream shapes give
(``{"contentBlockDelta": {...}}``), raising on an exception message. botocore
joins nothing itself, so the events are joined as the Converse docs describe a
stream: each block by its ``contentBlockIndex``, a call's ``toolUse.input``
pieces in order, a reasoning block's text and signature pieces each on their
own block; ``redactedContent`` is the bytes botocore decoded, written back as
base64; ``stop_reason`` is ``messageStop.stopReason`` and ``usage`` the
``metadata`` event's ``usage``. A stream that ended before its ``metadata``
event raises: botocore's reader stops quietly at a body cut inside a message,
and the turn it read is then incomplete.

Only the ``stream`` capability: a boto3 user writes the next request's
messages from the events as it likes; botocore has no conversion of its own.
"""

from __future__ import annotations

import base64

import botocore

from harness.libraries import bedrock_runtime

QUESTION = [{"role": "user", "content": [{"text": "Go."}]}]


def _block(blocks: dict[int, dict], index: int, kind: str) -> dict:
    block = blocks.setdefault(index, {"type": kind})
    if block["type"] != kind:
        raise ValueError(f"block {index} is a {block['type']} block; botocore yielded a {kind} delta for it")
    return block


def _delta(blocks: dict[int, dict], index: int, delta: dict) -> None:
    if "text" in delta:
        block = _block(blocks, index, "text")
        block["text"] = block.get("text", "") + delta["text"]
    elif "toolUse" in delta:
        block = _block(blocks, index, "tool_call")
        block["arguments"] = block.get("arguments", "") + delta["toolUse"].get("input", "")
    elif "redactedContent" in delta.get("reasoningContent", {}):
        block = _block(blocks, index, "redacted_reasoning")
        block["bytes"] = block.get("bytes", b"") + delta["reasoningContent"]["redactedContent"]
    elif "reasoningContent" in delta:
        block = _block(blocks, index, "reasoning")
        block["text"] = block.get("text", "") + delta["reasoningContent"].get("text", "")
        block["signature"] = block.get("signature", "") + delta["reasoningContent"].get("signature", "")
    else:
        raise ValueError(f"botocore yielded a delta the neutral turn has no block for: {delta!r}")


def _neutral(block: dict) -> dict:
    if block["type"] == "redacted_reasoning":
        return {"type": "redacted_reasoning", "data": base64.b64encode(block["bytes"]).decode()}
    if block["type"] == "tool_call":
        return {"type": "tool_call", "id": block.get("id", ""), "name": block.get("name", ""),
                "arguments": block.get("arguments", "")}
    if block["type"] == "reasoning":
        return {"type": "reasoning", "text": block.get("text", ""), "signature": block.get("signature", "")}
    return block


class BotocoreConverseAdapter:
    name = f"botocore {botocore.__version__}"
    format = "bedrock"

    def parse_stream(self, body: bytes) -> dict:
        runtime = bedrock_runtime.client(stream_body=body)
        blocks: dict[int, dict] = {}
        stop_reason, usage, ended = None, None, False
        for event in runtime.converse_stream(modelId=bedrock_runtime.MODEL, messages=QUESTION)["stream"]:
            if "contentBlockStart" in event:
                start = event["contentBlockStart"]
                tool = start["start"].get("toolUse")
                if tool is not None:
                    block = _block(blocks, start["contentBlockIndex"], "tool_call")
                    block.update(id=tool["toolUseId"], name=tool["name"])
            elif "contentBlockDelta" in event:
                _delta(blocks, event["contentBlockDelta"]["contentBlockIndex"], event["contentBlockDelta"]["delta"])
            elif "messageStop" in event:
                stop_reason = event["messageStop"]["stopReason"]
            elif "metadata" in event:
                usage, ended = event["metadata"].get("usage"), True
        if not ended:
            raise ValueError("the stream ended before its metadata event: the turn botocore read is incomplete")
        return {"blocks": [_neutral(blocks[i]) for i in sorted(blocks)], "stop_reason": stop_reason, "usage": usage}


adapter = BotocoreConverseAdapter()
