"""Small adapters the harness's own tests point the contracts at."""

from harness.reference import adapter as _reference


class CodecOnly:
    """A user's adapter that offers the codec capability and nothing else."""

    name = "codec-only sample"

    def serialize_message(self, message: dict) -> dict:
        return _reference.serialize_message(message)

    def parse_stream(self, body: bytes) -> dict:
        return _reference.parse_stream(body)

    def transform_request(self, body: dict, options: dict) -> dict:
        return _reference.transform_request(body, options)


class ReasoningInContent(CodecOnly):
    """The seed-000 bug in a user's adapter: reasoning folded into content."""

    name = "reasoning-in-content sample"

    def serialize_message(self, message: dict) -> dict:
        wire = dict(_reference.serialize_message(message))
        reasoning = wire.pop("reasoning_content", None)
        if reasoning:
            wire["content"] = reasoning + (wire.get("content") or "")
        return wire


codec_only = CodecOnly()
reasoning_in_content = ReasoningInContent()
