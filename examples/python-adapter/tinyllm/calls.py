"""Streamed tool calls: fragments joined into whole calls by their upstream ``index``."""

from __future__ import annotations

import json


class ToolCalls:
    """A fragment belongs to the call its ``index`` names, never to its place in the chunk."""

    def __init__(self) -> None:
        self.opened: list[tuple[int, dict]] = []  # (index, call) in the order the calls opened
        self.open: dict[int, dict] = {}  # index -> the call open there now
        self.last: int | None = None

    def add(self, fragments: list[dict]) -> None:
        for fragment in fragments:
            index = fragment.get("index")
            if index is None:  # no index: the fragment continues the latest call
                index = 0 if self.last is None else self.last
            function = fragment.get("function") or {}
            call = self.open.get(index)
            new_id = fragment.get("id")
            if call is None or (new_id and call["id"] and new_id != call["id"]):
                # A new id at a taken index opens the next call (endpoints that number every call 0).
                call = {"id": new_id, "name": function.get("name"), "arguments": ""}
                self.open[index] = call
                self.opened.append((index, call))
            arguments = function.get("arguments")
            if isinstance(arguments, dict):
                arguments = json.dumps(arguments, separators=(",", ":"), ensure_ascii=False)
            if arguments:
                call["arguments"] += arguments
            self.last = index

    def result(self) -> list[dict]:
        """The calls in upstream index order; calls that shared an index in arrival order."""
        return [dict(call) for _, call in sorted(self.opened, key=lambda pair: pair[0])]
