"""A streamed answer as the non-streamed one: the same round, as one ``chat.completion`` object.

A request without ``"stream": true`` gets what the provider would send for it:
the chunks of the recorded or scripted stream folded into one message (tool
calls joined by their ``index``; a new ``id`` at a taken index opens the next
call, as gateways that number every call 0 mean it), with ``usage`` when the
stream had one. A stream that carried an ``error`` object is answered with
that error and HTTP 500.
"""

from __future__ import annotations

from harness.wire.sse import chunks


def fold(body: bytes) -> tuple[int, dict]:
    """(status, JSON body) of the non-streamed answer to the stream ``body``."""
    content, reasoning, calls = [], [], []
    finish, usage, envelope = None, None, {}
    for event in chunks(body):
        if "error" in event:
            return 500, {"error": event["error"]}
        envelope = envelope or {k: event[k] for k in ("id", "created", "model") if k in event}
        usage = event.get("usage") or usage
        for choice in event.get("choices") or ():
            delta = choice.get("delta") or {}
            content.append(delta.get("content") or "")
            reasoning.append(delta.get("reasoning_content") or "")
            finish = choice.get("finish_reason") or finish
            for fragment in delta.get("tool_calls") or ():
                _add(calls, fragment)
    message: dict = {"role": "assistant", "content": "".join(content) or (None if calls else "")}
    if any(reasoning):
        message["reasoning_content"] = "".join(reasoning)
    if calls:
        message["tool_calls"] = [{"id": c["id"], "type": "function",
                                  "function": {"name": c["name"], "arguments": c["arguments"]}} for c in calls]
    completion = {**envelope, "object": "chat.completion",
                  "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}]}
    if usage is not None:
        completion["usage"] = usage
    return 200, completion


def _add(calls: list[dict], fragment: dict) -> None:
    index = fragment.get("index", len(calls) - 1 if calls else 0)
    function = fragment.get("function") or {}
    by_index = [c for c in calls if c["index"] == index]
    if fragment.get("id") and (not by_index or by_index[-1]["id"] != fragment["id"]):
        calls.append({"index": index, "id": fragment["id"], "name": function.get("name") or "", "arguments": ""})
        by_index = [calls[-1]]
    if by_index:
        by_index[-1]["arguments"] += function.get("arguments") or ""
