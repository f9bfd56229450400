"""The shapes of a ConverseStream body (:mod:`harness.testing.shapes`): what Bedrock sends beside the codec's layout.

The codec writes no start event for a text block, no padding, ``metadata``
with its usage and metrics. Bedrock itself also pads every event's payload
with a ``p`` field of filler characters (so a payload's length says nothing
of its content), sends ``metadata`` without ``metrics`` through some
gateways, and opens text blocks with an empty ``contentBlockStart`` on some
models.
"""

from __future__ import annotations

from harness.testing.shapes import Shape

_PAD = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0"


def _padded(events: list) -> list:
    for k, event in enumerate(events):
        for payload in event.values():
            payload["p"] = _PAD[: 1 + k % len(_PAD)]
    return events


def _no_metrics(events: list) -> list:
    for event in events:
        event.get("metadata", {}).pop("metrics", None)
    return events


def _text_starts(events: list) -> list:
    opened, found = set(), []
    for event in events:
        start = event.get("contentBlockStart")
        if start is not None:
            opened.add(start["contentBlockIndex"])
        delta = event.get("contentBlockDelta")
        if delta is not None and delta["contentBlockIndex"] not in opened:
            opened.add(delta["contentBlockIndex"])
            found.append({"contentBlockStart": {"contentBlockIndex": delta["contentBlockIndex"], "start": {}}})
        found.append(event)
    return found


SHAPES = (
    Shape("payloads padded with p", "Bedrock", _padded),
    Shape("metadata without metrics", "Bedrock", _no_metrics),
    Shape("text blocks opened by an empty start", "Bedrock (some models)", _text_starts),
)
