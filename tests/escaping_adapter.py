"""An adapter whose name and error text carry terminal control characters (ESC, BEL), as a hostile library's could."""

from sample_adapters import StreamOnly

CONTROL = "\x1b]0;owned\x07\x1b[2J"  # sets the terminal's title, rings, clears the screen


class Escaping(StreamOnly):
    name = f"escaping sample {CONTROL}"

    def parse_stream(self, body: bytes) -> dict:
        raise ValueError(f"cannot parse {CONTROL}")


adapter = Escaping()
