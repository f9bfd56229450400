"""The harness adapter over tinyllm: ``harness check --adapter tinyllm.adapter:adapter``."""

from __future__ import annotations

from tinyllm.messages import serialize_message
from tinyllm.stream import parse_stream


class TinyAdapter:
    name = "tinyllm"

    def parse_stream(self, body: bytes) -> dict:
        return parse_stream(body)

    def serialize_message(self, message: dict) -> dict:
        return serialize_message(message)


adapter = TinyAdapter()
