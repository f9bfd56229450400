"""One way every stream contract sends a turn: the format's codec writes its body, the adapter parses it, the codec reads it back."""

from __future__ import annotations

from typing import Any

from harness.clip import shown
from harness.formats import spec_for
from harness.under_test.invoke import valid


def decoded(stream, format: str, turn: dict, cut: Any = None) -> tuple[object, str]:
    """``(the turn the adapter decoded, where)``: ``where`` names the format, the turn sent and the body."""
    codec = spec_for(format).codec
    body = codec.body(turn, cut)
    return codec.decode(valid(stream).parse_stream(body)), f"{format} turn {shown(turn)}; stream: {shown(body)}"
