"""The shapes of a ConverseStream body (:mod:`harness.testing.shapes`): what Bedrock sends beside the codec's layout.

The codec writes no padding and ``metadata`` with its usage and metrics.
Bedrock itself also pads every event's payload with a ``p`` field of filler
characters (so a payload's length says nothing of its content). Some gateways
forward ``metadata`` without the ``metrics`` AWS's model requires: a relay
layout. A text block never opens with a ``contentBlockStart`` (the start is a
union whose one member is ``toolUse``), so no shape draws one.
"""

from __future__ import annotations

from harness.testing.shapes import Shape, relay

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


SHAPES = (
    Shape("payloads padded with p", "Bedrock", _padded),
    relay("metadata without metrics", "gateways that forward only the usage", _no_metrics),
)
