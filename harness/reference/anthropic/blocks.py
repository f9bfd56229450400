"""One content block of a Messages stream while it arrives, keyed by its ``index``.

A block is opened by ``content_block_start`` with its type and its values so
far, grows by deltas of its own kind only, and is closed by
``content_block_stop``. Pieces of a value are kept in arrival order and joined
once, at the end: text, thinking, the signature and a tool's partial JSON
alike, an empty piece included (a tool with no arguments streams only ``""``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

# The wire block type, the neutral block type, and the value each delta type adds to (wire field -> neutral key).
_KINDS = {
    "text": ("text", {"text_delta": ("text", "text")}),
    "thinking": ("reasoning", {"thinking_delta": ("thinking", "text"), "signature_delta": ("signature", "signature")}),
    "redacted_thinking": ("redacted_reasoning", {}),
    "tool_use": ("tool_call", {"input_json_delta": ("partial_json", "arguments")}),
}


class BlockError(ValueError):
    """A block event the decoder refuses; the stream decoder names the event."""


@dataclass
class OpenBlock:
    kind: str  # the neutral block type
    deltas: dict[str, tuple[str, str]]
    values: dict[str, list[str]] = field(default_factory=dict)
    fixed: dict[str, str] = field(default_factory=dict)  # values that arrive whole at the start: id, name, data
    whole_input: str = ""  # a tool input some translators send whole in the start, with no deltas
    closed: bool = False

    @classmethod
    def start(cls, block: dict) -> OpenBlock:
        wire_type = block.get("type")
        if wire_type not in _KINDS:
            raise BlockError(f"content block of unknown type {wire_type!r}")
        kind, deltas = _KINDS[wire_type]
        opened = cls(kind, deltas)
        if kind == "text":
            opened.values["text"] = [_string(block, "text")]
        elif kind == "reasoning":
            opened.values["text"] = [_string(block, "thinking")]
            opened.values["signature"] = [_string(block, "signature")]
        elif kind == "redacted_reasoning":
            opened.fixed["data"] = _required(block, "data")
        else:
            opened.fixed["id"] = _required(block, "id")
            opened.fixed["name"] = _required(block, "name")
            opened.values["arguments"] = []
            if block.get("input"):
                opened.whole_input = json.dumps(block["input"], ensure_ascii=False, separators=(",", ":"))  # pragma: no mutate (out of scope: `ensure_ascii=False` -> `ensure_ascii=None`, `ensure_ascii=False` -> `ensure_ascii=True`, `ensure_ascii=False, ` -> ``, `separators=(",", ":")` -> `separators=None`, `, separators=(",", ":")` -> `, `: the spacing and escaping of JSON text, which parses to the same input)
        return opened

    def add(self, delta: dict) -> None:
        if self.closed:
            raise BlockError("a delta after the block's content_block_stop")
        delta_type = delta.get("type")
        if delta_type not in self.deltas:
            raise BlockError(f"a {delta_type!r} delta in a {self.kind} block")
        wire_field, key = self.deltas[delta_type]
        self.values.setdefault(key, []).append(_required(delta, wire_field))  # pragma: no mutate (equivalent: `[]` -> `None`, `[]` -> ``: start() opens every value a delta adds to, so the default is never taken)

    def neutral(self) -> dict:
        joined = {key: "".join(pieces) for key, pieces in self.values.items()}
        if self.kind == "tool_call" and not self.values["arguments"]:
            joined["arguments"] = self.whole_input
        return {"type": self.kind, **self.fixed, **joined}


def _string(data: dict, key: str) -> str:
    value = data.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BlockError(f"{key} is {value!r}, not a string")
    return value


def _required(data: dict, key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise BlockError(f"{key} is {value!r}; a string is required")
    return value
