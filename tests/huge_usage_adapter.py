"""An adapter whose parsed usage holds a 5,001-digit integer, past the digits Python converts to text by default."""

from sample_adapters import StreamOnly


class HugeUsage(StreamOnly):
    name = "huge-usage sample"

    def parse_stream(self, body: bytes) -> dict:
        parsed = super().parse_stream(body)
        parsed["usage"] = {"prompt_tokens": 10**5000, "completion_tokens": 1, "total_tokens": 2}
        return parsed


adapter = HugeUsage()
