"""The reference Gemini stream decoder: an ``alt=sse`` body to the neutral turn it streamed.

Each event's data is a whole ``GenerateContentResponse``: the parts of its
first candidate append to the turn in order, each a block of its own, with
the signature it carried. ``finishReason`` and ``usageMetadata`` are the last
ones sent (``FINISH_REASON_UNSPECIFIED``, the enum's default, is no finish). A chunk with an ``error`` object, a body that ends before any
``finishReason``, and any chunk it cannot read fully raise
:class:`StreamError` naming the event, so an incomplete turn is never
returned as if it were complete.
"""

from __future__ import annotations


from harness.reference.gemini.parts import PartError, to_block
from harness.reference.sse import StreamError, json_objects

__all__ = ["StreamError", "parse_stream"]

# What an interim chunk may carry where the turn has not finished: nothing, or the enum's default value.
_NOT_FINISHED = (None, "", "FINISH_REASON_UNSPECIFIED")


class _Turn:
    def __init__(self) -> None:
        self.blocks: list[dict] = []
        self.stop_reason: str | None = None
        self.usage: dict | None = None

    def add(self, chunk: dict) -> None:
        if "error" in chunk:
            error = chunk.get("error") or {}
            raise PartError(f"the provider sent an error mid-stream: {error.get('status')}: {error.get('message')}")
        if isinstance(chunk.get("usageMetadata"), dict):
            self.usage = chunk["usageMetadata"]
        candidates = chunk.get("candidates") or []
        if not isinstance(candidates, list):
            raise PartError(f"candidates is {candidates!r}, not a list")
        if not candidates:
            return  # a chunk with usage or prompt feedback only
        candidate = candidates[0]
        if not isinstance(candidate, dict):
            raise PartError(f"a candidate is {candidate!r}, not an object")
        content = candidate.get("content") or {}
        if not isinstance(content, dict):
            raise PartError(f"content is {content!r}, not an object")
        parts = content.get("parts") or []
        if not isinstance(parts, list):
            raise PartError(f"content.parts is {parts!r}, not a list")
        for part in parts:
            self.blocks.append(to_block(part))
        if candidate.get("finishReason") not in _NOT_FINISHED:
            self.stop_reason = candidate["finishReason"]

    def neutral(self) -> dict:
        return {"blocks": self.blocks, "stop_reason": self.stop_reason, "usage": self.usage}


def parse_stream(body: bytes) -> dict:
    turn = _Turn()
    number, data = 0, ""
    for number, data, chunk in json_objects(body):
        try:
            turn.add(chunk)
        except PartError as exc:
            raise StreamError(number, data, str(exc)) from None
    if turn.stop_reason is None:
        raise StreamError(number, data, "the stream ended before a finishReason: the turn is incomplete")
    return turn.neutral()
