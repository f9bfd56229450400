"""A stream parser with the bug of incident `sse-index-accumulation`: it keys call fragments by their position.

Each fragment goes to the call at its place in the delta's ``tool_calls``
list, not to the call its ``index`` names, so a second call streamed in a
delta of its own lands on the first.
"""

import json


class PositionKeyed:
    name = "position-keyed sample"

    def parse_stream(self, body: bytes) -> dict:
        got = {"content": "", "reasoning": "", "tool_calls": [], "finish_reason": None, "usage": None}
        calls: dict[int, dict] = {}
        for event in body.decode().split("\n\n"):
            data = event.strip().removeprefix("data: ")
            if not data or data == "[DONE]":
                continue
            chunk = json.loads(data)
            got["usage"] = chunk.get("usage") or got["usage"]
            for choice in chunk.get("choices") or []:
                delta = choice.get("delta") or {}
                got["content"] += delta.get("content") or ""
                got["reasoning"] += delta.get("reasoning_content") or ""
                got["finish_reason"] = choice.get("finish_reason") or got["finish_reason"]
                for position, fragment in enumerate(delta.get("tool_calls") or []):
                    call = calls.setdefault(position, {"id": "", "name": "", "arguments": ""})
                    function = fragment.get("function") or {}
                    call["id"] = fragment.get("id") or call["id"]
                    call["name"] = function.get("name") or call["name"]
                    call["arguments"] += function.get("arguments") or ""
        got["tool_calls"] = [calls[n] for n in sorted(calls)]
        return got


adapter = PositionKeyed()
