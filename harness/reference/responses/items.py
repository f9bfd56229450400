"""One output item of a Responses stream while it arrives, found by its ``item_id`` (else its ``output_index``).

An item may receive deltas before its ``response.output_item.added`` (the
provider does not promise the order across items), so an item is created by
whichever event names it first and completed by the others. Pieces of a value
are kept in arrival order and joined once, at the end; where no piece came,
the whole value of ``response.output_item.done`` stands (some translators send
only that). Opaque values (``encrypted_content``, ids) are kept as received.
"""

from __future__ import annotations

from dataclasses import dataclass, field

_TYPES = ("message", "reasoning", "function_call")


class ItemError(ValueError):
    """An item event the decoder refuses; the stream decoder names the event."""


@dataclass
class OpenItem:
    output_index: int | None = None
    item: dict = field(default_factory=dict)  # the item as added, then as done
    # Streamed pieces per part: ("text", content_index), ("summary", summary_index) or ("arguments", 0).
    pieces: dict[tuple[str, int], list[str]] = field(default_factory=dict)
    added: bool = False
    done: bool = False

    def open(self, item: dict) -> None:
        if item.get("type") not in _TYPES:
            raise ItemError(f"an output item of type {item.get('type')!r}")
        if not isinstance(item.get("id"), str):
            raise ItemError(f"an output item whose id is {item.get('id')!r}")
        self.item = {**self.item, **item}
        self.added = True

    def add(self, part: tuple[str, int], delta: object) -> None:
        if self.done:
            raise ItemError("a delta after the item's response.output_item.done")
        if not isinstance(delta, str):
            raise ItemError(f"a delta of {delta!r}; a string is required")
        self.pieces.setdefault(part, []).append(delta)

    def finish(self, item: dict) -> None:
        self.open(item)
        self.done = True

    def _joined(self, kind: str) -> dict[int, str]:
        return {index: "".join(p) for (k, index), p in sorted(self.pieces.items()) if k == kind}

    def blocks(self) -> list[dict]:
        kind, item_id = self.item.get("type"), self.item["id"]
        if kind == "message":
            whole = {n: part.get("text") or "" for n, part in enumerate(self.item.get("content") or [])
                     if part.get("type") == "output_text"}
            texts = {**whole, **self._joined("text")}
            return [{"type": "text", "text": texts[n], "item_id": item_id} for n in sorted(texts)]
        if kind == "reasoning":
            whole = {n: part.get("text") or "" for n, part in enumerate(self.item.get("summary") or [])}
            summary = [text for _, text in sorted({**whole, **self._joined("summary")}.items())]
            return [{"type": "reasoning", "text": "".join(summary), "signature": self.item.get("encrypted_content") or "",
                     "item_id": item_id, "summary": summary}]
        streamed = self._joined("arguments")
        arguments = streamed[0] if streamed else self.item.get("arguments") or ""
        for key in ("call_id", "name"):
            if not isinstance(self.item.get(key), str):
                raise ItemError(f"function_call {item_id!r} has {key} {self.item.get(key)!r}")
        return [{"type": "tool_call", "id": self.item["call_id"], "name": self.item["name"], "arguments": arguments,
                 "item_id": item_id}]
